#include "sweep/profile.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "sweep/error.h"

/* Errors above 2^90 ulp add as 2^90 to a bin's sum, so that 2^32 of them
 * stay below 2^128 in units of 2^-32: a bin's mean is then a lower bound, far
 * above any plotted axis. */
#define SUM_CAP 0x1p90

struct ga_profile *ga_profile_new(const struct ga_format *f)
{
    struct ga_profile *p = calloc(1, sizeof *p);

    if (!p)
        return NULL;
    p->format = f;
    ga_format_layout_init(&p->layout, f);
    if (f->bits <= 16) {
        size_t n = (size_t)ga_encoding_count(f);
        if (!(p->point = malloc(n * sizeof *p->point))) {
            free(p);
            return NULL;
        }
        for (size_t i = 0; i < n; i++)
            p->point[i] = -1;
    }
    for (int b = 0; b < GA_PROFILE_BINS; b++)
        p->bin_max[b] = -1;
    return p;
}

void ga_profile_free(struct ga_profile *p)
{
    if (p)
        free(p->point);
    free(p);
}

double ga_profile_bin_center(int b)
{
    return (b + 0.5) * (2 * GA_PROFILE_RANGE / GA_PROFILE_BINS) - GA_PROFILE_RANGE;
}

double ga_profile_bin_mean(const struct ga_profile *p, int b)
{
    if (p->bin_count[b] == 0)
        return NAN;
    return ldexp((double)(p->bin_sum[b] / p->bin_count[b]), -32);
}

/* e * 2^32 truncated to an integer, as a bin sum adds it: e is in [0, 2^90],
 * so the product is exact (a power-of-2 scaling) and most errors take the
 * 64-bit conversion, which truncates the same way as the 128-bit one. */
static inline unsigned __int128 sum_units(double e)
{
    double scaled = (e < SUM_CAP ? e : SUM_CAP) * 0x1p32;
    if (scaled < 0x1p64)
        return (uint64_t)scaled;
    return (unsigned __int128)scaled;
}

void ga_profile_add_batch(struct ga_profile *p, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n)
{
    const struct ga_format_layout c = p->layout;

    for (size_t i = 0; i < n; i++) {
        /* infinities and NaNs fall outside every bin */
        bool finite = (x[i] & ~c.sign_mask) < c.inf_magnitude;
        int b = finite ? ga_profile_bin(ga_error_value(&c, x[i])) : -1;
        double e;

        if (b < 0 && !p->point)  /* neither binned nor kept */
            continue;
        e = ga_error_ulp(&c, y[i], &t[i]);
        if (p->point)
            p->point[x[i]] = e;
        if (b < 0 || isnan(e))
            continue;
        if (e > p->bin_max[b])
            p->bin_max[b] = e;
        p->bin_count[b]++;
        p->bin_sum[b] += sum_units(e);
    }
}

void ga_profile_merge(struct ga_profile *into, const struct ga_profile *from)
{
    if (into->point && from->point)
        for (size_t i = 0; i < ga_encoding_count(into->format); i++)
            if (!(from->point[i] == -1))  /* visited (NaN included) */
                into->point[i] = from->point[i];
    for (int b = 0; b < GA_PROFILE_BINS; b++) {
        if (from->bin_max[b] > into->bin_max[b])
            into->bin_max[b] = from->bin_max[b];
        into->bin_count[b] += from->bin_count[b];
        into->bin_sum[b] += from->bin_sum[b];
    }
}
