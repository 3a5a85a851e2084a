/* The derivatives' MPFR oracle: one Ziv loop for gelu' and the tanh form's
 * derivative, over the enclosure each file derives (gelu_grad_mpfr.c,
 * gelu_tanh_grad_mpfr.c: grad_enclose.h).  The enclosure bounds the error
 * absolutely, term by term; ga_ziv_decide_within turns it into a decision
 * through the computed sum, so next to the root x0 the precision climbs.
 * Far out, where a term leaves MPFR's widest range, the tail bound certifies
 * -0 (left) or 1 from above (right); beyond 2^32 in magnitude it is asked
 * first, as the enclosure's coefficients (some x^2) would overflow a double
 * beyond 1e154 and the bound always holds there (x^2/2 > 2^63: exp(-x^2/2)
 * lies below MPFR's smallest exponent). */
#include <math.h>

#include "truth/gelu_oracles.h"
#include "truth/grad_enclose.h"
#include "truth/grad_limits.h"
#include "truth/grad_sign.h"
#include "truth/ziv.h"

/* The limit a vanishing tail rounds to. */
static void tail_result(const struct ga_format *f, double xd, struct ga_truth *out)
{
    if (xd < 0)
        ga_truth_vanishing(f, true, out);
    else
        ga_grad_one_from_above(f, out);
}

/* The loop, in the widened range, x = xd exactly. */
static int decide(const struct ga_grad_encloser *enc, const struct ga_format *f, mpfr_srcptr x,
                  double xd, struct ga_truth *out)
{
    double lower, upper;
    int status = GA_TRUTH_UNDECIDED;
    mpfr_t s, err;

    if (fabs(xd) >= 0x1p32 && enc->tail_vanishes(x)) {
        tail_result(f, xd, out);
        return GA_TRUTH_OK;
    }
    ga_grad_bounds(xd, &lower, &upper);
    mpfr_init2(s, 64);
    mpfr_init2(err, 64);
    for (mpfr_prec_t w = enc->first_precision(ga_ziv_first_bits(f), xd); w <= GA_ZIV_MAX_PRECISION;
         w += w / 2) {
        if (!enc->enclose(x, xd, w, s, err)) {
            if (enc->tail_vanishes(x)) {
                tail_result(f, xd, out);
                status = GA_TRUTH_OK;
                break;
            }
            continue;
        }
        if (ga_ziv_decide_within(f, s, err, lower, upper, out)) {
            ga_truth_set_exact(f, s, out);
            status = GA_TRUTH_OK;
            break;
        }
    }
    mpfr_clears(s, err, (mpfr_ptr)0);
    return status;
}

int ga_grad_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits bits,
                 struct ga_truth *out)
{
    double xd = ga_decode(f, bits);
    struct ga_mpfr_range saved;
    int status;
    mpfr_t x;

    if (ga_grad_special(f, bits, out))
        return GA_TRUTH_OK;
    saved = ga_mpfr_widen_range();
    mpfr_init2(x, 64);
    mpfr_set_d(x, xd, MPFR_RNDN);  /* exact */
    status = decide(ga_grad_encloser(fn), f, x, xd, out);
    mpfr_clear(x);
    ga_mpfr_restore_range(saved);
    return status;
}

int ga_grad_sign(enum ga_function fn, double xd, long precision)
{
    const struct ga_grad_encloser *enc = ga_grad_encloser(fn);
    struct ga_mpfr_range saved = ga_mpfr_widen_range();
    int sign = 0;
    mpfr_t x, s, err;

    mpfr_inits2(64, x, s, err, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);  /* exact */
    if (precision < enc->first_precision(64, xd))
        precision = enc->first_precision(64, xd);
    if (enc->enclose(x, xd, precision, s, err) && mpfr_cmpabs(s, err) > 0)
        sign = mpfr_sgn(s);
    mpfr_clears(x, s, err, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return sign;
}
