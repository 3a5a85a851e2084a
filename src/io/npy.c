/* NumPy .npy: header parsing and writing (layout in npy.h). */
#define _GNU_SOURCE
#include "io/npy.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[] = "\x93NUMPY";
enum {
    MAGIC_LEN = 6,
    VERSION_END = 8,       /* magic + major + minor */
    ALIGN = 64,            /* numpy.lib.format.ARRAY_ALIGN: data start alignment */
    MAX_HEADER = 10000,    /* numpy.lib.format._MAX_HEADER_SIZE, NumPy's own limit */
    MAX_DIMS = 64,         /* NumPy's NPY_MAXDIMS is 32 (64 in NumPy 2) */
    MAX_STRING = 32,       /* longer than any dtype string we could accept */
};

/* One dtype per format: the encodings, little-endian. */
static const char *const dtypes[GA_FORMAT_COUNT] = {
    [GA_FLOAT32] = "<f4",
    [GA_FLOAT16] = "<f2",
    [GA_BFLOAT16] = "<u2",   /* NumPy has no bfloat16: its bit patterns as uint16 */
    /* the small formats: one encoding per byte, right-aligned, as uint8 */
    [GA_FLOAT8_E4M3FN] = "|u1",
    [GA_FLOAT8_E5M2] = "|u1",
    [GA_FLOAT6_E2M3] = "|u1",
    [GA_FLOAT6_E3M2] = "|u1",
    [GA_FLOAT4_E2M1] = "|u1",
    [GA_FLOAT64] = "<f8",
};

const char *ga_npy_dtype(const struct ga_format *f)
{
    return dtypes[f->id];
}

/* '|u1' names no format by itself: every small format is stored so. */
const struct ga_format *ga_npy_format_for_dtype(const char *descr)
{
    for (int id = 0; id < GA_FORMAT_COUNT; id++)
        if (!ga_is_small_format(ga_format_get((enum ga_format_id)id))
            && strcmp(descr, dtypes[id]) == 0)
            return ga_format_get((enum ga_format_id)id);
    return NULL;
}

/* What the header says. */
struct header {
    char descr[MAX_STRING + 1];
    uint64_t descr_at;         /* file byte of each value, for messages */
    bool fortran_order;
    uint64_t shape[MAX_DIMS];
    int ndim;
    uint64_t shape_at;
    bool seen[3];              /* descr, fortran_order, shape */
};

/* A cursor in the header text; base is the file offset of text[0]. */
struct parser {
    const char *path;
    const char *text;
    size_t len, pos;
    uint64_t base;
    struct ga_io_error *err;
    enum ga_io_status status;
};

static uint64_t here(const struct parser *p) { return p->base + p->pos; }

