/* Correct rounding (to nearest, ties to even) of an MPFR value into a format,
 * subnormals and overflow included, with no double rounding: the value is
 * scaled so that the format's ulp at its binade is 1, rounded once to an
 * integer, and scaled back. */
#include "formats/round_mpfr.h"

#include <math.h>

ga_bits ga_round_mpfr_overflow(const struct ga_format *f, mpfr_srcptr v, enum ga_overflow o)
{
    bool negative = mpfr_signbit(v) != 0;
    mpfr_t scaled, integer;
    long e, q;
    double rounded;

    if (mpfr_nan_p(v))
        return ga_quiet_nan(f);
    if (mpfr_inf_p(v))
        return ga_encode_overflow(f, negative ? -INFINITY : INFINITY, o);
    if (mpfr_zero_p(v))
        return ga_zero(f, negative);

    /* |v| in [2^e, 2^(e+1)): MPFR's exponent is one more than IEEE's. */
    e = (long)mpfr_get_exp(v) - 1;
    if (e > f->emax)
        return ga_overflow_result(f, negative, o);
    q = (e < f->emin ? f->emin : e) - f->precision + 1;
    if (e < q - 1)  /* |v| < 2^q / 2: below half the smallest subnormal */
        return ga_zero(f, negative);

    mpfr_init2(scaled, mpfr_get_prec(v));
    mpfr_init2(integer, 64);
    mpfr_mul_2si(scaled, v, -q, MPFR_RNDN);  /* exact: same precision */
    mpfr_rint(integer, scaled, MPFR_RNDN);   /* one rounding, ties to even */
    rounded = ldexp(mpfr_get_d(integer, MPFR_RNDN), (int)q);  /* exact: < 2^(p+1) */
    mpfr_clear(scaled);
    mpfr_clear(integer);
    /* ga_encode is exact here, and turns a carry past the largest finite into
     * the format's overflow. */
    return ga_encode_overflow(f, rounded, o);
}

ga_bits ga_round_mpfr(const struct ga_format *f, mpfr_srcptr v)
{
    return ga_round_mpfr_overflow(f, v, ga_default_overflow(f));
}
