#include "domain/domain.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/parse_value.h"
#include "io/array_open.h"
#include "io/bits_file.h"
#include "io/input_file.h"
#include "io/parse_count.h"

const char *ga_domain_default(const struct ga_format *f)
{
    if (!ga_is_enumerable(f))
        return "random:1048576";
    return f->bits > 16 ? "stride:4096" : "all";
}

/* What to use instead of a domain that visits every encoding of f. */
static int refuse_exhaustive(const struct ga_domain *d, char *err, size_t errlen)
{
    snprintf(err, errlen, "domain '%s': %s has 2^%d encodings, too many to visit them all or "
             "on a stride; use random:N[:SEED], range:A:B:N or file:PATH", d->spec,
             d->format->name, d->format->bits);
    return -1;
}

/* A key that orders non-NaN encodings by value with -0 just below +0:
 * +0, +min, ... map to 0, 1, ...; -0, -min, ... to -1, -2, ... */
static int64_t value_key(const struct ga_format *f, ga_bits x)
{
    int64_t magnitude = (int64_t)(x & ~ga_sign_mask(f));
    return ga_sign(f, x) ? -magnitude - 1 : magnitude;
}

static ga_bits from_value_key(const struct ga_format *f, int64_t key)
{
    return key >= 0 ? (ga_bits)key : (ga_bits)(-(key + 1)) | ga_sign_mask(f);
}

uint64_t ga_domain_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* One number of range:A:B; len bytes of text. */
static int range_end(struct ga_domain *d, const char *which, const char *text, size_t len,
                     ga_bits *x, char *err, size_t errlen)
{
    char *copy = strndup(text, len);
    size_t bad_at = 0;
    int status = 0;

    if (!copy) {
        snprintf(err, errlen, "domain '%s': out of memory", d->spec);
        return -1;
    }
    if (ga_number_syntax(copy, &bad_at) != 0) {
        snprintf(err, errlen, "domain '%s': %s '%s' is not a number (at character %zu; "
                 "numbers are decimal or hex-float)", d->spec, which, copy, bad_at + 1);
        status = -1;
    } else if (ga_parse_value(d->format, copy, x) != 0 || ga_is_nan(d->format, *x)) {
        snprintf(err, errlen, "domain '%s': %s is NaN; a range needs numbers", d->spec, which);
        status = -1;
    }
    free(copy);
    return status;
}

static int count_field(const struct ga_domain *d, const char *name, const char *text,
                       size_t len, uint64_t min, uint64_t max, const char *limit,
                       uint64_t *out, char *err, size_t errlen);

/* range:A:B[:N].  With N, the encodings of [A, B] are visited on the stride
 * K = floor((M - 1) / (N - 1)) through the M of them in value order (keys),
 * from A: N inputs, the last within K of B; all M when M <= N. */
static int parse_range(struct ga_domain *d, const char *args, char *err, size_t errlen)
{
    const struct ga_format *f = d->format;
    const char *colon = strchr(args, ':');
    const char *third = colon ? strchr(colon + 1, ':') : NULL;
    size_t b_len;
    ga_bits lo, hi;
    uint64_t count = 0;

    if (!colon) {
        snprintf(err, errlen, "domain '%s': expected range:A:B or range:A:B:N", d->spec);
        return -1;
    }
    b_len = third ? (size_t)(third - colon - 1) : strlen(colon + 1);
    if (range_end(d, "A", args, (size_t)(colon - args), &lo, err, errlen) != 0
        || range_end(d, "B", colon + 1, b_len, &hi, err, errlen) != 0)
        return -1;
    if (third && count_field(d, "N", third + 1, strlen(third + 1), 1, GA_DOMAIN_MAX_RANDOM,
                             "1 <= N <= 2^32", &count, err, errlen) != 0)
        return -1;
    if (value_key(f, lo) > value_key(f, hi)) {
        snprintf(err, errlen, "domain '%s': A is above B (a range is written low:high)", d->spec);
        return -1;
    }
    d->first_key = value_key(f, lo);
    d->size = ((uint64_t)value_key(f, hi) - (uint64_t)d->first_key) + 1;  /* M, at most 2^64 - 1 */
    d->stride = 1;
    if (count && d->size > count) {
        d->stride = count == 1 ? d->size : (d->size - 1) / (count - 1);
        d->size = count;
    }
    if (d->size > GA_DOMAIN_MAX_RANDOM) {
        snprintf(err, errlen, "domain '%s': the range holds %" PRIu64 " %s encodings, more "
                 "than the 2^32 a sweep measures; add :N to visit N of them on a stride",
                 d->spec, d->size, f->name);
        return -1;
    }
    return 0;
}