__attribute__((format(printf, 3, 4)))
static int fail_at(struct parser *p, enum ga_io_status status, const char *fmt, ...)
{
    char what[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    p->status = ga_io_fail(p->err, status, "%s: byte %" PRIu64 ": %s", p->path,
                           here(p), what);
    return -1;
}

static int peek(const struct parser *p)
{
    return p->pos < p->len ? (unsigned char)p->text[p->pos] : -1;
}

/* Python allows any whitespace, newlines included, inside a dict display. */
static void skip_space(struct parser *p)
{
    while (p->pos < p->len && strchr(" \t\r\n\f\v", p->text[p->pos]) != NULL
           && p->text[p->pos] != '\0')
        p->pos++;
}

static int expect(struct parser *p, char c, const char *where)
{
    skip_space(p);
    if (peek(p) != c)
        return fail_at(p, GA_IO_MALFORMED, "expected '%c' %s", c, where);
    p->pos++;
    return 0;
}

/* A quoted string without escapes (no dtype or key needs one). */
static int parse_string(struct parser *p, char *out, const char *what)
{
    int quote = peek(p);
    size_t n = 0;

    if (quote != '\'' && quote != '"')
        return fail_at(p, GA_IO_MALFORMED, "expected a quoted string for %s", what);
    p->pos++;
    for (;;) {
        int c = peek(p);
        if (c < 0 || c == '\n')
            return fail_at(p, GA_IO_MALFORMED, "unterminated string in %s", what);
        if (c < 0x20 || c == 0x7f)  /* a NUL would end the C string early */
            return fail_at(p, GA_IO_MALFORMED, "control character 0x%02x in %s", c, what);
        if (c == '\\')
            return fail_at(p, GA_IO_MALFORMED, "escape sequence in %s: not read here", what);
        p->pos++;
        if (c == quote)
            break;
        if (n == MAX_STRING)
            return fail_at(p, GA_IO_MALFORMED, "%s longer than %d characters", what, MAX_STRING);
        out[n++] = (char)c;
    }
    out[n] = '\0';
    return 0;
}

/* A non-negative decimal integer; Python 2 NumPy wrote a trailing 'L'. */
static int parse_size(struct parser *p, uint64_t *v)
{
    int c = peek(p);

    if (c == '-')
        return fail_at(p, GA_IO_MALFORMED, "negative dimension in 'shape'");
    if (c < '0' || c > '9')
        return fail_at(p, GA_IO_MALFORMED, "expected an integer in 'shape'");
    *v = 0;
    while ((c = peek(p)) >= '0' && c <= '9') {
        if (*v > (UINT64_MAX - (uint64_t)(c - '0')) / 10)
            return fail_at(p, GA_IO_MALFORMED, "dimension in 'shape' exceeds 2^64");
        *v = *v * 10 + (uint64_t)(c - '0');
        p->pos++;
    }
    if (c == 'L' || c == 'l')
        p->pos++;
    return 0;
}

/* A tuple of sizes: (), (n,), (a, b), (a, b,). */
static int parse_shape(struct parser *p, struct header *h)
{
    bool comma = false;

    h->shape_at = here(p);
    if (peek(p) != '(')
        return fail_at(p, GA_IO_MALFORMED, "expected a tuple for 'shape'");
    p->pos++;
    h->ndim = 0;
    for (;;) {
        skip_space(p);
        if (peek(p) == ')')
            break;
        if (h->ndim == MAX_DIMS)
            return fail_at(p, GA_IO_UNSUPPORTED, "'shape' has more than %d dimensions", MAX_DIMS);
        if (parse_size(p, &h->shape[h->ndim]) != 0)
            return -1;
        h->ndim++;
        skip_space(p);
        comma = peek(p) == ',';
        if (comma)
            p->pos++;
        else if (peek(p) != ')')
            return fail_at(p, GA_IO_MALFORMED, "expected ',' or ')' in 'shape'");
    }
    if (h->ndim == 1 && !comma)   /* Python: (16) is the int 16, not a tuple */
        return fail_at(p, GA_IO_MALFORMED, "'shape' is an integer in parentheses, not a tuple: "
                       "a 1-D shape is written (n,)");
    p->pos++;
    return 0;
}

static bool is_word_char(int c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* True or False, as a whole word. */
static int parse_bool(struct parser *p, bool *v)
{
    static const char *const words[2] = { "False", "True" };

    for (int i = 0; i < 2; i++) {
        size_t n = strlen(words[i]);
        if (p->len - p->pos >= n && memcmp(p->text + p->pos, words[i], n) == 0
            && !(p->pos + n < p->len && is_word_char((unsigned char)p->text[p->pos + n]))) {
            p->pos += n;
            *v = i == 1;
            return 0;
        }
    }
    return fail_at(p, GA_IO_MALFORMED, "expected True or False for 'fortran_order'");
}

static int parse_item(struct parser *p, struct header *h)
{
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };
    char key[MAX_STRING + 1];
    uint64_t key_at = here(p);
    int k;

    if (parse_string(p, key, "a key") != 0)
        return -1;
    for (k = 0; k < 3 && strcmp(key, keys[k]) != 0; k++)
        continue;
    if (k == 3) {
        p->pos = (size_t)(key_at - p->base);
        return fail_at(p, GA_IO_MALFORMED, "unexpected key '%s': a .npy header has exactly "
                       "'descr', 'fortran_order' and 'shape'", key);
    }
    if (h->seen[k]) {
        p->pos = (size_t)(key_at - p->base);
        return fail_at(p, GA_IO_MALFORMED, "key '%s' appears twice", key);
    }
    h->seen[k] = true;
    if (expect(p, ':', "after a key") != 0)
        return -1;
    skip_space(p);
    switch (k) {
    case 0:
        h->descr_at = here(p);
        if (peek(p) == '[')
            return fail_at(p, GA_IO_UNSUPPORTED, "'descr' is a list: structured dtypes are not read");
        return parse_string(p, h->descr, "'descr'");
    case 1:
        return parse_bool(p, &h->fortran_order);
    default:
        return parse_shape(p, h);
    }
}

/* The dict, then only the padding (spaces and the final newline). */
static int parse_dict(struct parser *p, struct header *h)
{
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };

    memset(h, 0, sizeof *h);
    if (expect(p, '{', "at the start of the header dict") != 0)
        return -1;
    for (;;) {
        skip_space(p);
        if (peek(p) == '}')
            break;
        if (parse_item(p, h) != 0)
            return -1;
        skip_space(p);
        if (peek(p) == ',')
            p->pos++;
        else if (peek(p) != '}')
            return fail_at(p, GA_IO_MALFORMED, "expected ',' or '}' after a value");
    }
    p->pos++;
    skip_space(p);
    if (p->pos != p->len)
        return fail_at(p, GA_IO_MALFORMED, "unexpected text after the header dict");
    for (int k = 0; k < 3; k++)
        if (!h->seen[k])
            return fail_at(p, GA_IO_MALFORMED, "the header dict has no '%s' key", keys[k]);
    return 0;
}

