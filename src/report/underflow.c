/* Where the truth itself underflows in a format's left tail: the largest x
 * whose correctly rounded result is -0.  Plots mark it, so that an
 * implementation's zeros can be told apart from the truth's.
 *
 * Below x = -3 both gelu and gelu_tanh are negative and shrink in magnitude
 * monotonically towards -inf (gelu's only minimum is at -0.7518, gelu_tanh's
 * near it: doc/mathematics.md, 'Shape facts'), so "rounds to -0" is monotone in the
 * input's magnitude there and a bisection over encodings finds the edge. */
#include "report/pictures.h"

/* |x| = 3: no format here underflows above it (gelu(-3) = -4.05e-3). */
#define SEARCH_FROM 3.0

static int rounds_to_zero(enum ga_function fn, const struct ga_format *f, ga_bits x, bool *zero)
{
    struct ga_truth t;

    if (ga_truth_mpfr(fn, f, x, &t) != GA_TRUTH_OK)
        return -1;
    *zero = (t.rounded & ~ga_sign_mask(f)) == 0;
    return 0;
}

int ga_underflow_threshold(enum ga_function fn, const struct ga_format *f, ga_bits *x)
{
    ga_bits sign = ga_sign_mask(f);
    ga_bits lo = ga_encode(f, SEARCH_FROM);   /* magnitudes: no underflow at lo */
    ga_bits max = ga_max_finite(f, false);
    ga_bits hi = ga_encode(f, 2 * SEARCH_FROM);
    bool zero;

    if (rounds_to_zero(fn, f, lo | sign, &zero) != 0 || zero)
        return -1;
    /* Double the magnitude until the result underflows: the oracle's cost
     * grows with |x|, so stay close to the edge. */
    for (;;) {
        if (rounds_to_zero(fn, f, hi | sign, &zero) != 0)
            return -1;
        if (zero)
            break;
        if (hi == max)
            return -1;
        lo = hi;
        hi = ga_decode(f, hi) * 2 >= ga_decode(f, max) ? max : ga_encode(f, ga_decode(f, hi) * 2);
    }
    /* Invariant: magnitude lo does not underflow, hi does. */
    while (hi - lo > 1) {
        ga_bits mid = lo + (hi - lo) / 2;
        if (rounds_to_zero(fn, f, mid | sign, &zero) != 0)
            return -1;
        if (zero)
            hi = mid;
        else
            lo = mid;
    }
    *x = hi | sign;
    return 0;
}
