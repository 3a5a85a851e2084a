/* Little-endian byte buffers for binary files: a writer that grows, and a
 * reader that never reads past its end.  Values cross as fixed-width
 * integers (doubles as their IEEE bit patterns), so a file means the same on
 * every machine.  The reader keeps the first failure: after it, every read
 * returns zeros, and the caller checks once, at the end of a section. */
#ifndef GA_BYTES_H
#define GA_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io_error.h"

struct ga_byte_writer {
    unsigned char *data;
    size_t size, capacity;
    bool failed;              /* out of memory: everything after is dropped */
};

void ga_bytes_put_u8(struct ga_byte_writer *w, uint8_t v);
void ga_bytes_put_u32(struct ga_byte_writer *w, uint32_t v);
void ga_bytes_put_u64(struct ga_byte_writer *w, uint64_t v);
void ga_bytes_put_f64(struct ga_byte_writer *w, double v);
void ga_bytes_put_raw(struct ga_byte_writer *w, const void *p, size_t n);
/* A u32 length, then the bytes (no terminating NUL). */
void ga_bytes_put_str(struct ga_byte_writer *w, const char *s);
void ga_bytes_writer_free(struct ga_byte_writer *w);

struct ga_byte_reader {
    const unsigned char *data;
    size_t size, at;
    const char *failure;      /* NULL, or why the first failed read failed */
    size_t failed_at;         /* its offset */
};

uint8_t ga_bytes_get_u8(struct ga_byte_reader *r);
uint32_t ga_bytes_get_u32(struct ga_byte_reader *r);
uint64_t ga_bytes_get_u64(struct ga_byte_reader *r);
double ga_bytes_get_f64(struct ga_byte_reader *r);
/* A string of ga_bytes_put_str into out[cap]: fails (out = "") when it holds
 * cap bytes or more, or a NUL. */
void ga_bytes_get_str(struct ga_byte_reader *r, char *out, size_t cap);
/* Mark the reader failed at its offset, unless it failed already. */
void ga_bytes_fail(struct ga_byte_reader *r, const char *why);
/* The check of one field: ga_bytes_fail(r, why) unless ok. */
void ga_bytes_need(struct ga_byte_reader *r, bool ok, const char *why);

/* FNV-1a, 64 bits: a checksum that catches a flipped or cut file (not an
 * attacker). */
uint64_t ga_bytes_fnv1a(const void *p, size_t n, uint64_t h);
#define GA_FNV1A_START 0xcbf29ce484222325u

/* The frame of the project's binary files: a 16-byte magic, a u32 version,
 * the body, and the FNV-1a 64 of every byte before it.  Checks the magic,
 * the version and the checksum in that order ("not a WHAT of gelu-acc",
 * "WHAT format version N", "damaged or cut short"); then *body reads the
 * body alone. */
#define GA_FRAME_MAGIC_LEN 16
enum ga_io_status ga_bytes_open_frame(const unsigned char *data, size_t size, const char *magic,
                                      uint32_t version, const char *what,
                                      struct ga_byte_reader *body, struct ga_io_error *err);
/* Open a frame: the magic (GA_FRAME_MAGIC_LEN bytes) and the version. */
void ga_bytes_put_frame_head(struct ga_byte_writer *w, const char *magic, uint32_t version);
/* Close a frame: append the checksum and hand w's bytes to *data, *size
 * (GA_IO_SYSTEM, "out of memory", and w freed, when a write failed). */
enum ga_io_status ga_bytes_close_frame(struct ga_byte_writer *w, unsigned char **data,
                                       size_t *size, struct ga_io_error *err);
/* The end of a body read: refused with `trailing` unless every byte was
 * read; the first failure as GA_IO_MALFORMED, "at byte N: why". */
enum ga_io_status ga_bytes_close_body(struct ga_byte_reader *body, const char *trailing,
                                      struct ga_io_error *err);

#endif