static void shape_text(const struct header *h, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < h->ndim && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%" PRIu64, i ? ", " : "", h->shape[i]);
    if (used < size)
        snprintf(buf + used, size - used, h->ndim == 1 ? ",)" : ")");
}

/* Pick or check the format against the dtype. */
static enum ga_io_status check_dtype(const char *path, const struct header *h,
                                     const struct ga_format **f, struct ga_io_error *err)
{
    const struct ga_format *found = ga_npy_format_for_dtype(h->descr);
    const char *expected = *f ? ga_npy_dtype(*f) : NULL;

    if (found != NULL && (*f == NULL || found == *f)) {
        *f = found;
        return GA_IO_OK;
    }
    if (*f != NULL && strcmp(h->descr, expected) == 0)  /* a small format's '|u1' */
        return GA_IO_OK;
    if (h->descr[0] == '>' && h->descr[1] != '\0') {
        char little[MAX_STRING + 1];
        snprintf(little, sizeof little, "<%s", h->descr + 1);
        const struct ga_format *le = ga_npy_format_for_dtype(little);
        if (le != NULL && (*f == NULL || le == *f))
            return ga_io_fail(err, GA_IO_UNSUPPORTED,
                              "%s: byte %" PRIu64 ": dtype '%s' is big-endian; "
                              "'%s' (little-endian) expected for %s: convert with "
                              "a.astype('%s')", path, h->descr_at, h->descr, little,
                              le->name, little);
    }
    if (*f == NULL && strcmp(h->descr, "|u1") == 0)
        return ga_io_fail(err, GA_IO_UNSUPPORTED,
                          "%s: byte %" PRIu64 ": dtype '|u1' holds the encodings of a small "
                          "format, which the file does not name: give the format", path,
                          h->descr_at);
    if (*f == NULL)
        return ga_io_fail(err, GA_IO_UNSUPPORTED,
                          "%s: byte %" PRIu64 ": dtype '%s' is none of '<f4' (float32), "
                          "'<f2' (float16), '<u2' (bfloat16 bit patterns), '|u1' (the "
                          "encodings of a small format, named by --format)", path,
                          h->descr_at, h->descr);
    return ga_io_fail(err, GA_IO_UNSUPPORTED,
                      "%s: byte %" PRIu64 ": dtype '%s' found, '%s' expected for %s%s",
                      path, h->descr_at, h->descr, expected, (*f)->name,
                      (*f)->id == GA_BFLOAT16
                          ? " (bfloat16 arrays are stored as their bit patterns: "
                            "np.save(path, a.view(np.uint16)))"
                      : found != NULL && found->id == GA_BFLOAT16
                          ? " ('<u2' is how bfloat16 bit patterns are stored)" : "");
}