/* One field of random: or stride:, len bytes of text, in [min, max]. */
static int count_field(const struct ga_domain *d, const char *name, const char *text,
                       size_t len, uint64_t min, uint64_t max, const char *limit,
                       uint64_t *out, char *err, size_t errlen)
{
    char *copy = strndup(text, len);
    enum ga_count_status st = copy ? ga_parse_count(copy, max, out) : GA_COUNT_SYNTAX;

    if (!copy)
        snprintf(err, errlen, "domain '%s': out of memory", d->spec);
    else if (st == GA_COUNT_SYNTAX)
        snprintf(err, errlen, "domain '%s': %s '%s' is not a decimal whole number "
                 "(digits only: no sign, space or base prefix)", d->spec, name, copy);
    else if (st == GA_COUNT_TOO_LARGE || *out < min)
        snprintf(err, errlen, "domain '%s': %s %s is out of range (%s)", d->spec, name, copy,
                 limit);
    free(copy);
    return copy && st == GA_COUNT_OK && *out >= min ? 0 : -1;
}

static int parse_random(struct ga_domain *d, const char *args, char *err, size_t errlen)
{
    const char *colon = strchr(args, ':');
    size_t len = colon ? (size_t)(colon - args) : strlen(args);

    d->kind = GA_DOMAIN_RANDOM;
    d->seed = 1;
    if (count_field(d, "N", args, len, 1, GA_DOMAIN_MAX_RANDOM, "1 <= N <= 2^32",
                    &d->size, err, errlen) != 0)
        return -1;
    if (colon && count_field(d, "SEED", colon + 1, strlen(colon + 1), 0, UINT64_MAX,
                             "0 <= SEED < 2^64", &d->seed, err, errlen) != 0)
        return -1;
    return 0;
}

static int parse_stride(struct ga_domain *d, const char *args, char *err, size_t errlen)
{
    const char *colon = strchr(args, ':');
    size_t len = colon ? (size_t)(colon - args) : strlen(args);
    uint64_t total = ga_encoding_count(d->format);
    char limit[64];

    d->kind = GA_DOMAIN_STRIDE;
    snprintf(limit, sizeof limit, "1 <= K <= 2^%d", d->format->bits);
    if (count_field(d, "K", args, len, 1, total, limit, &d->stride, err, errlen) != 0)
        return -1;
    if (colon && count_field(d, "OFFSET", colon + 1, strlen(colon + 1), 0, d->stride - 1,
                             "OFFSET < K", &d->offset, err, errlen) != 0)
        return -1;
    d->size = (total - d->offset + d->stride - 1) / d->stride;
    return 0;
}

/* file:PATH: a .npy array (its magic starts with byte 0x93, which no text
 * file of encodings holds) or a text file of encodings, opened and read
 * once, so that a pipe or /dev/stdin loses no byte to the sniffing;
 * raw:PATH: bare little-endian elements of the format's width. */
static int read_list(const char *path, bool raw, const struct ga_format *f, ga_bits **list,
                     size_t *n, char *err, size_t errlen)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct ga_io_error io;
    FILE *in;
    int first, status = 0;

    if (raw) {
        if (ga_file_read(path, GA_FILE_RAW, f, list, n, &io) != GA_IO_OK) {
            snprintf(err, errlen, "%s", io.message);
            return -1;
        }
        return 0;
    }
    if (!(in = ga_input_open(path, err, errlen)))
        return -1;
    if ((first = getc(in)) != EOF)
        ungetc(first, in);
    if (first == 0x93) {
        if (ga_npy_read_stream(in, name, f, list, n, &io) != GA_IO_OK) {
            snprintf(err, errlen, "%s", io.message);
            status = -1;
        }
    } else {
        status = ga_read_bits_stream(in, name, f, list, n, err, errlen);
    }
    ga_input_close(in);
    return status;
}

static int parse_one(struct ga_domain *d, const char *spec, const struct ga_format *f,
                     char *err, size_t errlen);

/* D1,D2,...: each part a domain of its own, visited in turn. */
static int parse_join(struct ga_domain *d, const char *spec, char *err, size_t errlen)
{
    const char *p = spec;

    d->kind = GA_DOMAIN_JOIN;
    for (;;) {
        bool last = strncmp(p, "file:", 5) == 0 || strncmp(p, "raw:", 4) == 0
                 || !strchr(p, ',');
        size_t len = last ? strlen(p) : (size_t)(strchr(p, ',') - p);
        struct ga_domain *more = realloc(d->parts, (d->part_count + 1) * sizeof *more);
        char part[GA_DOMAIN_SPEC_LEN];

        if (!more) {
            snprintf(err, errlen, "domain '%s': out of memory", spec);
            return -1;
        }
        d->parts = more;
        memcpy(part, p, len);
        part[len] = '\0';
        if (parse_one(&d->parts[d->part_count], part, d->format, err, errlen) != 0)
            return -1;
        d->size += d->parts[d->part_count++].size;
        if (d->size > GA_DOMAIN_MAX_RANDOM) {
            snprintf(err, errlen, "domain '%s': %" PRIu64 " inputs or more, beyond the 2^32 a "
                     "sweep measures", spec, d->size);
            return -1;
        }
        if (last)
            return 0;
        p += len + 1;
    }
}

