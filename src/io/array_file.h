/* One-dimensional arrays of encodings stored in files: a region of
 * little-endian elements (4 bytes for float32, 2 for float16 and bfloat16)
 * after an optional header.  npy.c and rawfile.c open and create these;
 * reading and writing the elements is shared here.
 *
 * Readers read with pread, so several threads may read one reader at once.
 * Writers stream: create with the final length, append in order, commit
 * (atomically, see atomic_file.h) or abort. */
#ifndef GA_ARRAY_FILE_H
#define GA_ARRAY_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "io/atomic_file.h"
#include "io/io_error.h"

enum ga_file_kind {
    GA_FILE_AUTO,   /* decide by the magic bytes (detect.h) */
    GA_FILE_NPY,    /* NumPy .npy, 1-D, little-endian */
    GA_FILE_RAW,    /* bare little-endian elements */
};

/* "npy", "raw", "auto". */
const char *ga_file_kind_name(enum ga_file_kind kind);

struct ga_array_reader {
    int fd;
    char *path;
    const struct ga_format *format;
    enum ga_file_kind kind;
    uint64_t data_offset;   /* byte where element 0 starts */
    uint64_t length;        /* elements */
};

struct ga_array_writer {
    struct ga_atomic_file file;
    const struct ga_format *format;
    enum ga_file_kind kind;
    uint64_t length, written;
};

/* Bytes per element of f in a file: 4 or 2. */
static inline size_t ga_element_size(const struct ga_format *f) { return (size_t)ga_storage_bytes(f); }

/* Read elements [first, first + count) into out.  Thread-safe. */
enum ga_io_status ga_array_read(const struct ga_array_reader *r, uint64_t first,
                                size_t count, ga_bits *out, struct ga_io_error *err);

/* The whole array into a malloc'ed buffer (free() it); *n its length. */
enum ga_io_status ga_array_read_all(const struct ga_array_reader *r, ga_bits **out,
                                    size_t *n, struct ga_io_error *err);

void ga_array_close(struct ga_array_reader *r);

/* GA_IO_MISMATCH, naming both files, unless a and b have the same length. */
enum ga_io_status ga_array_check_same_length(const struct ga_array_reader *a,
                                             const struct ga_array_reader *b,
                                             struct ga_io_error *err);

/* Append count encodings; each must fit the format (GA_IO_RANGE otherwise),
 * and no more than the length given at creation. */
enum ga_io_status ga_array_append(struct ga_array_writer *w, const ga_bits *v,
                                  size_t count, struct ga_io_error *err);

/* Check that all elements were written, then commit the file.  Releases w. */
enum ga_io_status ga_array_commit(struct ga_array_writer *w, struct ga_io_error *err);

/* Discard the file being written.  Releases w. */
void ga_array_abort(struct ga_array_writer *w);

/* For npy.c and rawfile.c: open path for reading (*r->fd set, size in
 * *size), and start a writer whose header, if any, the caller writes next. */
enum ga_io_status ga_array_open_fd(struct ga_array_reader *r, const char *path,
                                   const struct ga_format *f, enum ga_file_kind kind,
                                   uint64_t *size, struct ga_io_error *err);
/* The same over fd, already open (closed by ga_array_close, or now when
 * refused). */
enum ga_io_status ga_array_adopt_fd(struct ga_array_reader *r, int fd, const char *path,
                                    const struct ga_format *f, enum ga_file_kind kind,
                                    uint64_t *size, struct ga_io_error *err);
enum ga_io_status ga_array_start_writer(struct ga_array_writer *w, const char *path,
                                        const struct ga_format *f, enum ga_file_kind kind,
                                        uint64_t length, bool overwrite,
                                        struct ga_io_error *err);

#endif
