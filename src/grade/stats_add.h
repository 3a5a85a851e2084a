/* The accounting of one input, shared by the accumulator (stats.c) and its
 * batch path (stats_batch.c): both must count every input the same way, bit
 * for bit, so they share this code.  Private to src/sweep. */
#ifndef GA_STATS_ADD_H
#define GA_STATS_ADD_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "grade/error.h"
#include "grade/stats.h"

#define NO_MAGNITUDE UINT64_MAX  /* above every magnitude, float64's too */
#define NO_KEY INT64_MAX
#define COUNT_LIMIT UINT32_MAX  /* a region's inputs, so that ulp_bins cannot wrap */

static inline uint64_t tally_count(const struct ga_tally *t)
{
    uint64_t n = t->correct;
    for (int i = 0; i < GA_DIST_BUCKETS; i++)
        n += t->distance[i];
    return n;
}

/* A key ordered like the values of x, with -0 just below +0: |x| for
 * positive x, -|x| - 1 = ~|x| for negative x (|x| the encoding without its
 * sign, below 2^63 even in float64), without a branch. */
static inline int64_t value_key(ga_bits x, ga_bits sign_mask)
{
    int64_t magnitude = (int64_t)(x & ~sign_mask);
    return magnitude ^ -(int64_t)((x & sign_mask) != 0);
}

/* Larger error wins; ties go to the smaller x, then the smaller y: a total
 * order, so the winner does not depend on the order of arrival. */
static inline bool beats(double error, ga_bits x, ga_bits y, const struct ga_stats_point *p)
{
    if (error != p->error)
        return error > p->error;
    return x != p->x ? x < p->x : y < p->y;
}

static inline void point_offer(struct ga_stats_point *p, double error, ga_bits x, ga_bits y,
                               const struct ga_exact *exact)
{
    if (beats(error, x, y, p)) {
        p->error = error;
        p->x = x;
        p->y = y;
        p->exact = *exact;
    }
}

/* Adds the error truncated to 32 significant bits, exactly: its significand
 * to the bucket of its binary exponent. */
static inline void sum_add(uint64_t *sum, double e)
{
    uint64_t b;
    memcpy(&b, &e, sizeof b);
    int biased = (int)(b >> 52);
    if (biased >= 1023 + GA_ULP_SUM_MIN_EXP)
        sum[biased - (1023 + GA_ULP_SUM_MIN_EXP)]
            += ((b & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52) >> 21;
}

/* Offers the three errors of an input to its region's maxima. */
static inline __attribute__((always_inline)) void
offer_errors(struct ga_tally *rs, const struct ga_error *e, ga_bits x, ga_bits y,
             const struct ga_exact *exact)
{
    if (e->ulp >= rs->max_ulp.error)
        point_offer(&rs->max_ulp, e->ulp, x, y, exact);
    if (e->rel >= rs->max_rel.error)
        point_offer(&rs->max_rel, e->rel, x, y, exact);
    if (e->abs >= rs->max_abs.error)
        point_offer(&rs->max_abs, e->abs, x, y, exact);
}

/* Counts of an input that is not correctly rounded: flags and the first
 * input of each, distance, the faithful interval. */
void ga_stats_add_other(struct ga_tally *rs, const struct ga_region_bounds *b, ga_bits x,
                        ga_bits y, const struct ga_truth *t, const struct ga_error *e);

/* The whole accounting of one input of a region, for any case: the
 * reference the fast path of ga_stats_add_batch (stats_batch.c) must agree with.  The format constants come as
 * pointers to the callers' local copies: the compiler then keeps them in
 * registers, where stores into the uint32_t bins could otherwise alias them.
 * Returns the input's ulp error (ga_error_ulp's, from the same computation). */
static inline __attribute__((always_inline)) double
add_one_in(struct ga_region_stats *region, const struct ga_format_layout *c,
           const struct ga_region_bounds *b, ga_bits x, ga_bits y, const struct ga_truth *t)
{
    struct ga_tally *rs = &region->tally;
    struct ga_error e;

    ga_error_compute(c, y, t, &e);
    if (e.flags & GA_ERR_CORRECT)  /* then no other flag but faithful */
        rs->correct++;
    else
        ga_stats_add_other(rs, b, x, y, t, &e);

    if (e.ulp == e.ulp) {  /* not NaN */
        region->ulp_bins[ga_ulp_bin(e.ulp)]++;
        if (e.ulp < INFINITY)
            sum_add(region->ulp_sum, e.ulp);
        offer_errors(rs, &e, x, y, &t->exact);
    }

    if ((y & ~b->sign_mask) != 0 && (x & ~b->sign_mask) < b->inf) {
        int64_t key = value_key(x, b->sign_mask);
        if (key < rs->nonzero_min)
            rs->nonzero_min = key;
    }
    return e.ulp;
}

#endif
