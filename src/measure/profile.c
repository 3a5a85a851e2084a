#include "measure/profile.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "grade/error.h"

/* Errors above 2^90 ulp add as 2^90 to a bin's sum, so that 2^32 of them
 * stay below 2^128 in units of 2^-32: a bin's mean is then a lower bound, far
 * above any plotted axis. */
#define SUM_CAP 0x1p90

/* The least magnitude whose value is at least 1/64 (values grow with the
 * magnitude of finite encodings), or inf_magnitude when none is. */
static ga_bits near_zero_end(const struct ga_format_layout *c)
{
    ga_bits lo = 0, hi = c->inf_magnitude;  /* the answer is in [lo, hi] */

    while (lo < hi) {
        ga_bits mid = lo + (hi - lo) / 2;
        if (ga_error_value(c, mid) >= 1.0 / 64)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

struct ga_profile *ga_profile_new(const struct ga_format *f)
{
    struct ga_profile *p = calloc(1, sizeof *p);

    if (!p)
        return NULL;
    p->format = f;
    ga_format_layout_init(&p->layout, f);
    p->near_zero_end = near_zero_end(&p->layout);
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

/* Adds e * 2^32 truncated to an integer to a sum kept as a 64-bit low part
 * (in a register) and a 128-bit rest: e is in [0, 2^90], so the product is
 * exact (a power-of-2 scaling), and most errors take the 64-bit conversion,
 * which truncates the same way as the 128-bit one.  The sums are of
 * integers, so how they are split changes no total. */
static inline void sum_add(double e, uint64_t *low, unsigned __int128 *rest)
{
    double scaled = (e < SUM_CAP ? e : SUM_CAP) * 0x1p32;
    if (scaled < 0x1p64) {
        if (__builtin_add_overflow(*low, (uint64_t)scaled, low))
            *rest += (unsigned __int128)1 << 64;
    } else {
        *rest += (unsigned __int128)scaled;
    }
}

/* Adds a run of inputs of bin b (their count, largest error and sum) to the
 * bin. */
static void add_run(struct ga_profile *p, int b, double max, uint64_t count,
                    unsigned __int128 sum)
{
    if (max > p->bin_max[b])
        p->bin_max[b] = max;
    p->bin_count[b] += count;
    p->bin_sum[b] += sum;
}

/* A sweep goes through the encodings in order, so consecutive inputs mostly
 * share a bin: their count, maximum and sum stay in registers while they
 * do, and the bin in memory is updated at the run's end (once per input,
 * each input would wait for the previous one's store). */
void ga_profile_add_errors(struct ga_profile *p, const ga_bits *x, const double *ulp, size_t n)
{
    double *const point = p->point;
    int run_bin = -1;
    double run_max = -1;
    uint64_t run_count = 0, run_sum = 0;
    unsigned __int128 run_sum_rest = 0;

    for (size_t i = 0; i < n; i++) {
        const int b = ga_profile_bin_of(p, x[i]);
        const double e = ulp[i];

        if (point)
            point[x[i]] = e;
        if (b < 0 || isnan(e))
            continue;
        if (b != run_bin) {
            if (run_bin >= 0)
                add_run(p, run_bin, run_max, run_count, run_sum_rest + run_sum);
            run_bin = b;
            run_max = -1;
            run_count = run_sum = 0;
            run_sum_rest = 0;
        }
        /* the first of equal maxima stays, as when bins took each input */
        if (e > run_max)
            run_max = e;
        run_count++;
        sum_add(e, &run_sum, &run_sum_rest);
    }
    if (run_bin >= 0)
        add_run(p, run_bin, run_max, run_count, run_sum_rest + run_sum);
}

void ga_profile_add_batch(struct ga_profile *p, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n)
{
    enum { BLOCK = 256 };
    double ulp[BLOCK];

    for (size_t i = 0; i < n; i += BLOCK) {
        size_t m = n - i < BLOCK ? n - i : BLOCK;
        for (size_t k = 0; k < m; k++)
            ulp[k] = ga_error_ulp(&p->layout, y[i + k], &t[i + k]);
        ga_profile_add_errors(p, x + i, ulp, m);
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
