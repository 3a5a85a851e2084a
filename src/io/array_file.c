/* Elements of array files: little-endian bytes <-> encodings. */
#define _GNU_SOURCE
#include "io/array_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Elements converted per system call: 64 KiB of float32. */
enum { CHUNK = 16384 };

const char *ga_file_kind_name(enum ga_file_kind kind)
{
    switch (kind) {
    case GA_FILE_AUTO: return "auto";
    case GA_FILE_NPY:  return "npy";
    case GA_FILE_RAW:  return "raw";
    }
    return "unknown";
}

/* Little-endian whatever the host order. */
static ga_bits load_le(const unsigned char *p, size_t size)
{
    ga_bits v = 0;
    for (size_t i = size; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void store_le(unsigned char *p, size_t size, ga_bits v)
{
    for (size_t i = 0; i < size; i++, v >>= 8)
        p[i] = (unsigned char)(v & 0xff);
}

enum ga_io_status ga_array_open_fd(struct ga_array_reader *r, const char *path,
                                   const struct ga_format *f, enum ga_file_kind kind,
                                   uint64_t *size, struct ga_io_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        memset(r, 0, sizeof *r);
        r->fd = -1;
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot open: %s", path, strerror(errno));
    }
    return ga_array_adopt_fd(r, fd, path, f, kind, size, err);
}

enum ga_io_status ga_array_adopt_fd(struct ga_array_reader *r, int fd, const char *path,
                                    const struct ga_format *f, enum ga_file_kind kind,
                                    uint64_t *size, struct ga_io_error *err)
{
    struct stat st;

    memset(r, 0, sizeof *r);
    r->format = f;
    r->kind = kind;
    r->fd = fd;
    if (fstat(r->fd, &st) != 0) {
        int e = errno;
        ga_array_close(r);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        ga_array_close(r);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: not a regular file", path);
    }
    r->path = strdup(path);
    if (r->path == NULL) {
        ga_array_close(r);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: out of memory", path);
    }
    *size = (uint64_t)st.st_size;
    return ga_io_ok(err);
}

/* Exactly len bytes at offset, or an error saying how many were there. */
static enum ga_io_status read_exact(const struct ga_array_reader *r, void *buf,
                                    size_t len, uint64_t offset, struct ga_io_error *err)
{
    size_t done = 0;

    while (done < len) {
        ssize_t got = pread(r->fd, (char *)buf + done, len - done, (off_t)(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return ga_io_fail(err, GA_IO_SYSTEM, "%s: read at byte %" PRIu64 " failed: %s",
                              r->path, offset + done, strerror(errno));
        if (got == 0)
            return ga_io_fail(err, GA_IO_MALFORMED,
                              "%s: file shrank while being read: expected %zu bytes at byte %"
                              PRIu64 ", found %zu", r->path, len, offset, done);
        done += (size_t)got;
    }
    return GA_IO_OK;
}

enum ga_io_status ga_array_read(const struct ga_array_reader *r, uint64_t first,
                                size_t count, ga_bits *out, struct ga_io_error *err)
{
    size_t es = ga_element_size(r->format);
    unsigned char buf[CHUNK * sizeof(ga_bits)];  /* elements of at most 8 bytes */
    enum ga_io_status st;

    if (first > r->length || count > r->length - first)
        return ga_io_fail(err, GA_IO_RANGE,
                          "%s: elements [%" PRIu64 ", %" PRIu64 ") asked for, the array has %"
                          PRIu64, r->path, first, first + count, r->length);
    for (size_t done = 0; done < count;) {
        size_t m = count - done < CHUNK ? count - done : CHUNK;
        st = read_exact(r, buf, m * es, r->data_offset + (first + done) * es, err);
        if (st != GA_IO_OK)
            return st;
        for (size_t i = 0; i < m; i++) {
            out[done + i] = load_le(buf + i * es, es);
            /* a byte of a 6- or 4-bit format may hold more than its bits */
            if (!ga_fits(r->format, out[done + i]))
                return ga_io_fail(err, GA_IO_RANGE,
                                  "%s: element %" PRIu64 " is 0x%02" PRIx64 ", not a %s "
                                  "encoding (%d bits, right-aligned in its byte)", r->path,
                                  first + done + i, out[done + i], r->format->name,
                                  r->format->bits);
        }
        done += m;
    }
    return ga_io_ok(err);
}

enum ga_io_status ga_array_read_all(const struct ga_array_reader *r, ga_bits **out,
                                    size_t *n, struct ga_io_error *err)
{
    ga_bits *v;
    enum ga_io_status st;

    *out = NULL;
    *n = 0;
    if (r->length > SIZE_MAX / sizeof *v)
        return ga_io_fail(err, GA_IO_RANGE, "%s: %" PRIu64 " elements do not fit in memory",
                          r->path, r->length);
    /* malloc(0) may return NULL: ask for at least one element. */
    v = malloc((r->length ? (size_t)r->length : 1) * sizeof *v);
    if (v == NULL)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot allocate %" PRIu64 " elements",
                          r->path, r->length);
    st = ga_array_read(r, 0, (size_t)r->length, v, err);
    if (st != GA_IO_OK) {
        free(v);
        return st;
    }
    *out = v;
    *n = (size_t)r->length;
    return GA_IO_OK;
}

void ga_array_close(struct ga_array_reader *r)
{
    if (r->fd >= 0)
        close(r->fd);
    r->fd = -1;
    free(r->path);
    r->path = NULL;
}

enum ga_io_status ga_array_check_same_length(const struct ga_array_reader *a,
                                             const struct ga_array_reader *b,
                                             struct ga_io_error *err)
{
    if (a->length != b->length)
        return ga_io_fail(err, GA_IO_MISMATCH,
                          "%s has %" PRIu64 " elements but %s has %" PRIu64
                          "; they must pair up one to one", a->path, a->length,
                          b->path, b->length);
    return ga_io_ok(err);
}

enum ga_io_status ga_array_start_writer(struct ga_array_writer *w, const char *path,
                                        const struct ga_format *f, enum ga_file_kind kind,
                                        uint64_t length, bool overwrite,
                                        struct ga_io_error *err)
{
    w->format = f;
    w->kind = kind;
    w->length = length;
    w->written = 0;
    return ga_atomic_open(&w->file, path, overwrite, err);
}

enum ga_io_status ga_array_append(struct ga_array_writer *w, const ga_bits *v,
                                  size_t count, struct ga_io_error *err)
{
    size_t es = ga_element_size(w->format);
    unsigned char buf[CHUNK * sizeof(ga_bits)];  /* elements of at most 8 bytes */
    enum ga_io_status st;

    if (count > w->length - w->written)
        return ga_io_fail(err, GA_IO_RANGE,
                          "%s: %zu more elements would exceed the announced length %" PRIu64
                          " (%" PRIu64 " written)", w->file.path, count, w->length, w->written);
    for (size_t done = 0; done < count;) {
        size_t m = count - done < CHUNK ? count - done : CHUNK;
        for (size_t i = 0; i < m; i++) {
            ga_bits x = v[done + i];
            if (!ga_fits(w->format, x))
                return ga_io_fail(err, GA_IO_RANGE,
                                  "%s: element %" PRIu64 " is 0x%" PRIx64
                                  ", not a %s encoding (%d bits)", w->file.path,
                                  w->written + done + i, x, w->format->name, w->format->bits);
            store_le(buf + i * es, es, x);
        }
        st = ga_atomic_write(&w->file, buf, m * es, err);
        if (st != GA_IO_OK)
            return st;
        done += m;
    }
    w->written += count;
    return ga_io_ok(err);
}

enum ga_io_status ga_array_commit(struct ga_array_writer *w, struct ga_io_error *err)
{
    if (w->written != w->length) {
        ga_io_fail(err, GA_IO_RANGE, "%s: %" PRIu64 " of the %" PRIu64
                   " announced elements written; file not created",
                   w->file.path, w->written, w->length);
        ga_atomic_abort(&w->file);
        return GA_IO_RANGE;
    }
    return ga_atomic_commit(&w->file, err);
}

void ga_array_abort(struct ga_array_writer *w)
{
    ga_atomic_abort(&w->file);
}
