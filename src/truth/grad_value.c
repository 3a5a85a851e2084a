/* d(x) once per x for the backward truth: the derivative oracle's enclosure
 * s +- err, raised in precision until err <= 2^-61 |s|, then s rounded to a
 * double: |mant 2^exp - s| <= 2^-53 |s|, so
 *   |mant 2^exp - d| <= (2^-53 + 2^-61) |s| + 2^-61 |s| <= 2^-52 |d|
 * (|s| <= |d| (1 + 2^-60)).  Next to the root x0 the sum is tiny and the
 * loop climbs as the derivative oracle's does; no format value is a root.
 * Right of 1, d(x) > 1 (grad_limits.h); once s + err <= 1 + 2^-60 the value
 * is only "just above 1": dy d then rounds to dy for every dy of at most 24
 * bits, which a double of d could not show (it may round to 1 itself). */
#include <math.h>

#include "truth/backward.h"
#include "truth/grad_enclose.h"
#include "truth/ziv.h"

static const struct ga_grad_encloser gelu_grad = {
    ga_gelu_grad_enclose, ga_gelu_grad_first_precision, ga_gelu_grad_tail_vanishes,
};
static const struct ga_grad_encloser gelu_tanh_grad = {
    ga_gelu_tanh_grad_enclose, ga_gelu_tanh_grad_first_precision, ga_gelu_tanh_grad_tail_vanishes,
};

const struct ga_grad_encloser *ga_grad_encloser(enum ga_function fn)
{
    return fn == GA_GELU_GRAD ? &gelu_grad : fn == GA_GELU_TANH_GRAD ? &gelu_tanh_grad : NULL;
}

/* s + err <= 1 + 2^-60, rounded upward. */
static int one_above(mpfr_srcptr s, mpfr_srcptr err)
{
    mpfr_t t;
    int yes;

    mpfr_init2(t, mpfr_get_prec(s) + 64);
    mpfr_add(t, s, err, MPFR_RNDU);
    mpfr_sub_ui(t, t, 1, MPFR_RNDU);
    yes = mpfr_sgn(t) <= 0 || mpfr_get_exp(t) <= -60;  /* t < 2^EXP(t) <= 2^-60 */
    mpfr_clear(t);
    return yes;
}

/* When s is within 2^-20 of 1/2 or 1, set base and delta = s - base,
 * rounded (|s - base| exact: Sterbenz), once err <= 2^-61 |s - base|;
 * returns 0 when that needs more precision. */
static int near_base(mpfr_srcptr s, mpfr_srcptr err, struct ga_grad_value *out)
{
    static const double bases[] = { 0.5, 1.0 };
    int decided = 1;
    mpfr_t d;

    mpfr_init2(d, mpfr_get_prec(s));
    for (int i = 0; i < 2; i++) {
        mpfr_sub_d(d, s, bases[i], MPFR_RNDN);  /* exact */
        if (!mpfr_zero_p(d) && mpfr_get_exp(d) > -20 + (i == 0 ? -1 : 0))
            continue;
        /* d = 0: s is base itself, which d is not (x != 0 is no root of d - base) */
        if (mpfr_zero_p(d) || (long)mpfr_get_exp(d) - (long)mpfr_get_exp(err) < 62) {
            decided = 0;
            break;
        }
        out->base = bases[i];
        out->delta = mpfr_get_d(d, MPFR_RNDN);
    }
    mpfr_clear(d);
    return decided;
}

int ga_grad_limit(double x, struct ga_grad_value *out)
{
    out->exp = 0;
    out->base = out->delta = 0;
    if (isnan(x)) {
        out->kind = GA_GRAD_NAN;
        out->mant = NAN;
        return 1;
    }
    if (!(isinf(x) || x == 0))
        return 0;
    out->kind = GA_GRAD_EXACT;
    if (x == 0) {             /* d(+-0) = 1/2 */
        out->mant = 0.5;
    } else if (x > 0) {       /* d(+inf) = 1 */
        out->mant = 0.5;
        out->exp = 1;
    } else {                  /* d(-inf) = -0 */
        out->mant = -0.0;
    }
    return 1;
}

int ga_grad_value(enum ga_function fn, double xd, struct ga_grad_value *out)
{
    const struct ga_grad_encloser *enc = ga_grad_encloser(fn);
    struct ga_mpfr_range saved;
    int status = GA_TRUTH_UNDECIDED;
    mpfr_prec_t w;
    mpfr_t x, s, err;

    if (ga_grad_limit(xd, out))
        return GA_TRUTH_OK;
    saved = ga_mpfr_widen_range();
    mpfr_inits2(64, x, s, err, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);  /* exact */
    for (w = enc->first_precision(64, xd); w <= GA_ZIV_MAX_PRECISION; w += w / 2) {
        if (!enc->enclose(x, xd, w, s, err)) {
            if (enc->tail_vanishes(x)) {
                out->kind = xd < 0 ? GA_GRAD_VANISHING : GA_GRAD_ONE_ABOVE;
                out->mant = xd < 0 ? -0.5 : 0.5;
                out->exp = xd < 0 ? GA_EXACT_EXP_MIN : 1;
                out->base = out->delta = 0;
                status = GA_TRUTH_OK;
                break;
            }
            continue;
        }
        if (xd >= 1 && one_above(s, err)) {
            out->kind = GA_GRAD_ONE_ABOVE;
            out->mant = 0.5;
            out->exp = 1;
            out->base = out->delta = 0;
            status = GA_TRUTH_OK;
            break;
        }
        /* err < 2^EXP(err) and |s| >= 2^(EXP(s)-1): err <= 2^-61 |s| */
        if (mpfr_regular_p(s) && (mpfr_zero_p(err)
                                  || (long)mpfr_get_exp(s) - (long)mpfr_get_exp(err) >= 62)) {
            long e;
            double m = mpfr_get_d_2exp(&e, s, MPFR_RNDN);
            if (m == 1.0 || m == -1.0) {  /* rounding carried into the next binade */
                m /= 2;
                e += 1;
            }
            out->kind = GA_GRAD_APPROX;
            out->mant = m;
            out->exp = e;
            out->base = out->delta = 0;
            if (!near_base(s, err, out))
                continue;  /* d - base not yet to 2^-61 */
            status = GA_TRUTH_OK;
            break;
        }
    }
    mpfr_clears(x, s, err, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return status;
}
