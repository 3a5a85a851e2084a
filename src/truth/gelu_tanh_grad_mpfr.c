/* The derivative of the tanh form, taken exactly and correctly rounded by
 * MPFR (sqrt(2/pi) = beta and 0.044715 = kappa exact reals):
 *   g(x) = 0.5 (1 + tanh u) + 0.5 x (1 - tanh^2 u) beta (1 + 3 kappa x^2),
 *   u = beta (x + kappa x^3).
 * With e = exp(-2u), 1 + tanh u = 2/(1 + e) and 1 - tanh^2 u = 4e/(1 + e)^2, so
 *   g(x) = T1 + T2,  T1 = 1/(1 + e),  T2 = 2 P e/(1 + e)^2,  P = x beta (1 + 3 kappa x^2),
 * terms without internal cancellation; T1 > 0 and T2 < 0 cancel for x < 0,
 * exactly at the root near -0.7515.  As for gelu' (gelu_grad_mpfr.c) the
 * error is bounded absolutely and decided through the computed sum.
 *
 * Error analysis at working precision w, u_w = 2^-w, round to nearest:
 *   u' = u (1 + d), |d| <= 9.1 u_w        (the forward oracle, gelu_tanh_mpfr.c)
 *   e' = e (1 + Ee), Ee <= (18.4 |u| + 1) u_w   exp's condition number is |2u|
 *   D = 1 + e'                             Ed <= Ee + u_w (adds positives)
 *   T1 = 1/D                               cT1 = 18.4 |u| + 3.1
 *   P: kappa (1), 3 kappa (1), x^2 (1), 3 kappa x^2 (1), 1 + ... (1, positives),
 *      beta (3), x beta (1), product (1)    10 u_w
 *   (e/D)/D (Ee + 2 Ed + 2), 2 P (e/D^2) (+10 + 1)
 *                                          55.2 |u| + 18 <= cT2 = 56 |u| + 20
 *   S = T1' + T2' (1 rounding):
 *       |S - g(x)| <= (cT1 |T1'| + cT2 |T2'| + |S|) u_w (1 + 2^-6),
 * second-order terms included while (cT1 + cT2) u_w <= 2^-10 (the first w).
 *
 * Far out e or a term over- or underflows MPFR's widest range (|x| > about
 * 2e6; every step is checked through MPFR's flags); there
 * |g(x)| <= (2 + 2|P|) e for x <= -1 (e >= 1: |g| = |1 + e(1 + 2P)|/(1 + e)^2)
 * and 0 < g(x) - 1 = e (2P - 1 - e)/(1 + e)^2 < 2 P e for x >= 1, with e =
 * exp(-2|u|) on the right and 1/e on the left: one bound, (2 + 2|P|) exp(-2|u|),
 * computed with directed rounding, certifies -0 or 1 from above.
 * Step by step: doc/oracle.md, 'The derivatives'. */
#include <math.h>

#include "truth/gelu_oracles.h"
#include "truth/grad_enclose.h"
#include "truth/grad_limits.h"
#include "truth/ziv.h"

/* 1 when (2 + 2|P|) exp(-2|u|) < 2^GA_EXACT_EXP_MIN is proved, for |x| >= 1. */
int ga_gelu_tanh_grad_tail_vanishes(mpfr_srcptr x)
{
    mpfr_t ax, beta_lo, beta_hi, t, p, bound;
    int vanishes;

    if (mpfr_cmpabs_ui(x, 1) < 0)
        return 0;
    mpfr_inits2(64, ax, beta_lo, beta_hi, t, p, bound, (mpfr_ptr)0);
    mpfr_abs(ax, x, MPFR_RNDN);
    mpfr_const_pi(t, MPFR_RNDU);
    mpfr_ui_div(beta_lo, 2, t, MPFR_RNDD);
    mpfr_sqrt(beta_lo, beta_lo, MPFR_RNDD);          /* <= sqrt(2/pi) */
    mpfr_const_pi(t, MPFR_RNDD);
    mpfr_ui_div(beta_hi, 2, t, MPFR_RNDU);
    mpfr_sqrt(beta_hi, beta_hi, MPFR_RNDU);          /* >= sqrt(2/pi) */
    mpfr_pow_ui(t, ax, 3, MPFR_RNDD);
    mpfr_mul_ui(t, t, 44715, MPFR_RNDD);
    mpfr_div_ui(t, t, 1000000, MPFR_RNDD);
    mpfr_add(t, t, ax, MPFR_RNDD);
    mpfr_mul(t, t, beta_lo, MPFR_RNDD);              /* <= |u| */
    mpfr_mul_si(t, t, -2, MPFR_RNDU);
    mpfr_exp(bound, t, MPFR_RNDU);                   /* >= exp(-2|u|) */
    mpfr_sqr(p, ax, MPFR_RNDU);
    mpfr_mul_ui(p, p, 3 * 44715, MPFR_RNDU);
    mpfr_div_ui(p, p, 1000000, MPFR_RNDU);
    mpfr_add_ui(p, p, 1, MPFR_RNDU);
    mpfr_mul(p, p, ax, MPFR_RNDU);
    mpfr_mul(p, p, beta_hi, MPFR_RNDU);              /* >= |P| */
    mpfr_mul_2ui(p, p, 1, MPFR_RNDU);
    mpfr_add_ui(p, p, 2, MPFR_RNDU);
    mpfr_mul(bound, bound, p, MPFR_RNDU);
    vanishes = mpfr_zero_p(bound) || mpfr_get_exp(bound) < GA_EXACT_EXP_MIN;
    mpfr_clears(ax, beta_lo, beta_hi, t, p, bound, (mpfr_ptr)0);
    return vanishes;
}