enum ga_io_status ga_npy_open(const char *path, const struct ga_format *f,
                              struct ga_array_reader *r, struct ga_io_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        memset(r, 0, sizeof *r);
        r->fd = -1;
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot open: %s", path, strerror(errno));
    }
    return ga_npy_open_fd(fd, path, f, r, err);
}

/* The magic, the version and the header's length (bytes 0-7, then 8-9 or
 * 8-11), checked against the file's size. */
static enum ga_io_status read_prefix(int fd, const char *path, uint64_t size,
                                     uint64_t *prefix_len, uint64_t *header_len,
                                     struct ga_io_error *err)
{
    unsigned char prefix[12];
    enum ga_io_status st;
    ssize_t got;

    got = pread(fd, prefix, sizeof prefix, 0);
    if (got < 0) {
        st = ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot read: %s", path, strerror(errno));
        return st;
    }
    if ((size_t)got < MAGIC_LEN || memcmp(prefix, magic, MAGIC_LEN) != 0) {
        char seen[3 * MAGIC_LEN + 1] = "";
        size_t used = 0;
        for (ssize_t i = 0; i < got && i < MAGIC_LEN; i++)
            used += (size_t)snprintf(seen + used, sizeof seen - used, "%s%02x", i ? " " : "",
                                     prefix[i]);
        st = ga_io_fail(err, GA_IO_MALFORMED,
                        "%s: not a NumPy .npy file: bytes 0-5 should be 93 4e 55 4d 50 59 "
                        "(\\x93NUMPY), found %s%s", path, seen[0] ? seen : "an empty file",
                        (size_t)got < MAGIC_LEN && got > 0 ? " (file too short)" : "");
        return st;
    }
    if ((size_t)got < VERSION_END) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: truncated: the file ends at byte %zd, "
                        "inside the version (bytes 6-7)", path, got);
        return st;
    }
    if ((prefix[6] != 1 && prefix[6] != 2) || prefix[7] != 0) {
        st = ga_io_fail(err, GA_IO_UNSUPPORTED, "%s: byte 6: .npy format version %u.%u; "
                        "versions 1.0 and 2.0 are read", path, prefix[6], prefix[7]);
        return st;
    }
    *prefix_len = prefix[6] == 1 ? 10 : 12;   /* 2- or 4-byte header length */
    if ((uint64_t)got < *prefix_len) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: truncated: the file ends at byte %zd, "
                        "inside the header length (bytes 8-%" PRIu64 ")", path, got,
                        *prefix_len - 1);
        return st;
    }
    *header_len = prefix[8] | (uint64_t)prefix[9] << 8;
    if (*prefix_len == 12)
        *header_len |= (uint64_t)prefix[10] << 16 | (uint64_t)prefix[11] << 24;
    if (*header_len > MAX_HEADER) {
        st = ga_io_fail(err, GA_IO_UNSUPPORTED, "%s: byte 8: header length %" PRIu64
                        " exceeds %d bytes, NumPy's own limit", path, *header_len, MAX_HEADER);
        return st;
    }
    if (*prefix_len + *header_len > size) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: truncated header: byte 8 announces %" PRIu64
                        " header bytes from byte %" PRIu64 ", the file ends at byte %" PRIu64,
                        path, *header_len, *prefix_len, size);
        return st;
    }
    return GA_IO_OK;
}

enum ga_io_status ga_npy_open_fd(int fd, const char *path, const struct ga_format *f,
                                 struct ga_array_reader *r, struct ga_io_error *err)
{
    uint64_t size, header_len = 0, prefix_len = 0, bytes, avail;
    enum ga_io_status st;
    struct header h;
    struct parser p;
    char *text = NULL;
    ssize_t got;

