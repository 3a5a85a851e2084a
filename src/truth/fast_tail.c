/* The exact value in the far left tail, where f(x) leaves the double range
 * (GELU below x = -36, the tanh form below x = -20; bfloat16 inputs reach
 * -3.4e38, where gelu(x) ~ exp(-5.8e76)).  The rounding there is -0 (the
 * thresholds lie far above); only the magnitude is computed, as
 * |f(x)| = 2^(-P) * F with P huge (up to 2^40 at GA_EXACT_EXP_MIN) and F a
 * factor near 1: P is split into an integer and a fraction, which must be
 * right to about 2^-50 in absolute terms, so P is formed in double-double.
 *
 * GELU, t = -x > 36: |gelu(x)| = t Q(t) = phi(t) S(t), so
 *   P = t^2/(2 ln 2) + log2 sqrt(2 pi),  F = S(t)
 *   S(t) = 1 - 1/t^2 + 3/t^4 - 15/t^6 + ... + (-1)^n (2n-1)!!/t^(2n) ...,
 * the asymptotic series of erfc (DLMF 7.12.1 with z = t/sqrt 2), whose
 * remainder for real arguments is bounded by the first omitted term
 * (DLMF 7.12(i)).  Stopping after 10395/t^12, the remainder is below
 * 135135/36^14 < 2^-55.
 *
 * Tanh form, t = -x > 20: |gelu_tanh(x)| = t / (1 + e^(2w)),
 * w = beta (t + kappa t^3) > 301, so
 *   P = (2 beta/ln 2) t + (2 beta kappa/ln 2) t^3,  F = t
 * up to the factor 1/(1 + e^(-2w)) = 1 - 2^-860 or closer, dropped.
 *
 * Errors: t^2 and t^3 are exact (t has at most 24 bits; t^3 as a pair); the
 * constants are double-double (relative error 2^-106), so the large
 * products err by less than 2^-60 while they are below 2^43; the integer
 * parts are split off exactly and the fractions summed in double err by a
 * few 2^-53: below 2^-50 in P, 2^-50 ln 2 relatively in 2^-P.  exp2 adds
 * GA_FAST_LIBM_REL_ERR, S or t's mantissa and the product 2u.
 * doc/oracle.md, 'The tail asymptotic form'. */

/* Error-free transformations below need every product and sum rounded
 * separately: no contraction into fused multiply-adds (GCC contracts by
 * default in GNU C mode wherever the target has an FMA). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>

#include "truth/fast_internal.h"

/* Double-double constants hi + lo, from MPFR at 400 bits. */
static const double INV_2LN2_HI = 0x1.71547652b82fep-1;    /* 1/(2 ln 2) */
static const double INV_2LN2_LO = 0x1.777d0ffda0d24p-57;
static const double LOG2_SQRT_2PI = 0x1.536439a4c6efcp+0;  /* log2 sqrt(2 pi), double */
static const double K1_HI = 0x1.26aec21bce759p+1;          /* 2 beta / ln 2 */
static const double K1_LO = 0x1.2ed2859b4314fp-53;
static const double K3_HI = 0x1.a5a7cf7572a98p-4;          /* 2 beta kappa / ln 2 */
static const double K3_LO = -0x1.b91c940e4cfcfp-58;

/* The negative value 2^(n + frac) * factor, n integer (as a double), frac in
 * a small range, factor in [0.5, 1]; clamped below 2^GA_EXACT_EXP_MIN. */
static struct ga_exact negative_power(double n, double frac, double factor)
{
    struct ga_exact e;
    double whole = ga_fast_floor(frac);
    double m = exp2(frac - whole) * factor;  /* in [0.5, 2]; frac - whole exact */

    n += whole;
    if (m >= 1) {
        m *= 0.5;
        n += 1;
    } else if (m < 0.5) {
        m *= 2;
        n -= 1;
    }
    /* |f(x)| = m * 2^n with m in [0.5, 1) */
    if (n < (double)GA_EXACT_EXP_MIN) {
        e.mant = -0.5;
        e.exp = GA_EXACT_EXP_MIN;
        return e;
    }
    e.mant = -m;
    e.exp = (long)n;
    return e;
}

