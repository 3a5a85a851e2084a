/* The fast paths of the derivatives gelu' and the tanh form's (fast.h),
 * for float32, float16 and bfloat16.  Three regions are decided without
 * evaluating, by facts proved in doc/oracle.md ('The fast derivatives'):
 *
 *   x >= 8: 1 < d(x) < 1 + 2^-44 (d - 1 < x phi(x), resp. (2 + 2|P|)e^(-2|w|),
 *       decreasing from x = 1 on): d rounds to 1, from above;
 *   x below the double evaluations' range (-36, -20): |d(x)| < 2^-850,
 *       below half of every covered format's smallest subnormal: -0, d < 0
 *       lying below it;
 *   |x| <= 2^-(p+1) for x > 0, 2^-(p+2) for x < 0 (p: the precision):
 *       |d - 1/2| < beta |x| (1 + 2 kappa x^2) lies within half an ulp of
 *       1/2 on x's side: 1/2, d on x's side of it.
 *
 * Elsewhere d is evaluated in double with an absolute bound (fast_eval.c),
 * decided when the bound allows a result within GA_FAST_EXACT_REL_ERR and
 * the interval rounds to one encoding; next to the root x0 it does not, and
 * MPFR answers.  Zeros, infinities and NaN go to MPFR too (grad_limits.c). */
#include <math.h>

#include "truth/fast_internal.h"

/* Where the first region begins (both derivatives). */
#define ONE_FROM 8.0

/* Up to this |x| the exact value in the tiny region is 1/2 + beta x: the
 * terms in x^3 (beta/3 and 2 beta kappa - 2 beta^3/3 times x^3, both below
 * 0.27 |x|^3) are then below 2^-61 relative to 1/2. */
#define TINY_LINEAR_UP_TO 0x1p-20

/* A decision's exact value must be this close to d (GA_FAST_EXACT_REL_ERR,
 * with room for dividing by |v| rather than |d|). */
#define EXACT_WITHIN (0x1p-43 * (1 - 0x1p-30))

bool ga_fast_grad_covers(const struct ga_format *f)
{
    return f->id == GA_FLOAT32 || f->id == GA_FLOAT16 || f->id == GA_BFLOAT16;
}

static double evaluate(enum ga_function fn, double x, double *abs_err)
{
    return fn == GA_GELU_TANH_GRAD ? ga_fast_gelu_tanh_grad_double(x, abs_err)
                                   : ga_fast_gelu_grad_double(x, abs_err);
}

/* The encoding of 2^k, a normal number of f. */
static inline ga_bits power_of_2(const struct ga_format *f, int k)
{
    return (ga_bits)(k + ga_exponent_bias(f)) << (f->precision - 1);
}

int ga_fast_grad_one(enum ga_function fn, const struct ga_format *f, ga_bits x,
                     struct ga_truth *out)
{
    const ga_bits sign = ga_sign_mask(f), magnitude = x & ~sign;
    const double left = fn == GA_GELU_TANH_GRAD ? GA_FAST_TANH_DOUBLE_MIN
                                                : GA_FAST_GELU_DOUBLE_MIN;
    double xd, v, err;

    if (magnitude == 0 || magnitude >= ga_finite_end(f))  /* the limits: MPFR's */
        return 0;
    out->tail = 0.0f;
    xd = ga_fast_decode(f, x);
    if (xd >= ONE_FROM) {
        out->rounded = power_of_2(f, 0);
        out->direction = 1;
        out->exact = (struct ga_exact){ 0.5, 1 };  /* within 2^-44 of d */
        return 1;
    }
    if (xd < left) {
        out->rounded = sign;
        out->direction = -1;
        out->exact = fn == GA_GELU_TANH_GRAD ? ga_fast_gelu_tanh_grad_left_tail(xd)
                                             : ga_fast_gelu_grad_left_tail(xd);
        return 1;
    }
    if (magnitude <= power_of_2(f, -f->precision - (xd < 0 ? 2 : 1))) {
        out->rounded = power_of_2(f, -1);
        out->direction = xd > 0 ? 1 : -1;
        if (fabs(xd) <= TINY_LINEAR_UP_TO) {
            out->exact = ga_fast_exact_from_double(0.5 + GA_FAST_BETA * xd);
        } else {  /* no cancellation this near 0: the bound is within 2^-44 |v| */
            out->exact = ga_fast_exact_from_double(evaluate(fn, xd, &err));
        }
        return 1;
    }
    v = evaluate(fn, xd, &err);
    if (!(err <= EXACT_WITHIN * fabs(v)) || !ga_fast_decide(f, v - err, v + err, out))
        return 0;
    out->exact = ga_fast_exact_from_double(v);
    return 1;
}
