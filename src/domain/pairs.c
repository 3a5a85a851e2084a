#include "domain/pairs.h"

#include <stdio.h>
#include <string.h>

int ga_pairs_parse(struct ga_pairs *p, const char *spec, const struct ga_format *f, ga_bits dy,
                   char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->format = f;
    if (strlen(spec) >= sizeof p->spec) {
        snprintf(err, errlen, "domain too long (%zu characters at most)", sizeof p->spec - 1);
        return -1;
    }
    strcpy(p->spec, spec);
    if (strcmp(spec, "pairs:all") == 0) {
        if (f->bits != 16) {
            snprintf(err, errlen, "pairs:all needs a 16-bit format (%s has 2^%d pairs); "
                     "use pairs:random:N or an x domain with --dy", f->name, 2 * f->bits);
            return -1;
        }
        p->kind = GA_PAIRS_ALL;
        p->size = (uint64_t)1 << 32;
        return 0;
    }
    if (strncmp(spec, "pairs:", 6) == 0) {
        if (strncmp(spec + 6, "random:", 7) != 0) {
            snprintf(err, errlen, "unknown pair domain '%s' (pairs:all, pairs:random:N[:SEED])", spec);
            return -1;
        }
        /* the same N and SEED as random:N[:SEED] */
        if (ga_domain_parse(&p->x, spec + 6, f, err, errlen) != 0)
            return -1;
        p->kind = GA_PAIRS_RANDOM;
        p->size = p->x.size;
        p->seed = p->x.seed;
        return 0;
    }
    if (ga_domain_parse(&p->x, spec, f, err, errlen) != 0)
        return -1;
    p->kind = GA_PAIRS_FIXED_DY;
    p->size = p->x.size;
    p->dy = dy;
    return 0;
}

void ga_pairs_from_sources(struct ga_pairs *p, const struct ga_format *f, uint64_t n,
                           struct ga_source x, struct ga_source dy, const char *description)
{
    memset(p, 0, sizeof *p);
    p->kind = GA_PAIRS_SOURCES;
    p->format = f;
    p->size = n;
    ga_domain_from_source(&p->x, f, n, x, description);
    p->dy_source = dy;
    snprintf(p->spec, sizeof p->spec, "%s", description);
}

void ga_pairs_free(struct ga_pairs *p)
{
    ga_domain_free(&p->x);
}

int ga_pairs_fill(const struct ga_pairs *p, uint64_t start, size_t n, ga_bits *x, ga_bits *dy)
{
    ga_bits mask = ga_all_ones(p->format);

    switch (p->kind) {
    case GA_PAIRS_ALL:
        for (size_t i = 0; i < n; i++) {
            x[i] = (ga_bits)(((start + i) >> 16) * (p->x_stride > 1 ? p->x_stride : 1));
            dy[i] = (ga_bits)((start + i) & 0xffff);
        }
        return 0;
    case GA_PAIRS_RANDOM:
        for (size_t i = 0; i < n; i++) {
            uint64_t z = ga_domain_mix(p->seed * 0x9e3779b97f4a7c15u + start + i);
            x[i] = (ga_bits)(z & mask);
            dy[i] = (ga_bits)((z >> 32) & mask);
        }
        return 0;
    case GA_PAIRS_FIXED_DY:
        for (size_t i = 0; i < n; i++)
            dy[i] = p->dy;
        return ga_domain_fill(&p->x, start, n, x);
    case GA_PAIRS_SOURCES:
        if (ga_domain_fill(&p->x, start, n, x) != 0)
            return -1;
        return p->dy_source.read(p->dy_source.ctx, start, n, dy);
    }
    return -1;
}
