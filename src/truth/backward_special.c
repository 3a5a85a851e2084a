/* The backward truth's special cases.  Each result follows from IEEE rules
 * on the exact product dy * d(x), with d's sign and limits (backward.h). */
#include "truth/backward.h"

#include <math.h>

#include "truth/ziv.h"

static struct ga_exact exact_of(double v)
{
    struct ga_exact e = { v, 0 };
    int k;

    if (v != 0 && isfinite(v)) {
        e.mant = frexp(v, &k);
        e.exp = k;
    }
    return e;
}

/* A result known exactly as the double v (every format value, times 1/2 or 1). */
static void from_exact_double(const struct ga_format *f, double v, struct ga_truth *out)
{
    double r;

    out->rounded = ga_encode(f, v);  /* correctly rounded from the exact double */
    r = ga_decode(f, out->rounded);
    out->direction = (int8_t)(v > r ? 1 : v < r ? -1 : 0);
    out->exact = exact_of(v);
}

int ga_backward_special(const struct ga_format *f, const struct ga_grad_value *g, ga_bits dy,
                        struct ga_truth *out)
{
    double dyd = ga_decode(f, dy);
    bool g_negative = g->kind == GA_GRAD_VANISHING || signbit(g->mant);
    bool g_zero = g->kind == GA_GRAD_EXACT && g->mant == 0;
    bool negative = g_negative != (signbit(dyd) != 0);

    if (g->kind == GA_GRAD_NAN || isnan(dyd)) {  /* NaN operand */
        out->rounded = ga_quiet_nan(f);
        out->direction = 0;
        out->exact = exact_of(NAN);
        return 1;
    }
    if (isinf(dyd)) {                            /* -0 * inf = NaN, else +-inf */
        if (g_zero) {
            out->rounded = ga_quiet_nan(f);
            out->exact = exact_of(NAN);
        } else {
            out->rounded = ga_infinity(f, negative);
            out->exact = exact_of(negative ? -INFINITY : INFINITY);
        }
        out->direction = 0;
        return 1;
    }
    if (dyd == 0 || g_zero) {                    /* a zero product, signs multiplied */
        out->rounded = ga_zero(f, negative);
        out->direction = 0;
        out->exact = exact_of(negative ? -0.0 : 0.0);
        return 1;
    }
    switch (g->kind) {
    case GA_GRAD_EXACT:                          /* dy/2 or dy: exact in a double */
        from_exact_double(f, dyd * ldexp(g->mant, (int)g->exp), out);
        return 1;
    case GA_GRAD_VANISHING:                      /* |dy d| < 2^128 2^GA_EXACT_EXP_MIN */
        ga_truth_vanishing(f, negative, out);
        return 1;
    case GA_GRAD_ONE_ABOVE:                      /* dy (1 + t), 0 < t < 2^-60: below half an ulp */
        out->rounded = dy;
        out->direction = (int8_t)(dyd > 0 ? 1 : -1);
        out->exact = exact_of(dyd);
        return 1;
    default:
        return 0;
    }
}
