/* The tanh form, correctly rounded by MPFR, with sqrt(2/pi) and 0.044715
 * taken as exact reals:
 *   gelu_tanh(x) = (x/2)(1 + tanh(u)),  u = sqrt(2/pi)(x + 0.044715 x^3).
 * 1 + tanh(u) cancels for negative u; the identity 1 + tanh(u) = 2/(1 + e^(-2u))
 * gives gelu_tanh(x) = x / (1 + e^(-2u)), a quotient of terms without
 * cancellation (x and 0.044715 x^3 share a sign; 1 + e^(-2u) adds positives).
 *
 * Error analysis at working precision w, u_w = 2^-w, round to nearest:
 *   kappa = 44715/10^6              1 rounding
 *   x^3, kappa x^3, x + kappa x^3   4 roundings (x^3 takes two; a sum of
 *                                   same-signed terms keeps the larger
 *                                   relative error, plus one)
 *   beta = sqrt(2/pi)               3 roundings (pi, 2/pi, sqrt)
 *   u' = beta * a                   u' = u(1 + d), |d| <= 9.1 u_w
 *   e = exp(-2u')                   e = e^(-2u) e^(-2u d)(1 + t): exp's condition
 *                                   number is |2u|, so the factor is below
 *                                   1 + 18.4 |u| u_w while that is below 2^-6
 *   D = 1 + e, R = x / D            2 roundings; 1 + e adds positives
 * Relative error of R <= (18.4 |u| + 3.1) u_w <= 2^(5 + ceil(log2(|u| + 2)) - w).
 * An exp that underflows MPFR's range (u huge and positive) errs by less than
 * 2^emin_min in D, far below u_w.
 *
 * In the left tail e^(-2u) may overflow MPFR's widest range; a lower bound of
 * -2u computed with directed rounding then certifies a vanishing result.
 * Step by step: doc/oracle.md, 'MPFR oracle for the tanh form'. */
#include <math.h>

#include "truth/gelu_oracles.h"
#include "truth/ziv.h"

/* 1 when |gelu_tanh(x)| < 2^GA_EXACT_EXP_MIN is proved for x < 0:
 * |x| / (1 + e^(2|u|)) with |u| bounded below by rounding every step down. */
static int left_tail_vanishes(mpfr_srcptr x)
{
    mpfr_t ax, a, t, beta;
    int vanishes;

    mpfr_inits2(64, ax, a, t, beta, (mpfr_ptr)0);
    mpfr_abs(ax, x, MPFR_RNDN);
    mpfr_const_pi(t, MPFR_RNDU);
    mpfr_ui_div(beta, 2, t, MPFR_RNDD);
    mpfr_sqrt(beta, beta, MPFR_RNDD);                /* beta_lo <= sqrt(2/pi) */
    mpfr_pow_ui(a, ax, 3, MPFR_RNDD);
    mpfr_mul_ui(a, a, 44715, MPFR_RNDD);
    mpfr_div_ui(a, a, 1000000, MPFR_RNDD);
    mpfr_add(a, a, ax, MPFR_RNDD);
    mpfr_mul(a, a, beta, MPFR_RNDD);                 /* a <= |u| */
    mpfr_mul_2ui(a, a, 1, MPFR_RNDD);
    mpfr_exp(t, a, MPFR_RNDD);                       /* t <= e^(2|u|) */
    mpfr_div(t, ax, t, MPFR_RNDU);                   /* >= |x| / e^(2|u|) */
    vanishes = mpfr_zero_p(t) || mpfr_get_exp(t) < GA_EXACT_EXP_MIN;
    mpfr_clears(ax, a, t, beta, (mpfr_ptr)0);
    return vanishes;
}

int ga_gelu_tanh_mpfr(const struct ga_format *f, ga_bits bits, struct ga_truth *out)
{
    double xd = ga_decode(f, bits);
    /* |u| <= 0.8 |x| + 0.036 |x|^3, bounded generously from the double */
    double u_bound = 0.8 * fabs(xd) + 0.036 * fabs(xd) * xd * xd;
    long amplification = 5 + ga_ceil_log2(u_bound * 1.01 + 2);
    double lower, upper;
    struct ga_mpfr_range saved;
    mpfr_prec_t w;
    int status = GA_TRUTH_UNDECIDED;
    mpfr_t x, a, t, r;

    if (ga_truth_special(f, bits, out) || ga_truth_identity(f, bits, out))
        return GA_TRUTH_OK;

    ga_truth_bounds(xd, &lower, &upper);
    saved = ga_mpfr_widen_range();
    mpfr_init2(x, 64);
    mpfr_set_d(x, xd, MPFR_RNDN);  /* exact */
    /* a float64 input so large that the bound on the amplification overflows
     * a double: no precision fits it, and only the left tail's bound answers */
    if (64 + amplification > GA_ZIV_MAX_PRECISION && xd < 0 && left_tail_vanishes(x)) {
        ga_truth_vanishing(f, true, out);
        status = GA_TRUTH_OK;
    }
    mpfr_inits2(64, a, t, r, (mpfr_ptr)0);
    for (w = ga_ziv_first_bits(f) + amplification; status != GA_TRUTH_OK && w <= GA_ZIV_MAX_PRECISION; w += w / 2) {
        long k = w - amplification;

        mpfr_set_prec(a, w);
        mpfr_set_prec(t, w);
        mpfr_set_prec(r, w);
        mpfr_clear_overflow();
        mpfr_set_ui(t, 44715, MPFR_RNDN);
        mpfr_div_ui(t, t, 1000000, MPFR_RNDN);   /* kappa */
        mpfr_sqr(a, x, MPFR_RNDN);
        mpfr_mul(a, a, x, MPFR_RNDN);
        mpfr_mul(a, a, t, MPFR_RNDN);
        mpfr_add(a, a, x, MPFR_RNDN);            /* x + kappa x^3 */
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_ui_div(t, 2, t, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);              /* beta */
        mpfr_mul(a, a, t, MPFR_RNDN);            /* u */
        mpfr_mul_si(a, a, -2, MPFR_RNDN);        /* exact */
        mpfr_exp(t, a, MPFR_RNDN);
        if (mpfr_overflow_p() || mpfr_inf_p(t)) {
            if (xd < 0 && left_tail_vanishes(x)) {
                ga_truth_vanishing(f, true, out);
                status = GA_TRUTH_OK;
                break;
            }
            continue;
        }
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_div(r, x, t, MPFR_RNDN);
        if (k >= ga_ziv_exact_bits(f) && ga_ziv_decide(f, r, k, lower, upper, out)) {
            ga_truth_set_exact(f, r, out);
            status = GA_TRUTH_OK;
            break;
        }
    }
    mpfr_clears(x, a, t, r, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return status;
}
