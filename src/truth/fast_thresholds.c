/* Where the fast oracle decides the rounding without evaluating f.
 * Every threshold was found with the MPFR oracle and is checked by
 * tests/truth_fast_test.c: tight (the threshold has the property, its
 * neighbour does not) and holding on samples beyond it.
 *
 * Right (f(x) rounds to x for x >= right).  f(x) = x - h(x) with
 * h(x) = x Q(x), Q = 1 - Phi, for GELU and h(x) = x / (1 + e^(2u)) for the
 * tanh form.  f(x) rounds to x exactly when h(x) is below half the gap from
 * x down to the previous encoding.  For x >= 1, h is decreasing
 * (h' = Q - x phi < 0 by the Mills ratio bound Q(x) < phi(x)/x; for the tanh
 * form 2x du/dx = 2 beta x (1 + 3 kappa x^2) > 1 + e^(-2u)) and the gap is
 * non-decreasing, so the property, once true, stays true: the threshold is
 * the first x >= 1 that has it (found by bisection).
 *
 * Left (f(x) rounds to -0 for x <= left).  |f(x)| = h(|x|), decreasing for
 * |x| >= 1 by the same argument, rounds to zero exactly when it is below half
 * the smallest subnormal.
 *
 * Tiny (f(x) rounds to x/2, ties upwards, for |x| <= tiny).  f(x) = x/2 + d
 * with 0 < d <= B(x): for GELU d = x (Phi(x) - 1/2) and
 * Phi(|x|) - 1/2 <= |x| phi(0), so B = x^2/sqrt(2 pi); for the tanh form
 * d = x tanh(u)/2 <= |x| |u|/2, B = (x^2/sqrt(2 pi))(1 + kappa x^2).  So f(x)
 * rounds like x/2 pushed upwards: to x/2 when that is representable, to the
 * upper neighbour when x/2 is halfway, as long as x/2 + B stays below the
 * next rounding boundary above.  B grows with |x| while that boundary's
 * distance is fixed in each binade (halved at x/2 = -2^k), so the condition
 * holds for every |x| up to the first failure; tiny is the encoding before
 * it.  The test rechecks the condition at the top of every binade and MPFR
 * shows the next encoding rounds otherwise (the bound is tight).
 *
 * The tiny thresholds coincide for the two functions: both are
 * x/2 + x^2/sqrt(2 pi) + O(x^4).  doc/oracle.md, 'Fast oracle thresholds'. */
#include "truth/fast_internal.h"

/* [function][format] */
const struct ga_fast_thresholds ga_fast_threshold_table[GA_FUNCTION_COUNT][GA_FORMAT_COUNT] = {
    [GA_GELU] = {
        /* tiny 4.71840345e-08, right 5.34751558, left -14.3560686 */
        [GA_FLOAT32] = { 0x334aa765, 0xb34aa765, 0x40ab1ed9, 0xc165b275 },
        /* tiny 0.000386476517, right 3.44726562, left -5.7265625 */
        [GA_FLOAT16] = { 0x0e55, 0x8e55, 0x42e5, 0xc5ba },
        /* tiny 0.00308227539, right 2.78125, left -13.5625 */
        [GA_BFLOAT16] = { 0x3b4a, 0xbb4a, 0x4032, 0xc159 },
    },
    [GA_GELU_TANH] = {
        /* tiny 4.71840345e-08, right 4.99413729, left -10.7708683 */
        [GA_FLOAT32] = { 0x334aa765, 0xb34aa765, 0x409fcff9, 0xc12c557a },
        /* tiny 0.000386476517, right 3.38085938, left -5.2890625 */
        [GA_FLOAT16] = { 0x0e55, 0x8e55, 0x42c3, 0xc54a },
        /* tiny 0.00308227539, right 2.75, left -10.375 */
        [GA_BFLOAT16] = { 0x3b4a, 0xbb4a, 0x4030, 0xc126 },
    },
};
