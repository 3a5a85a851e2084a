/* The fast oracle: the same truth as ga_truth_mpfr, at a few nanoseconds per
 * input, so that an exhaustive float32 sweep fits in a minute.
 *
 * Three regions are decided by certified thresholds without evaluating
 * anything (fast_thresholds.c): tiny |x|, where the result is x/2 rounded with
 * ties upwards; large x, where it is x; very negative x, where it is -0.
 * Elsewhere the function is evaluated in double with a proven relative error
 * bound (fast_eval.c); when the interval that bound defines rounds to one
 * encoding, that encoding is the correctly rounded result, otherwise
 * ga_truth_mpfr answers.  So `rounded` is always the MPFR oracle's.  The
 * exact value comes from the same evaluation, from a series (tiny x), or
 * from the asymptotic form where f(x) leaves the double range (fast_tail.c).
 * A format without thresholds in the table is left to MPFR entirely.
 * The derivatives (float32, float16, bfloat16) have regions and a double
 * evaluation of their own, with an absolute bound (fast_grad.c).
 *
 * Assumes the default floating-point environment (round to nearest), like
 * the rest of the suite. */
#ifndef GA_TRUTH_FAST_H
#define GA_TRUTH_FAST_H

#include <stdbool.h>
#include <stddef.h>

#include "truth/truth.h"

/* `exact` of a finite non-zero result is within this relative distance of
 * the true value (the MPFR oracle's is within 2^-53): 1.01 L + 20 * 2^-53
 * where L = 2^-44 is the assumed error of the C library's erfc, exp and
 * exp2 (fast_internal.h, checked by the tests); results below
 * 2^GA_EXACT_EXP_MIN are clamped as by the MPFR oracle. */
#define GA_FAST_EXACT_REL_ERR 0x1p-43

/* Whether the fast paths cover fn in f: a forward function and a format
 * with thresholds in the table, or a derivative in float32, float16 or
 * bfloat16.  Otherwise ga_truth_fast is the MPFR oracle (the small formats:
 * at most 256 encodings each; float64's derivatives). */
bool ga_truth_fast_covers(enum ga_function fn, const struct ga_format *f);

/* Same contract and special values as ga_truth_mpfr: returns GA_TRUTH_OK,
 * or GA_TRUTH_UNDECIDED when the MPFR fallback reached its precision cap
 * (*out is then unspecified).  Thread-safe and deterministic. */
int ga_truth_fast(enum ga_function fn, const struct ga_format *f, ga_bits x,
                  struct ga_truth *out);

/* out[i] = the truth of x[i] for i < n.  Returns the number of inputs left
 * undecided (0 when all are OK); those entries hold a quiet NaN in
 * `rounded` and NaN in `exact.mant` with exp = 1, a pair no decided input
 * gives (a NaN result has exp = 0). */
size_t ga_truth_fast_batch(enum ga_function fn, const struct ga_format *f,
                           const ga_bits *x, struct ga_truth *out, size_t n);

#endif
