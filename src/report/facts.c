/* The facts about GELU (report/facts.h).  Minima: bisection over doubles on
 * the certified sign of the derivative (truth/grad_sign.h).  Largest
 * differences: a scan of [1/64, 12] by 1/64, then golden-section search
 * around the largest, comparing values computed at 192 bits (each below
 * 2^-180 relative error by the analyses of doc/oracle.md, orders of
 * magnitude below what the comparisons resolve).  Where the truth is -0:
 * report/facts_zero.c. */
#include "report/facts.h"

#include <math.h>
#include <mpfr.h>

#include "formats/round_mpfr.h"
#include "truth/grad_sign.h"

#define PRECISION 192

enum curve { GELU, TANH, QUICK };

/* f(x) at PRECISION bits: gelu = (x/2) erfc(-x/sqrt2), the tanh form
 * x/(1 + e^(-2u)), quick x/(1 + e^(-1.702 x)). */
static void evaluate(enum curve c, double xd, mpfr_ptr r)
{
    mpfr_t x, t, k;

    mpfr_inits2(PRECISION, x, t, k, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);
    if (c == GELU) {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, x, t, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_erfc(t, t, MPFR_RNDN);
        mpfr_mul(r, t, x, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
        mpfr_clears(x, t, k, (mpfr_ptr)0);
        return;
    }
    if (c == TANH) {
        mpfr_set_ui(k, 44715, MPFR_RNDN);
        mpfr_div_ui(k, k, 1000000, MPFR_RNDN);
        mpfr_pow_ui(t, x, 3, MPFR_RNDN);
        mpfr_mul(t, t, k, MPFR_RNDN);
        mpfr_add(t, t, x, MPFR_RNDN);
        mpfr_const_pi(k, MPFR_RNDN);
        mpfr_ui_div(k, 2, k, MPFR_RNDN);
        mpfr_sqrt(k, k, MPFR_RNDN);
        mpfr_mul(t, t, k, MPFR_RNDN);
        mpfr_mul_si(t, t, -2, MPFR_RNDN);     /* -2u */
    } else {
        mpfr_mul_ui(t, x, 1702, MPFR_RNDN);
        mpfr_div_si(t, t, -1000, MPFR_RNDN);  /* -1.702 x, 1.702 exact */
    }
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_div(r, x, t, MPFR_RNDN);
    mpfr_clears(x, t, k, (mpfr_ptr)0);
}

/* |approx(x) - gelu(x)| into r. */
static void distance(enum curve approx, double x, mpfr_ptr r)
{
    mpfr_t g;

    mpfr_init2(g, PRECISION);
    evaluate(approx, x, r);
    evaluate(GELU, x, g);
    mpfr_sub(r, r, g, MPFR_RNDN);
    mpfr_abs(r, r, MPFR_RNDN);
    mpfr_clear(g);
}

/* v rounded into every format, certified: f(x0) lies within 0.22 (hi - lo)^2
 * < 2^-100 of v (below the bracket's 2^-53 width) plus v's own error below
 * 2^-180, so when v - 2^-100 and v + 2^-100 round alike, f(x0) rounds so. */
static int round_everywhere(mpfr_srcptr v, ga_bits rounded[GA_FORMAT_COUNT][GA_FUNCTION_COUNT],
                            enum ga_function fn)
{
    mpfr_t below, above;
    int status = 0;

    mpfr_inits2(PRECISION, below, above, (mpfr_ptr)0);
    mpfr_sub_d(below, v, 0x1p-100, MPFR_RNDD);
    mpfr_add_d(above, v, 0x1p-100, MPFR_RNDU);
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        rounded[id][fn] = ga_round_mpfr(f, v);
        if (ga_round_mpfr(f, below) != rounded[id][fn] || ga_round_mpfr(f, above) != rounded[id][fn])
            status = -1;
    }
    mpfr_clears(below, above, (mpfr_ptr)0);
    return status;
}

static int minimum(enum ga_function derivative, enum curve c, struct ga_fact_minimum *m,
                   ga_bits rounded[GA_FORMAT_COUNT][GA_FUNCTION_COUNT])
{
    int status;

    double lo = -0.76, hi = -0.74;
    mpfr_t v;

    if (ga_grad_sign(derivative, lo, PRECISION) >= 0 || ga_grad_sign(derivative, hi, PRECISION) <= 0)
        return -1;
    for (;;) {
        double mid = lo + (hi - lo) / 2;
        int s;
        if (mid <= lo || mid >= hi)
            break;  /* adjacent doubles */
        s = ga_grad_sign(derivative, mid, PRECISION);
        if (s == 0)
            break;  /* the root is closer than the precision resolves */
        if (s < 0)
            lo = mid;
        else
            hi = mid;
    }
    mpfr_init2(v, PRECISION);
    evaluate(c, hi, v);
    m->lo = lo;
    m->hi = hi;
    m->value = mpfr_get_d(v, MPFR_RNDN);
    status = hi - lo <= 0x1p-52 ? round_everywhere(v, rounded, c == GELU ? GA_GELU : GA_GELU_TANH)
                                : -1;
    mpfr_clear(v);
    return status;
}

static void largest_difference(enum curve approx, struct ga_fact_largest_difference *d)
{
    const double step = 1.0 / 64;
    const double phi = (sqrt(5.0) - 1) / 2;  /* golden ratio conjugate */
    double best_x = step, a, b, c1, c2;
    mpfr_t best, v, v1, v2;

    mpfr_inits2(PRECISION, best, v, v1, v2, (mpfr_ptr)0);
    distance(approx, best_x, best);
    for (double x = 2 * step; x <= 12; x += step) {  /* exact multiples of 2^-6 */
        distance(approx, x, v);
        if (mpfr_cmp(v, best) > 0) {
            mpfr_set(best, v, MPFR_RNDN);
            best_x = x;
        }
    }
    /* the largest lies within one step of best_x, where |diff| is unimodal */
    a = best_x - step;
    b = best_x + step;
    c1 = b - phi * (b - a);
    c2 = a + phi * (b - a);
    distance(approx, c1, v1);
    distance(approx, c2, v2);
    while (b - a > 4 * (nextafter(b, INFINITY) - b)) {
        if (mpfr_cmp(v1, v2) < 0) {  /* the maximum lies in [c1, b] */
            a = c1;
            c1 = c2;
            mpfr_set(v1, v2, MPFR_RNDN);
            c2 = a + phi * (b - a);
            distance(approx, c2, v2);
        } else {
            b = c2;
            c2 = c1;
            mpfr_set(v2, v1, MPFR_RNDN);
            c1 = b - phi * (b - a);
            distance(approx, c1, v1);
        }
    }
    d->x = (a + b) / 2;
    evaluate(approx, d->x, v);
    evaluate(GELU, d->x, v1);
    mpfr_sub(v, v, v1, MPFR_RNDN);
    d->diff = mpfr_get_d(v, MPFR_RNDN);
    mpfr_clears(best, v, v1, v2, (mpfr_ptr)0);
}

int ga_facts_compute(struct ga_facts *out)
{
    if (minimum(GA_GELU_GRAD, GELU, &out->gelu_minimum, out->minimum_rounded) != 0
        || minimum(GA_GELU_TANH_GRAD, TANH, &out->tanh_minimum, out->minimum_rounded) != 0)
        return -1;
    largest_difference(TANH, &out->tanh_difference);
    largest_difference(QUICK, &out->quick_difference);
    return ga_facts_zero_sets(out);
}
