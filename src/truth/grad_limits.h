/* What the two derivative oracles share: their special values and the
 * results they certify without evaluating, far out in either tail.
 *
 * Both derivatives d = gelu' and gelu_tanh' satisfy (doc/oracle.md,
 * 'The derivatives'):  d(x) < 0 for x <= -1,  d(x) > 1 for x >= 1,
 * d(x) -> -0 as x -> -inf and d(x) -> 1 from above as x -> +inf,
 * d(+-0) = 1/2 exactly. */
#ifndef GA_GRAD_LIMITS_H
#define GA_GRAD_LIMITS_H

#include "truth/truth.h"

/* d(NaN) = NaN, d(+inf) = 1, d(-inf) = -0 (the limit, approached from
 * below), d(+-0) = 1/2.  Returns 1 when x is one of them (and fills *out). */
int ga_grad_special(const struct ga_format *f, ga_bits x, struct ga_truth *out);

/* A truth for d(x) = 1 + t with 0 < t < 2^GA_EXACT_EXP_MIN: rounds to 1,
 * from above. */
void ga_grad_one_from_above(const struct ga_format *f, struct ga_truth *out);

/* The bounds ga_ziv_decide takes (lower < d(x) < upper) from the signs
 * proved in the tails; infinite where nothing is claimed. */
void ga_grad_bounds(double x, double *lower, double *upper);

#endif
