/* Error measures of one output: ulp, relative and absolute error, ordinal
 * distance, and the flags a sweep counts.  Definitions in error.h. */
#include "grade/error.h"

#include <math.h>
#include <string.h>

void ga_format_layout_init(struct ga_format_layout *c, const struct ga_format *f)
{
    memset(c, 0, sizeof *c);
    c->format = f;
    c->mbits = ga_mantissa_bits(f);
    c->emin = f->emin;
    c->emax = f->emax;
    c->precision = f->precision;
    c->sign_mask = ga_sign_mask(f);
    c->inf_magnitude = ga_finite_end(f);
    c->nan_magnitude = ga_nan_from(f);
    c->bias = ga_exponent_bias(f);
    c->min_normal = (ga_bits)1 << c->mbits;
    c->ulp_exp_min = f->emin - f->precision + 1;
    c->subnormal_unit = ldexp(1.0, c->ulp_exp_min);
    c->two_p = ldexp(1.0, f->precision);
    c->value_shift = 52 - c->mbits;
    c->sign_shift = 64 - f->bits;
    c->value_bias = (uint64_t)(1023 - c->bias) << 52;
    c->inline_exp_span = (f->emax + 1 < 1022 ? f->emax + 1 : 1022) - f->emin;
}

/* 2^k, exact; built from its bits inside the normal double range. */
static inline double pow2(long k)
{
    if (k >= -1022 && k <= 1023)
        return ga_error_from_bits((uint64_t)(k + 1023) << 52);
    return ldexp(1.0, k < -1100 ? -1100 : k > 1100 ? 1100 : (int)k);
}

static void set_all(struct ga_error *out, double v)
{
    out->ulp = out->rel = out->abs = v;
}

void ga_error_compute_general(const struct ga_format_layout *c, ga_bits y, const struct ga_truth *t,
                              struct ga_error *out)
{
    ga_bits ymag = y & ~c->sign_mask;
    ga_bits r = t->rounded;
    ga_bits rmag = r & ~c->sign_mask;
    double mant = t->exact.mant;
    bool y_nan = ymag >= c->nan_magnitude;
    bool y_inf = ymag == c->inf_magnitude && !y_nan;
    unsigned flags = 0;

    if (y == r || (y_nan && rmag >= c->nan_magnitude))
        flags = GA_ERR_CORRECT | GA_ERR_FAITHFUL;

    /* Truth NaN: nothing to measure; a number there is flagged. */
    if (isnan(mant) || rmag >= c->nan_magnitude) {
        out->flags = y_nan ? flags : flags | GA_ERR_NOT_NAN;
        out->distance = UINT64_MAX;
        set_all(out, NAN);
        return;
    }
    if (y_nan) {
        out->flags = flags | GA_ERR_NAN;
        out->distance = UINT64_MAX;
        set_all(out, NAN);
        return;
    }
    out->distance = ga_error_distance(c, y, r);
    if (ymag == 0 && rmag != 0)
        flags |= GA_ERR_FLUSHED;
    if (ymag == 0 && rmag == 0 && y != r)
        flags |= GA_ERR_ZERO_SIGN;
    if (y_inf && rmag != c->inf_magnitude)
        flags |= GA_ERR_INF;

    if (isinf(mant)) {
        /* f = +-inf is representable: only itself is faithful. */
        set_all(out, flags & GA_ERR_CORRECT ? 0.0 : INFINITY);
    } else if (mant == 0.0) {
        /* f = +-0: the ulp is the subnormal one; only +-0 itself is faithful. */
        double ys = y_inf ? INFINITY : ga_error_value(c, ymag);
        out->ulp = ldexp(ys, -c->ulp_exp_min);  /* exact; 2^1074 alone would overflow */
        out->abs = ys;
        out->rel = ys == 0.0 ? 0.0 : INFINITY;
    } else {
        long E = ga_error_binade(c, t);  /* |f| in [2^(E-1), 2^E), certified */
        long e = E - 1;
        long u = (e < c->emin ? c->emin : e) - c->precision + 1;  /* ulp(f) = 2^u */
        long k = t->exact.exp - u;       /* <= p + 1 */
        double ys = ga_error_value(c, y);
        /* exact: y is a multiple of the subnormal ulp (ldexp where 2^-u
         * is not a double: float64's u = -1074) */
        double yv = -u >= -1022 && -u <= 1023 ? ys * pow2(-u) : ldexp(ys, (int)-u);
        if (k >= GA_ERROR_TINY_SCALE_EXP) {
            double mv = mant * pow2(k);  /* exact */
            /* yv - mv is exact near f (Sterbenz), so the tail counts */
            double d = fabs((yv - mv) - (double)t->tail * pow2(k));
            out->ulp = d;
            out->abs = d * pow2(u);
            out->rel = d / fabs(mv);
        } else {
            /* f is below 2^-1000 ulp: it vanishes next to any output but 0. */
            out->ulp = fabs(yv);
            out->abs = fabs(ys);
            if (ys == 0.0) {
                out->rel = 1.0;
            } else {
                long s = -t->exact.exp;
                out->rel = ldexp(fabs(ys) / fabs(mant), s > 4000 ? 4000 : (int)s);
            }
        }
        if (y_inf)  /* an overflow: the correctly rounded infinity is no error */
            set_all(out, flags & GA_ERR_CORRECT ? 0.0 : INFINITY);
    }
    if (!(flags & GA_ERR_CORRECT) && t->direction != 0 && y == ga_error_bracket(c, t))
        flags |= GA_ERR_FAITHFUL;
    out->flags = flags;
}

void ga_error_measure(const struct ga_format *f, ga_bits y, const struct ga_truth *t,
                      struct ga_error *out)
{
    struct ga_format_layout c;
    ga_format_layout_init(&c, f);
    ga_error_compute(&c, y, t, out);
}
