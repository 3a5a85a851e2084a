/* Little-endian byte buffers (bytes.h). */
#include "io/bytes.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *room(struct ga_byte_writer *w, size_t n)
{
    if (w->failed)
        return NULL;
    if (n > w->capacity - w->size) {
        size_t cap = w->capacity ? w->capacity : 4096;
        unsigned char *grown;
        while (cap - w->size < n) {
            if (cap > SIZE_MAX / 2) {
                w->failed = true;
                return NULL;
            }
            cap *= 2;
        }
        if (!(grown = realloc(w->data, cap))) {
            w->failed = true;
            return NULL;
        }
        w->data = grown;
        w->capacity = cap;
    }
    w->size += n;
    return w->data + w->size - n;
}

static void put_le(struct ga_byte_writer *w, uint64_t v, int bytes)
{
    unsigned char *p = room(w, (size_t)bytes);
    for (int i = 0; p && i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

void ga_bytes_put_u8(struct ga_byte_writer *w, uint8_t v) { put_le(w, v, 1); }
void ga_bytes_put_u32(struct ga_byte_writer *w, uint32_t v) { put_le(w, v, 4); }
void ga_bytes_put_u64(struct ga_byte_writer *w, uint64_t v) { put_le(w, v, 8); }

void ga_bytes_put_f64(struct ga_byte_writer *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    put_le(w, bits, 8);
}

void ga_bytes_put_raw(struct ga_byte_writer *w, const void *p, size_t n)
{
    unsigned char *to = room(w, n);
    if (to && n)
        memcpy(to, p, n);
}

void ga_bytes_put_str(struct ga_byte_writer *w, const char *s)
{
    size_t n = strlen(s);
    if (n > UINT32_MAX) {
        w->failed = true;
        return;
    }
    ga_bytes_put_u32(w, (uint32_t)n);
    ga_bytes_put_raw(w, s, n);
}

void ga_bytes_writer_free(struct ga_byte_writer *w)
{
    free(w->data);
    memset(w, 0, sizeof *w);
}

void ga_bytes_fail(struct ga_byte_reader *r, const char *why)
{
    if (!r->failure) {
        r->failure = why;
        r->failed_at = r->at;
    }
}

static uint64_t get_le(struct ga_byte_reader *r, int bytes)
{
    uint64_t v = 0;
    if (r->failure)
        return 0;
    if (r->size - r->at < (size_t)bytes) {
        ga_bytes_fail(r, "the file ends early");
        return 0;
    }
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)r->data[r->at + (size_t)i] << (8 * i);
    r->at += (size_t)bytes;
    return v;
}

uint8_t ga_bytes_get_u8(struct ga_byte_reader *r) { return (uint8_t)get_le(r, 1); }
uint32_t ga_bytes_get_u32(struct ga_byte_reader *r) { return (uint32_t)get_le(r, 4); }
uint64_t ga_bytes_get_u64(struct ga_byte_reader *r) { return get_le(r, 8); }

double ga_bytes_get_f64(struct ga_byte_reader *r)
{
    uint64_t bits = get_le(r, 8);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

void ga_bytes_get_str(struct ga_byte_reader *r, char *out, size_t cap)
{
    size_t start = r->at;
    uint32_t n = ga_bytes_get_u32(r);
    const char *why;

    out[0] = '\0';
    if (r->failure)
        return;
    why = n >= cap ? "a string is too long"
        : r->size - r->at < n ? "the file ends early"
        : memchr(r->data + r->at, '\0', n) ? "a string holds a NUL byte" : NULL;
    if (why) {
        r->at = start;
        ga_bytes_fail(r, why);
        return;
    }
    memcpy(out, r->data + r->at, n);
    out[n] = '\0';
    r->at += n;
}

uint64_t ga_bytes_fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}

enum ga_io_status ga_bytes_open_frame(const unsigned char *data, size_t size, const char *magic,
                                      uint32_t version, const char *what,
                                      struct ga_byte_reader *body, struct ga_io_error *err)
{
    struct ga_byte_reader r = { .data = data, .size = size, .at = GA_FRAME_MAGIC_LEN };
    uint32_t found;

    if (size < GA_FRAME_MAGIC_LEN || memcmp(data, magic, GA_FRAME_MAGIC_LEN) != 0)
        return ga_io_fail(err, GA_IO_MALFORMED, "not %s %s of gelu-acc (it does not start "
                          "with '%.16s')", strchr("aeiou", what[0]) ? "an" : "a", what, magic);
    found = ga_bytes_get_u32(&r);
    if (r.failure)
        return ga_io_fail(err, GA_IO_MALFORMED, "cut short after its first %zu bytes", size);
    if (found != version)
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "%s format version %u; this gelu-acc reads "
                          "version %u", what, found, version);
    if (size < GA_FRAME_MAGIC_LEN + 4 + 8)
        return ga_io_fail(err, GA_IO_MALFORMED, "cut short after its first %zu bytes", size);
    r.at = size - 8;
    if (ga_bytes_get_u64(&r) != ga_bytes_fnv1a(data, size - 8, GA_FNV1A_START))
        return ga_io_fail(err, GA_IO_MALFORMED, "damaged or cut short (its checksum does not "
                          "match its %zu bytes)", size);
    *body = (struct ga_byte_reader){ .data = data, .size = size - 8,
                                     .at = GA_FRAME_MAGIC_LEN + 4 };
    return ga_io_ok(err);
}

void ga_bytes_need(struct ga_byte_reader *r, bool ok, const char *why)
{
    if (!ok)
        ga_bytes_fail(r, why);
}

void ga_bytes_put_frame_head(struct ga_byte_writer *w, const char *magic, uint32_t version)
{
    ga_bytes_put_raw(w, magic, GA_FRAME_MAGIC_LEN);
    ga_bytes_put_u32(w, version);
}

enum ga_io_status ga_bytes_close_frame(struct ga_byte_writer *w, unsigned char **data,
                                       size_t *size, struct ga_io_error *err)
{
    ga_bytes_put_u64(w, ga_bytes_fnv1a(w->data, w->size, GA_FNV1A_START));
    if (w->failed) {
        ga_bytes_writer_free(w);
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    }
    *data = w->data;
    *size = w->size;
    return ga_io_ok(err);
}

enum ga_io_status ga_bytes_close_body(struct ga_byte_reader *body, const char *trailing,
                                      struct ga_io_error *err)
{
    ga_bytes_need(body, body->at == body->size, trailing);
    if (body->failure)
        return ga_io_fail(err, GA_IO_MALFORMED, "at byte %zu: %s", body->failed_at,
                          body->failure);
    return ga_io_ok(err);
}
