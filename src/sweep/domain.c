#include "sweep/domain.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/parse_value.h"
#include "io/bits_file.h"
#include "io/parse_count.h"

const char *ga_domain_default(const struct ga_format *f)
{
    return f->bits > 16 ? "stride:4096" : "all";
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

static int parse_range(struct ga_domain *d, const char *args, char *err, size_t errlen)
{
    const struct ga_format *f = d->format;
    const char *colon = strchr(args, ':');
    ga_bits lo, hi;

    if (!colon) {
        snprintf(err, errlen, "domain '%s': expected range:A:B", d->spec);
        return -1;
    }
    if (range_end(d, "A", args, (size_t)(colon - args), &lo, err, errlen) != 0
        || range_end(d, "B", colon + 1, strlen(colon + 1), &hi, err, errlen) != 0)
        return -1;
    if (value_key(f, lo) > value_key(f, hi)) {
        snprintf(err, errlen, "domain '%s': A is above B (a range is written low:high)", d->spec);
        return -1;
    }
    d->first_key = value_key(f, lo);
    d->size = (uint64_t)(value_key(f, hi) - d->first_key) + 1;
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

int ga_domain_parse(struct ga_domain *d, const char *spec, const struct ga_format *f,
                    char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->format = f;
    if (strlen(spec) >= sizeof d->spec) {
        snprintf(err, errlen, "domain '%.40s...' is longer than %zu characters", spec,
                 sizeof d->spec - 1);
        return -1;
    }
    strcpy(d->spec, spec);
    if (strcmp(spec, "all") == 0) {
        d->kind = GA_DOMAIN_ALL;
        d->size = ga_encoding_count(f);
        return 0;
    }
    if (strncmp(spec, "range:", 6) == 0) {
        d->kind = GA_DOMAIN_RANGE;
        return parse_range(d, spec + 6, err, errlen);
    }
    if (strncmp(spec, "random:", 7) == 0)
        return parse_random(d, spec + 7, err, errlen);
    if (strncmp(spec, "stride:", 7) == 0)
        return parse_stride(d, spec + 7, err, errlen);
    if (strncmp(spec, "file:", 5) == 0) {
        size_t n;
        d->kind = GA_DOMAIN_LIST;
        if (spec[5] == '\0') {
            snprintf(err, errlen, "domain 'file:': expected file:PATH");
            return -1;
        }
        if (ga_read_bits_file(spec + 5, f, &d->list, &n, err, errlen) != 0)
            return -1;
        if (n == 0) {
            snprintf(err, errlen, "domain '%s': the file lists no encoding", spec);
            return -1;
        }
        d->size = n;
        return 0;
    }
    snprintf(err, errlen, "unknown domain '%s' (all, range:A:B, random:N[:SEED], "
             "stride:K[:OFFSET], file:PATH)", spec);
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
            out[i] = from_value_key(f, d->first_key + (int64_t)(start + i));
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
    }
    return 0;
}
