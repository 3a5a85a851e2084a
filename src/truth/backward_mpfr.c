/* RN_F(dy * d(x)) by MPFR alone: the derivative oracle's enclosure
 * |s - d| <= err at precision w, multiplied by dy exactly (dy has at most 24
 * significant bits; the product is kept at w + 64 bits), so
 *   |s dy - dy d| <= err |dy|,
 * and Ziv's test on that absolute bound (ga_ziv_decide_within) rounds it into
 * F, subnormals and overflow included, raising w until it decides.  dy = +-0,
 * +-inf and NaN need only d's sign, proved once |s| > err.  No step uses
 * grad_value.c's double, so this checks the fast path.  Where s rounds to 1
 * (x >= 1, d - 1 below 2^-w), the product s dy is dy itself; that d > 1
 * (grad_limits.h), times dy, gives the side (the bounds handed to Ziv). */
#include <math.h>

#include "truth/backward.h"
#include "truth/grad_enclose.h"
#include "truth/grad_limits.h"
#include "truth/ziv.h"

int ga_backward_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits x, ga_bits dy,
                     struct ga_truth *out)
{
    const struct ga_grad_encloser *enc = ga_grad_encloser(fn);
    double xd = ga_decode(f, x), dyd = ga_decode(f, dy);
    struct ga_grad_value g = { GA_GRAD_NAN, 0, 0, 0, 0 };
    struct ga_mpfr_range saved;
    int status = GA_TRUTH_UNDECIDED;
    mpfr_prec_t w;
    double lower, upper;
    mpfr_t xm, s, err, p, perr, dym;

    if (ga_grad_limit(xd, &g))
        return ga_backward_special(f, &g, dy, out) ? GA_TRUTH_OK : GA_TRUTH_UNDECIDED;
    ga_grad_bounds(xd, &lower, &upper);
    if (dyd < 0) {  /* d in (lower, upper): dy d in (dy upper, dy lower) */
        double t = lower;
        lower = dyd * upper;
        upper = dyd * t;
    } else {
        lower *= dyd;
        upper *= dyd;
    }
    saved = ga_mpfr_widen_range();
    mpfr_inits2(64, xm, s, err, p, perr, dym, (mpfr_ptr)0);
    mpfr_set_d(xm, xd, MPFR_RNDN);   /* exact */
    mpfr_set_d(dym, dyd, MPFR_RNDN); /* exact */
    for (w = enc->first_precision(64, xd); w <= GA_ZIV_MAX_PRECISION; w += w / 2) {
        if (!enc->enclose(xm, xd, w, s, err)) {
            if (enc->tail_vanishes(xm)) {
                g.kind = xd < 0 ? GA_GRAD_VANISHING : GA_GRAD_ONE_ABOVE;
                g.mant = xd < 0 ? -0.5 : 0.5;
                status = ga_backward_special(f, &g, dy, out) ? GA_TRUTH_OK : GA_TRUTH_UNDECIDED;
                break;
            }
            continue;
        }
        if (!isfinite(dyd) || dyd == 0) {
            if (mpfr_cmpabs(s, err) > 0) {       /* d's sign is s's */
                g.kind = GA_GRAD_APPROX;
                g.mant = mpfr_sgn(s) < 0 ? -0.5 : 0.5;
                status = ga_backward_special(f, &g, dy, out) ? GA_TRUTH_OK : GA_TRUTH_UNDECIDED;
                break;
            }
            continue;
        }
        mpfr_set_prec(p, w + 64);
        mpfr_mul(p, s, dym, MPFR_RNDN);          /* exact: w + 24 bits suffice */
        mpfr_mul(perr, err, dym, MPFR_RNDU);
        mpfr_abs(perr, perr, MPFR_RNDU);
        if (ga_ziv_decide_within(f, p, perr, lower, upper, out)) {
            out->exact = ga_exact_from_mpfr(p);
            status = GA_TRUTH_OK;
            break;
        }
    }
    mpfr_clears(xm, s, err, p, perr, dym, (mpfr_ptr)0);
    ga_mpfr_restore_range(saved);
    return status;
}