int ga_domain_parse(struct ga_domain *d, const char *spec, const struct ga_format *f,
                    char *err, size_t errlen)
{
    bool joined = strncmp(spec, "file:", 5) != 0 && strncmp(spec, "raw:", 4) != 0
               && strchr(spec, ',') != NULL;

    memset(d, 0, sizeof *d);
    d->format = f;
    if (strlen(spec) >= sizeof d->spec) {
        snprintf(err, errlen, "domain '%.40s...' is longer than %zu characters", spec,
                 sizeof d->spec - 1);
        return -1;
    }
    if (!joined)
        return parse_one(d, spec, f, err, errlen);
    strcpy(d->spec, spec);
    if (parse_join(d, spec, err, errlen) != 0) {
        ga_domain_free(d);
        return -1;
    }
    return 0;
}

/* One domain of a spec no longer than the whole (checked above). */
static int parse_one(struct ga_domain *d, const char *spec, const struct ga_format *f,
                     char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->format = f;
    strcpy(d->spec, spec);
    if (strcmp(spec, "all") == 0) {
        d->kind = GA_DOMAIN_ALL;
        if (!ga_is_enumerable(f))
            return refuse_exhaustive(d, err, errlen);
        d->size = ga_encoding_count(f);
        return 0;
    }
    if (strncmp(spec, "range:", 6) == 0) {
        d->kind = GA_DOMAIN_RANGE;
        return parse_range(d, spec + 6, err, errlen);
    }
    if (strncmp(spec, "random:", 7) == 0)
        return parse_random(d, spec + 7, err, errlen);
    if (strncmp(spec, "stride:", 7) == 0) {
        if (!ga_is_enumerable(f))
            return refuse_exhaustive(d, err, errlen);
        return parse_stride(d, spec + 7, err, errlen);
    }
    if (strncmp(spec, "file:", 5) == 0 || strncmp(spec, "raw:", 4) == 0) {
        size_t n;
        d->kind = GA_DOMAIN_LIST;
        bool raw = spec[0] == 'r';
        const char *path = spec + (raw ? 4 : 5);
        if (path[0] == '\0') {
            snprintf(err, errlen, "domain '%s': expected %s", spec, raw ? "raw:PATH" : "file:PATH");
            return -1;
        }
        if (read_list(path, raw, f, &d->list, &n, err, errlen) != 0)
            return -1;
        if (n == 0) {
            snprintf(err, errlen, "domain '%s': the file lists no encoding", spec);
            return -1;
        }
        d->size = n;
        return 0;
    }
    snprintf(err, errlen, "unknown domain '%s' (all, range:A:B[:N], random:N[:SEED], "
             "stride:K[:OFFSET], file:PATH, raw:PATH)", spec);
    return -1;
}

void ga_domain_from_source(struct ga_domain *d, const struct ga_format *f, uint64_t n,
                           struct ga_source source, const char *description)
{
    memset(d, 0, sizeof *d);
    d->kind = GA_DOMAIN_SOURCE;
    d->format = f;
    d->size = n;
    d->source = source;
    snprintf(d->spec, sizeof d->spec, "%s", description);
}

void ga_domain_free(struct ga_domain *d)
{
    for (size_t i = 0; i < d->part_count; i++)
        ga_domain_free(&d->parts[i]);
    free(d->parts);
    d->parts = NULL;
    d->part_count = 0;
    free(d->list);
    d->list = NULL;
}

int ga_domain_fill(const struct ga_domain *d, uint64_t start, size_t n, ga_bits *out)
{
    const struct ga_format *f = d->format;

    switch (d->kind) {
    case GA_DOMAIN_ALL:
        for (size_t i = 0; i < n; i++)
            out[i] = (ga_bits)(start + i);
        break;
    case GA_DOMAIN_RANGE:
        for (size_t i = 0; i < n; i++)
            out[i] = from_value_key(f, (int64_t)((uint64_t)d->first_key
                                                 + (start + i) * d->stride));
        break;
    case GA_DOMAIN_RANDOM:
        for (size_t i = 0; i < n; i++)
            out[i] = (ga_bits)(ga_domain_mix(d->seed * 0x9e3779b97f4a7c15u + start + i) & ga_all_ones(f));
        break;
    case GA_DOMAIN_STRIDE:
        for (size_t i = 0; i < n; i++)
            out[i] = (ga_bits)(d->offset + (start + i) * d->stride);
        break;
    case GA_DOMAIN_LIST:
        memcpy(out, d->list + start, n * sizeof *out);
        break;
    case GA_DOMAIN_SOURCE:
        return d->source.read(d->source.ctx, start, n, out);
    case GA_DOMAIN_JOIN:
        for (size_t p = 0; p < d->part_count && n > 0; p++) {
            const struct ga_domain *part = &d->parts[p];
            if (start >= part->size) {
                start -= part->size;
                continue;
            }
            size_t m = part->size - start < n ? (size_t)(part->size - start) : n;
            if (ga_domain_fill(part, start, m, out) != 0)
                return -1;
            out += m;
            n -= m;
            start = 0;
        }
        break;
    }
    return 0;
}
