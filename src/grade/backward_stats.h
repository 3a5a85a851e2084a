/* The statistics of a backward sweep: per pair dx against RN_F(dy * d(x)).
 *
 * - ulp error, correctly rounded, faithful: as forward (error.h), of dx
 *   against the exact product;
 * - dy-ulp error: |dx - dy d(x)| / ulp(dy), what an optimizer sees (the ulp
 *   error explodes next to the root x0, where dy d(x) is tiny);
 * - sign errors: dx nonzero, not NaN, of the sign opposite to dy d(x) (which
 *   is not 0): the error that turns an update around;
 * - root region: x in [-1, -0.5] (x0 = -0.7518), with the smallest and largest
 *   x of that region where some dx is not faithful.
 * Sums are merged in a fixed order (chunk by chunk), so every figure is the
 * same whatever the thread count. */
#ifndef GA_BACKWARD_STATS_H
#define GA_BACKWARD_STATS_H

#include <stdint.h>

#include "formats/format.h"
#include "grade/error.h"

#define GA_ROOT_REGION_LO (-1.0)
#define GA_ROOT_REGION_HI (-0.5)

struct ga_backward_worst {
    uint64_t index;      /* pair number in the domain; UINT64_MAX when none */
    ga_bits x, dy, dx, truth;
    double ulp;
};

struct ga_backward_region {
    uint64_t count, correct, faithful, sign_errors;
    uint64_t nan_outputs;    /* NaN where the truth is not */
    uint64_t not_nan;        /* not NaN where the truth is */
    uint64_t inf_outputs, flushed;
    uint64_t zero_sign;      /* a zero of the sign opposite to the correctly rounded zero */
    double max_ulp, sum_ulp;  /* over pairs with a finite truth and a non-NaN dx */
    uint64_t ulp_count;
    double max_dy_ulp, sum_dy_ulp;  /* the same pairs, dy finite */
    uint64_t dy_ulp_count;
    struct ga_backward_worst worst;  /* largest ulp error, first in domain order */
};

/* A batch of pairs a plugin kernel failed on (crash, hang, contract). */
struct ga_backward_failure {
    uint64_t first, last;    /* pair numbers, narrowed down */
    ga_bits x, dy;           /* pair first */
    char what[160];
};

struct ga_backward_stats {
    struct ga_backward_region all, root;
    uint64_t failed_pairs, failed_batches;   /* not in the regions */
    struct ga_backward_failure failure;      /* the first, when failed_batches > 0 */
    double unfaithful_lo, unfaithful_hi;  /* root region; NaN when every dx is faithful */
};

void ga_backward_stats_init(struct ga_backward_stats *s);
/* One pair: its number, inputs, output and truth; its error into *e unless
 * e is NULL (for the heat map, so that it is computed once). */
void ga_backward_stats_add(struct ga_backward_stats *s, const struct ga_format_layout *c,
                           uint64_t index, ga_bits x, ga_bits dy, ga_bits dx,
                           const struct ga_truth *t, struct ga_error *e);
/* What a sweep of a 16-bit format looks up per encoding: value[b] =
 * ga_decode(f, b), ulp_inverse[b] = 1 / ga_ulp(f, value[b]) (NaN where the
 * value is not finite). */
struct ga_backward_tables {
    const double *value;
    const double *ulp_inverse;
};

/* n pairs (x[i], dy[i]), numbered index + i: bit for bit what n calls of
 * ga_backward_stats_add give, faster, most where neighbours share x or dy.
 * tables may be NULL; so may errors, else errors[i] receives pair i's
 * error. */
void ga_backward_stats_add_pairs(struct ga_backward_stats *s, const struct ga_format_layout *c,
                                 uint64_t index, size_t n, const ga_bits *x, const ga_bits *dy,
                                 const ga_bits *dx, const struct ga_truth *t,
                                 const struct ga_backward_tables *tables, struct ga_error *errors);
/* into += from, from covering pairs after into's. */
void ga_backward_stats_merge(struct ga_backward_stats *into, const struct ga_backward_stats *from);

/* The sums of a statistics: the only figures merging adds in floating
 * point, so the only ones whose bits depend on how the pairs were grouped.
 * A sweep merges one statistics per chunk, in chunk order; replaying the
 * chunks' sums in that order (ga_backward_sums_add) gives its bits from
 * shards that each merged only their own chunks. */
struct ga_backward_sums {
    double ulp, dy_ulp;            /* region all */
    double root_ulp, root_dy_ulp;  /* region root */
};

struct ga_backward_sums ga_backward_sums_of(const struct ga_backward_stats *s);
void ga_backward_sums_set(struct ga_backward_stats *s, const struct ga_backward_sums *sums);
/* into += from, as ga_backward_stats_merge adds them. */
void ga_backward_sums_add(struct ga_backward_sums *into, const struct ga_backward_sums *from);

#endif