/* The analysis' constants from a generous bound of |u| (|u| <= 0.8 |x| +
 * 0.036 |x|^3, and 1.01 for the double arithmetic forming it). */
static void constants(double xd, double *c1, double *c2)
{
    double u_bound = (0.8 * fabs(xd) + 0.036 * fabs(xd) * xd * xd) * 1.01;

    *c1 = 18.4 * u_bound + 3.1;
    *c2 = 56 * u_bound + 20;
}

/* The first working precision: (cT1 + cT2) u_w <= 2^-10 when bits = 64; more
 * bits for formats whose exact value needs them (ga_ziv_first_bits). */
long ga_gelu_tanh_grad_first_precision(long bits, double xd)
{
    double c1, c2;

    constants(xd, &c1, &c2);
    return bits + 10 + ga_ceil_log2(c1 + c2 + 1);
}


/* s (precision w) and err (64 bits) with |s - g(x)| <= err, by the analysis
 * above; returns 0 when a step left MPFR's range (then s and err mean
 * nothing).  Runs in the caller's exponent range. */
int ga_gelu_tanh_grad_enclose(mpfr_srcptr x, double xd, mpfr_prec_t w, mpfr_ptr s, mpfr_ptr err)
{
    double c1, c2;
    mpfr_t k, q, a, e, d, t1, t2, c;
    int ok;

    constants(xd, &c1, &c2);
    mpfr_inits2(w, k, q, a, e, d, t1, t2, (mpfr_ptr)0);
    mpfr_init2(c, 64);
    mpfr_set_prec(s, w);
    mpfr_clear_overflow();
    mpfr_clear_underflow();
    mpfr_set_ui(k, 44715, MPFR_RNDN);
    mpfr_div_ui(k, k, 1000000, MPFR_RNDN);    /* kappa */
    mpfr_sqr(q, x, MPFR_RNDN);                /* x^2 */
    mpfr_mul(a, q, x, MPFR_RNDN);
    mpfr_mul(a, a, k, MPFR_RNDN);
    mpfr_add(a, a, x, MPFR_RNDN);             /* x + kappa x^3 */
    mpfr_const_pi(d, MPFR_RNDN);
    mpfr_ui_div(d, 2, d, MPFR_RNDN);
    mpfr_sqrt(d, d, MPFR_RNDN);               /* beta */
    mpfr_mul(a, a, d, MPFR_RNDN);             /* u */
    mpfr_mul_si(a, a, -2, MPFR_RNDN);         /* exact */
    mpfr_exp(e, a, MPFR_RNDN);                /* e = exp(-2u) */
    mpfr_mul_ui(k, k, 3, MPFR_RNDN);
    mpfr_mul(q, q, k, MPFR_RNDN);
    mpfr_add_ui(q, q, 1, MPFR_RNDN);          /* 1 + 3 kappa x^2 */
    mpfr_mul(d, d, x, MPFR_RNDN);
    mpfr_mul(q, q, d, MPFR_RNDN);             /* P */
    mpfr_add_ui(d, e, 1, MPFR_RNDN);          /* D */
    mpfr_ui_div(t1, 1, d, MPFR_RNDN);         /* T1 */
    mpfr_div(t2, e, d, MPFR_RNDN);
    mpfr_div(t2, t2, d, MPFR_RNDN);           /* e/D^2 without forming D^2 */
    mpfr_mul(t2, t2, q, MPFR_RNDN);
    mpfr_mul_2ui(t2, t2, 1, MPFR_RNDN);       /* T2, exact doubling */
    ok = !(mpfr_overflow_p() || mpfr_underflow_p() || mpfr_inf_p(e) || mpfr_zero_p(e));
    if (ok) {
        mpfr_add(s, t1, t2, MPFR_RNDN);
        /* err = (cT1 |T1'| + cT2 |T2'| + |S|) u_w (1 + 2^-6), rounded up */
        mpfr_abs(err, s, MPFR_RNDU);
        mpfr_set_d(c, c1, MPFR_RNDU);
        mpfr_mul(c, c, t1, MPFR_RNDU);        /* T1' > 0 */
        mpfr_add(err, err, c, MPFR_RNDU);
        mpfr_set_d(c, c2, MPFR_RNDU);
        mpfr_mul(c, c, t2, MPFR_RNDA);
        mpfr_abs(c, c, MPFR_RNDU);
        mpfr_add(err, err, c, MPFR_RNDU);
        mpfr_mul_d(err, err, 1 + 0x1p-6, MPFR_RNDU);
        mpfr_div_2ui(err, err, (unsigned long)w, MPFR_RNDU);
    }
    mpfr_clears(k, q, a, e, d, t1, t2, c, (mpfr_ptr)0);
    return ok;
}
