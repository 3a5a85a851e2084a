/* Exact GELU, correctly rounded by MPFR:  gelu(x) = (x/2) * erfc(-x/sqrt(2)).
 *
 * Error analysis at working precision w, u = 2^-w, every operation rounded
 * to nearest (relative error <= u each):
 *   s = sqrt(2)                     s = sqrt(2)(1 + t1)
 *   z' = -x / s                     z' = z(1 + eta),  |eta| <= 2.01u,  z = -x/sqrt(2)
 *   E = erfc(z')                    E = erfc(z')(1 + t3)
 *   R = x * E / 2                   one more rounding (the halving is exact)
 * erfc amplifies eta: |d ln erfc(t)/dt| < 2|t| + 1.42 for all real t (from
 * erfc(t) > 2 exp(-t^2) / (sqrt(pi) (t + sqrt(t^2 + 2))) for t >= 0, A&S 7.1.13),
 * so |ln erfc(z') - ln erfc(z)| <= (2|z|(1 + eta) + 1.42) |z| eta
 * <= (3.05 x^2 + 1.03) u, and with the two roundings the relative error of R is
 * below (3.2 x^2 + 3.2) u <= 2^(2 + ceil(log2(x^2 + 2)) - w) as long as that is
 * below 2^-4 (enforced by requiring k >= 53 below).
 *
 * In the left tail erfc(z') may underflow even MPFR's widest exponent range
 * (bfloat16 inputs reach -3.4e38).  Then an upper bound computed with directed
 * rounding, erfc(z_lo) rounded up with z_lo <= z, certifies that |gelu(x)| is
 * below 2^(emin_min + 128): a zero of the sign of x in every format.
 * Step by step: doc/oracle.md, 'MPFR oracle for exact GELU'. */
#include <math.h>

#include "truth/gelu_oracles.h"
#include "truth/ziv.h"

/* 1 when |gelu(x)| < 2^GA_EXACT_EXP_MIN is proved for x < 0. */
static int left_tail_vanishes(mpfr_srcptr x)
{
    mpfr_t sqrt2_up, z_lo, bound;
    int vanishes;

    mpfr_inits2(64, sqrt2_up, z_lo, bound, (mpfr_ptr)0);
    mpfr_sqrt_ui(sqrt2_up, 2, MPFR_RNDU);
    mpfr_div(z_lo, x, sqrt2_up, MPFR_RNDU);   /* x/sqrt2 rounded up: -z_lo */
    mpfr_neg(z_lo, z_lo, MPFR_RNDN);          /* z_lo <= -x/sqrt(2) */
    mpfr_erfc(bound, z_lo, MPFR_RNDU);        /* erfc decreasing: erfc(z) <= bound */
    mpfr_mul(bound, bound, x, MPFR_RNDA);     /* |x| erfc(z) <= |bound| */
    vanishes = mpfr_zero_p(bound)
            || mpfr_get_exp(bound) < GA_EXACT_EXP_MIN;
    mpfr_clears(sqrt2_up, z_lo, bound, (mpfr_ptr)0);
    return vanishes;
}

int ga_gelu_mpfr(const struct ga_format *f, ga_bits bits, struct ga_truth *out)
{
    return ga_truth_cast(f, bits, f, ga_default_overflow(f), out);
}

/* The input is decoded from in; only the final rounding (into f, under o)
 * depends on the output format, so the error bound below holds for both. */
int ga_truth_cast(const struct ga_format *in, ga_bits bits, const struct ga_format *f,
                  enum ga_overflow o, struct ga_truth *out)
{
    double xd = ga_decode(in, bits);
    /* (3.2 x^2 + 3.2) u <= 2^(2 + ceil(log2(x^2 + 2))) u */
    long amplification = 2 + ga_ceil_log2(xd * xd + 2);
    double lower, upper;
    struct ga_mpfr_range saved;
    mpfr_prec_t w;
    int status = GA_TRUTH_UNDECIDED;
    mpfr_t x, z, r;

    if (ga_truth_special_cast(in, bits, f, o, out)
        || (in == f && ga_truth_identity(f, bits, out)))
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
    mpfr_inits2(64, z, r, (mpfr_ptr)0);
    for (w = ga_ziv_first_bits(f) + amplification; status != GA_TRUTH_OK && w <= GA_ZIV_MAX_PRECISION; w += w / 2) {
        long k = w - amplification;

        mpfr_set_prec(z, w);
        mpfr_set_prec(r, w);
        mpfr_clear_underflow();
        mpfr_sqrt_ui(z, 2, MPFR_RNDN);
        mpfr_div(z, x, z, MPFR_RNDN);
        mpfr_neg(z, z, MPFR_RNDN);
        mpfr_erfc(r, z, MPFR_RNDN);
        if (mpfr_underflow_p() || mpfr_zero_p(r)) {
            if (xd < 0 && left_tail_vanishes(x)) {
                ga_truth_vanishing(f, true, out);
                status = GA_TRUTH_OK;
                break;
            }
            continue;
        }
        mpfr_mul(r, r, x, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
        if (k >= ga_ziv_exact_bits(f) && ga_ziv_decide_overflow(f, o, r, k, lower, upper, out)) {
            ga_truth_set_exact(f, r, out);
            status = GA_TRUTH_OK;
            break;
        }
    }
    mpfr_clears(x, z, r, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return status;
}