    st = ga_array_adopt_fd(r, fd, path, f, GA_FILE_NPY, &size, err);
    if (st != GA_IO_OK)
        return st;
    st = read_prefix(r->fd, path, size, &prefix_len, &header_len, err);
    if (st != GA_IO_OK)
        goto fail;
    text = malloc(header_len + 1);
    if (text == NULL) {
        st = ga_io_fail(err, GA_IO_SYSTEM, "%s: out of memory", path);
        goto fail;
    }
    got = pread(r->fd, text, header_len, (off_t)prefix_len);
    if (got != (ssize_t)header_len) {
        st = ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot read the header: %s", path,
                        got < 0 ? strerror(errno) : "short read");
        goto fail;
    }
    p = (struct parser){ .path = path, .text = text, .len = header_len, .base = prefix_len,
                         .err = err, .status = GA_IO_OK };
    if (parse_dict(&p, &h) != 0) {
        st = p.status;
        goto fail;
    }
    st = check_dtype(path, &h, &f, err);
    if (st != GA_IO_OK)
        goto fail;
    if (h.ndim != 1) {
        char shape[200];
        shape_text(&h, shape, sizeof shape);
        st = ga_io_fail(err, GA_IO_UNSUPPORTED, "%s: byte %" PRIu64 ": shape %s is %d-D%s;"
                        " only 1-D arrays, shape (n,), are read", path, h.shape_at, shape,
                        h.ndim, h.fortran_order ? " in Fortran order" : "");
        goto fail;
    }
    /* A 1-D array has the same bytes in C and Fortran order. */
    r->format = f;
    r->length = h.shape[0];
    r->data_offset = prefix_len + header_len;
    if (r->length > UINT64_MAX / ga_element_size(f)) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: byte %" PRIu64 ": shape (%" PRIu64
                        ",) is too large", path, h.shape_at, r->length);
        goto fail;
    }
    bytes = r->length * ga_element_size(f);
    avail = size - r->data_offset;
    if (avail < bytes) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: truncated data: shape (%" PRIu64 ",) of '%s' "
                        "needs %" PRIu64 " bytes from byte %" PRIu64 ", found %" PRIu64,
                        path, r->length, h.descr, bytes, r->data_offset, avail);
        goto fail;
    }
    if (avail > bytes) {
        st = ga_io_fail(err, GA_IO_MALFORMED, "%s: %" PRIu64 " trailing bytes: shape (%" PRIu64
                        ",) of '%s' ends at byte %" PRIu64 ", the file at byte %" PRIu64,
                        path, avail - bytes, r->length, h.descr, r->data_offset + bytes, size);
        goto fail;
    }
    free(text);
    return ga_io_ok(err);

fail:
    free(text);
    ga_array_close(r);
    return st;
}

enum ga_io_status ga_npy_create(const char *path, const struct ga_format *f,
                                uint64_t length, bool overwrite,
                                struct ga_array_writer *w, struct ga_io_error *err)
{
    char head[ALIGN * 2];
    int dict_len;
    size_t total;
    enum ga_io_status st;

    /* The dict exactly as NumPy writes it: keys sorted, trailing ", ". */
    dict_len = snprintf(head + 10, sizeof head - 10,
                        "{'descr': '%s', 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
                        ga_npy_dtype(f), length);
    /* Pad with spaces so that the data starts on an ALIGN boundary; '\n' ends it. */
    total = ((size_t)(10 + dict_len + 1) + ALIGN - 1) / ALIGN * ALIGN;
    memcpy(head, magic, MAGIC_LEN);
    head[6] = 1;
    head[7] = 0;
    head[8] = (char)((total - 10) & 0xff);
    head[9] = (char)((total - 10) >> 8);
    memset(head + 10 + dict_len, ' ', total - 1 - 10 - (size_t)dict_len);
    head[total - 1] = '\n';

    st = ga_array_start_writer(w, path, f, GA_FILE_NPY, length, overwrite, err);
    if (st != GA_IO_OK)
        return st;
    st = ga_atomic_write(&w->file, head, total, err);
    if (st != GA_IO_OK)
        ga_array_abort(w);
    return st;
}
