/* For x < 0 let z = -x/sqrt(2) > 0.  The Mills ratio bound
 * erfc(z) < exp(-z^2) / (z sqrt(pi))   (A&S 7.1.13, z > 0)
 * gives |gelu(x)| = (|x|/2) erfc(z) < exp(-x^2/2) / sqrt(2 pi) < exp(-x^2/2) / 2.
 * So where exp(-x^2/2) <= 2^s, s the exponent of f's smallest subnormal,
 * |gelu(x)| < 2^(s-1) and round to nearest gives -0.
 *
 * exp(-x^2/2) is bounded above with MPFR: x^2/2 exact (x has at most 53
 * bits), the exponential rounded up.  In MPFR's widest exponent range an
 * underflow rounded up returns the smallest positive number, still an
 * upper bound.  For float32 the bound decides every x <= -14.372 (the
 * rounding is -0 from -14.356 down). */
#include "truth/left_tail_bound.h"

#include <math.h>
#include <mpfr.h>

#include "truth/ziv.h"

bool ga_gelu_left_tail_vanishes(const struct ga_format *f, double x)
{
    long smallest = (long)f->emin - (long)f->precision + 1;  /* 2^s, s this */
    struct ga_mpfr_range saved;
    mpfr_t half_square, bound;
    bool vanishes;

    if (!(x < 0) || isinf(x))
        return false;
    saved = ga_mpfr_widen_range();
    mpfr_init2(half_square, 2 * 53);
    mpfr_init2(bound, 64);
    mpfr_set_d(half_square, x, MPFR_RNDN);                  /* exact */
    mpfr_sqr(half_square, half_square, MPFR_RNDN);          /* exact: 106 bits */
    mpfr_div_2ui(half_square, half_square, 1, MPFR_RNDN);   /* exact */
    mpfr_neg(half_square, half_square, MPFR_RNDN);
    mpfr_exp(bound, half_square, MPFR_RNDU);                /* >= exp(-x^2/2) */
    vanishes = mpfr_cmp_si_2exp(bound, 1, smallest) <= 0;
    mpfr_clears(half_square, bound, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return vanishes;
}