static struct ga_exact vanishing(void)
{
    struct ga_exact e = { -0.5, GA_EXACT_EXP_MIN };
    return e;
}

struct ga_exact ga_fast_gelu_left_tail(double x)
{
    double t2 = x * x;                      /* exact */
    double r, s, hi, lo, n;

    if (-x >= GA_FAST_GELU_VANISHING_FROM)
        return vanishing();
    r = 1 / t2;
    s = 1 + r * (-1 + r * (3 + r * (-15 + r * (105 + r * (-945 + r * 10395)))));
    hi = ga_fast_two_prod(t2, INV_2LN2_HI, &lo);
    lo += t2 * INV_2LN2_LO;
    n = ga_fast_floor(-hi);                 /* -hi - n in [0, 1), exact */
    return negative_power(n, ((-hi - n) - lo) - LOG2_SQRT_2PI, s);
}

/* -2^(-P) * F for the tanh form's P at t = -x, with F = mant 2^exp
 * (split): F = t for the function, 2|P(x)| - 1 for its derivative. */
static struct ga_exact tanh_tail(double t, struct ga_exact split)
{
    double t2 = t * t;                      /* exact */
    double t3_hi, t3_lo, hi3, lo3, hi1, lo1, n3, n1;

    t3_hi = ga_fast_two_prod(t2, t, &t3_lo);  /* t^3 = t3_hi + t3_lo exactly */
    hi3 = ga_fast_two_prod(K3_HI, t3_hi, &lo3);
    lo3 += K3_HI * t3_lo + K3_LO * t3_hi;
    hi1 = ga_fast_two_prod(K1_HI, t, &lo1);
    lo1 += K1_LO * t;
    n3 = ga_fast_floor(-hi3);
    n1 = ga_fast_floor(-hi1);
    return negative_power(n3 + n1 + (double)split.exp,
                          ((-hi3 - n3) + (-hi1 - n1)) - (lo3 + lo1), split.mant);
}

struct ga_exact ga_fast_gelu_tanh_left_tail(double x)
{
    if (-x >= GA_FAST_TANH_VANISHING_FROM)
        return vanishing();
    return tanh_tail(-x, ga_fast_exact_from_double(-x));  /* t = mant 2^exp */
}

/* gelu'(x) = Phi(x) + x phi(x) = -phi(t) t (1 - S(t)/t^2) at t = -x > 36,
 * with gelu's S (Phi(-t) = phi(t) S(t)/t): the same P, and the factor
 * t (1 - S/t^2), in (0.999 t, t), whose rounding errors are a few u. */
struct ga_exact ga_fast_gelu_grad_left_tail(double x)
{
    double t2 = x * x;                      /* exact */
    struct ga_exact split;
    double r, s, hi, lo, n;

    if (-x >= GA_FAST_GELU_VANISHING_FROM)  /* the factor t adds at most 2^128 */
        return vanishing();
    split = ga_fast_exact_from_double(-x);
    r = 1 / t2;
    s = 1 + r * (-1 + r * (3 + r * (-15 + r * (105 + r * (-945 + r * 10395)))));
    hi = ga_fast_two_prod(t2, INV_2LN2_HI, &lo);
    lo += t2 * INV_2LN2_LO;
    n = ga_fast_floor(-hi);
    return negative_power(n + (double)split.exp, ((-hi - n) - lo) - LOG2_SQRT_2PI,
                          split.mant * (1 - r * s));
}

/* The tanh form's derivative at t = -x > 20: g = (1 + e(1 + 2P))/(1 + e)^2
 * with e = e^(-2w) > 2^868, so g = -(2|P| - 1)/e to 2^-860 relatively, the
 * tanh form's 2^(-P) with the factor 2|P| - 1 = 2 t beta (1 + 3 kappa t^2) - 1
 * (a few u: no cancellation, 2|P| > 1700). */
struct ga_exact ga_fast_gelu_tanh_grad_left_tail(double x)
{
    double t = -x;

    if (t >= GA_FAST_TANH_VANISHING_FROM)
        return vanishing();
    return tanh_tail(t, ga_fast_exact_from_double(
                            2 * (GA_FAST_BETA * t) * (1 + GA_FAST_THREE_KAPPA * (t * t)) - 1));
}
