#include "sweep/domain.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/parse_value.h"
#include "io/bits_file.h"

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

/* splitmix64: a counter-based generator, so input i needs no state. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int parse_count(const char *text, uint64_t *out)
{
    char *end;
    unsigned long long v;

    if (*text == '\0' || *text == '-')
        return -1;
    errno = 0;
    v = strtoull(text, &end, 0);
    if (errno || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

static int parse_range(struct ga_domain *d, const char *args, char *err, size_t errlen)
{
    const struct ga_format *f = d->format;
    char a[128], b[128];
    const char *colon = strchr(args, ':');
    ga_bits lo, hi;

    if (!colon || (size_t)(colon - args) >= sizeof a || strlen(colon + 1) >= sizeof b) {
        snprintf(err, errlen, "domain '%s': expected range:A:B", d->spec);
        return -1;
    }
    memcpy(a, args, (size_t)(colon - args));
    a[colon - args] = '\0';
    strcpy(b, colon + 1);
    if (ga_parse_value(f, a, &lo) != 0 || ga_parse_value(f, b, &hi) != 0
        || ga_is_nan(f, lo) || ga_is_nan(f, hi)) {
        snprintf(err, errlen, "domain '%s': '%s' or '%s' is not a number", d->spec, a, b);
        return -1;
    }
    if (value_key(f, lo) > value_key(f, hi)) {
        snprintf(err, errlen, "domain '%s': A is above B", d->spec);
        return -1;
    }
    d->first_key = value_key(f, lo);
    d->size = (uint64_t)(value_key(f, hi) - d->first_key) + 1;
    return 0;
}

int ga_domain_parse(struct ga_domain *d, const char *spec, const struct ga_format *f,
                    char *err, size_t errlen)
{
    uint64_t total = ga_encoding_count(f);

    memset(d, 0, sizeof *d);
    d->format = f;
    snprintf(d->spec, sizeof d->spec, "%s", spec);
    if (strcmp(spec, "all") == 0) {
        d->kind = GA_DOMAIN_ALL;
        d->size = total;
        return 0;
    }
    if (strncmp(spec, "range:", 6) == 0) {
        d->kind = GA_DOMAIN_RANGE;
        return parse_range(d, spec + 6, err, errlen);
    }
    if (strncmp(spec, "random:", 7) == 0 || strncmp(spec, "stride:", 7) == 0) {
        char first[64] = "", second[64] = "";
        const char *args = spec + 7, *colon = strchr(args, ':');
        bool random = spec[1] == 'a';
        uint64_t n, extra = random ? 1 : 0;

        snprintf(first, sizeof first, "%.*s", colon ? (int)(colon - args) : 63, args);
        if (colon)
            snprintf(second, sizeof second, "%s", colon + 1);
        if (parse_count(first, &n) != 0 || (colon && parse_count(second, &extra) != 0)
            || n == 0 || (!random && n > total) || (!random && extra >= n)) {
            snprintf(err, errlen, random
                     ? "domain '%s': expected random:N[:SEED] with N >= 1"
                     : "domain '%s': expected stride:K[:OFFSET] with 1 <= K <= 2^bits, OFFSET < K",
                     spec);
            return -1;
        }
        d->kind = random ? GA_DOMAIN_RANDOM : GA_DOMAIN_STRIDE;
        if (random) {
            d->size = n;
            d->seed = extra;
        } else {
            d->stride = n;
            d->offset = extra;
            d->size = (total - extra + n - 1) / n;
        }
        return 0;
    }
    if (strncmp(spec, "file:", 5) == 0) {
        size_t n;
        d->kind = GA_DOMAIN_LIST;
        if (ga_read_bits_file(spec + 5, f, &d->list, &n, err, errlen) != 0)
            return -1;
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
            out[i] = (ga_bits)(mix(d->seed * 0x9e3779b97f4a7c15u + start + i) & ga_all_ones(f));
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
