/* The derivative of exact GELU, correctly rounded by MPFR:
 *   gelu'(x) = Phi(x) + x phi(x) = erfc(-x/sqrt(2))/2 + x exp(-x^2/2)/sqrt(2 pi).
 * The two terms A = Phi(x) > 0 and B = x phi(x) cancel for x < 0: exactly at
 * the root x0 = -0.75179152... (the minimum of GELU), badly near it.  So the
 * error is bounded absolutely, term by term, and turned into a relative bound
 * through the computed sum (ga_ziv_decide_within): next to x0 the sum is tiny,
 * the bound does not decide, and the loop raises the precision.
 *
 * Error analysis at working precision w, u = 2^-w, round to nearest:
 *   A = erfc(z')/2, z' = -x/sqrt(2) rounded: |A' - A| <= cA |A| u with
 *       cA = 3.2 x^2 + 3.2, the bound of the forward oracle (gelu_mpfr.c),
 *       which also covers two roundings more than A takes;
 *   B: x^2 (1 rounding, amplified by exp into x^2/2 u), exp (1), pi (1, halved
 *       by the square root), sqrt (1), x * e (1), / sqrt(2 pi) (1):
 *       |B' - B| <= (0.5 x^2 + 4.6) u |B| (1 + 2^-7) <= cB |B| u, cB = 0.6 x^2 + 6;
 *   S = A' + B' (1 rounding):
 *       |S - gelu'(x)| <= (cA |A'| + cB |B'| + |S|) u (1 + 2^-6),
 * second-order terms included while (cA + cB) u <= 2^-10 (the first w).
 *
 * Far out, exp(-x^2/2) and erfc underflow MPFR's widest range (|x| > 2.5e9);
 * there |gelu'(x)| < |x| phi(x) (left) or 0 < gelu'(x) - 1 < x phi(x) (right),
 * both for |x| >= 1 (Mills' ratio Q(t) < phi(t)/t), and a bound of x phi(x)
 * with directed rounding certifies -0 or 1 from above.
 * Step by step: doc/oracle.md, 'The derivatives'. */
#include <math.h>

#include "truth/gelu_oracles.h"
#include "truth/grad_enclose.h"
#include "truth/grad_limits.h"
#include "truth/ziv.h"

/* 1 when |x| phi(x) < 2^GA_EXACT_EXP_MIN is proved, for |x| >= 1. */
int ga_gelu_grad_tail_vanishes(mpfr_srcptr x)
{
    mpfr_t t;
    int vanishes;

    if (mpfr_cmpabs_ui(x, 1) < 0)
        return 0;
    mpfr_init2(t, 64);
    mpfr_sqr(t, x, MPFR_RNDD);
    mpfr_div_2ui(t, t, 1, MPFR_RNDD);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDU);                /* >= exp(-x^2/2) */
    mpfr_mul(t, t, x, MPFR_RNDA);             /* |x| exp(-x^2/2) >= sqrt(2 pi) |x| phi(x) */
    vanishes = mpfr_zero_p(t) || mpfr_get_exp(t) < GA_EXACT_EXP_MIN;
    mpfr_clear(t);
    return vanishes;
}

/* s (precision w) and err (64 bits) with |s - gelu'(x)| <= err, by the
 * analysis above; returns 0 when a term left MPFR's range (then s and err
 * mean nothing).  Runs in the caller's exponent range. */
int ga_gelu_grad_enclose(mpfr_srcptr x, double xd, mpfr_prec_t w, mpfr_ptr s, mpfr_ptr err)
{
    double ca = 3.2 * xd * xd + 3.2, cb = 0.6 * xd * xd + 6;
    mpfr_t a, b, t, c;
    int ok;

    mpfr_inits2(w, a, b, t, (mpfr_ptr)0);
    mpfr_init2(c, 64);
    mpfr_set_prec(s, w);
    mpfr_clear_underflow();
    mpfr_sqrt_ui(t, 2, MPFR_RNDN);
    mpfr_div(t, x, t, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);
    mpfr_erfc(a, t, MPFR_RNDN);
    mpfr_div_2ui(a, a, 1, MPFR_RNDN);          /* A = Phi(x) */
    mpfr_sqr(t, x, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_neg(t, t, MPFR_RNDN);                 /* -x^2/2, exactly from x^2 */
    mpfr_exp(b, t, MPFR_RNDN);
    mpfr_mul(b, b, x, MPFR_RNDN);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_div(b, b, t, MPFR_RNDN);              /* B = x phi(x) */
    ok = !mpfr_underflow_p() && !mpfr_zero_p(a) && !mpfr_zero_p(b);
    if (ok) {
        mpfr_add(s, a, b, MPFR_RNDN);
        /* err = (cA |A'| + cB |B'| + |S|) u (1 + 2^-6), rounded up */
        mpfr_abs(err, s, MPFR_RNDU);
        mpfr_set_d(c, ca, MPFR_RNDU);
        mpfr_mul(c, c, a, MPFR_RNDU);          /* A' > 0 */
        mpfr_add(err, err, c, MPFR_RNDU);
        mpfr_set_d(c, cb, MPFR_RNDU);
        mpfr_mul(c, c, b, MPFR_RNDA);
        mpfr_abs(c, c, MPFR_RNDU);
        mpfr_add(err, err, c, MPFR_RNDU);
        mpfr_mul_d(err, err, 1 + 0x1p-6, MPFR_RNDU);
        mpfr_div_2ui(err, err, (unsigned long)w, MPFR_RNDU);
    }
    mpfr_clears(a, b, t, c, (mpfr_ptr)0);
    return ok;
}

/* The first working precision: (cA + cB) u <= 2^-10 when bits = 64; more bits
 * for formats whose exact value needs them (ga_ziv_first_bits). */
long ga_gelu_grad_first_precision(long bits, double xd)
{
    return bits + 10 + ga_ceil_log2(3.8 * xd * xd + 10.2);
}

