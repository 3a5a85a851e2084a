/* The fast oracle: regions decided by thresholds, a double evaluation with a
 * proven error bound elsewhere, and the MPFR oracle when that bound does not
 * decide the rounding.  See fast.h.
 *
 * Most float32 encodings fall in regions that need no evaluation (tiny |x|:
 * 40 %, x >= 40: 24 %, x so negative that |f(x)| < 2^GA_EXACT_EXP_MIN:
 * 21 %); they are handled inline, the rest out of line. */
#include "truth/fast.h"

#include <math.h>
#include <string.h>

#include "truth/fast_internal.h"
#include "truth/ziv.h"

/* Above this x both functions equal x to far below 2^-1000 relatively
 * (Q(40) < 2^-1150, e^(-2w) < 2^-6000): the exact value is x itself. */
#define RIGHT_EXACT_FROM 40.0

/* Up to this |x| the tiny region's exact value comes from the series
 * x/2 + x^2/sqrt(2 pi): the next terms are below 0.21 |x|^3 relatively
 * (GELU: -x^4/(6 sqrt(2 pi)); tanh form: x^4 beta (kappa - beta^2/3)/2),
 * under 2^-62, and the constant and two roundings add 1.01 u.  Only the
 * 16-bit formats have tiny inputs above it; those are evaluated. */
#define TINY_SERIES_UP_TO 0x1p-20

static double evaluate(enum ga_function fn, double x, double *rel_err)
{
    return fn == GA_GELU_TANH ? ga_fast_gelu_tanh_double(x, rel_err)
                              : ga_fast_gelu_double(x, rel_err);
}

/* The exact value where the rounding is already known and no cheap case
 * (series, x >= 40, clamped) applies. */
static __attribute__((noinline)) struct ga_exact exact_of(enum ga_function fn, double x)
{
    double rel_err;

    if (fn == GA_GELU_TANH && x < GA_FAST_TANH_DOUBLE_MIN)
        return ga_fast_gelu_tanh_left_tail(x);
    if (fn == GA_GELU && x < GA_FAST_GELU_DOUBLE_MIN)
        return ga_fast_gelu_left_tail(x);
    return ga_fast_exact_from_double(evaluate(fn, x, &rel_err));
}

/* What one function and format need per input, with the thresholds as
 * magnitudes (sign-magnitude encodings order like their magnitudes). */
struct context {
    enum ga_function fn;
    const struct ga_format *f;
    ga_bits sign, infinity, tiny_pos, tiny_neg, right, left;
    double vanishing_below;  /* |f(x)| < 2^GA_EXACT_EXP_MIN for x below it */
};

static inline struct context context_of(enum ga_function fn, const struct ga_format *f)
{
    const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, f);
    struct context c;

    c.fn = fn;
    c.f = f;
    c.sign = ga_sign_mask(f);
    c.infinity = c.sign - ((ga_bits)1 << ga_mantissa_bits(f));  /* exponent field all ones */
    c.tiny_pos = th->tiny_pos;
    c.tiny_neg = th->tiny_neg & ~c.sign;
    c.right = th->right;
    c.left = th->left & ~c.sign;
    c.vanishing_below = fn == GA_GELU_TANH ? -GA_FAST_TANH_VANISHING_FROM
                                           : -GA_FAST_GELU_VANISHING_FROM;
    return c;
}

/* Between the thresholds (|x| < 15): evaluate, and decide if the bound allows. */
static __attribute__((noinline)) int evaluated(const struct context *c, double x,
                                               struct ga_truth *out)
{
    double rel_err, v = evaluate(c->fn, x, &rel_err);
    double r = fabs(v) * rel_err;

    if (!ga_fast_decide(c->f, v - r, v + r, out))
        return 0;
    out->exact = ga_fast_exact_from_double(v);  /* inside the interval: on its side */
    return 1;
}

/* The fast paths for one input: 1 with *out set when they decide it, 0 when
 * MPFR must. */
static inline __attribute__((always_inline)) int fast_one(const struct context *c, ga_bits x,
                                                           struct ga_truth *out)
{
    static const struct ga_exact vanishing = { -0.5, GA_EXACT_EXP_MIN };
    ga_bits negative = x & c->sign;
    ga_bits magnitude = x & ~c->sign;
    double xd;

    if (magnitude - 1 >= c->infinity - 1)  /* zero (wraps around), infinity or NaN */
        return ga_truth_special(c->f, x, out);
    out->tail = 0.0f;  /* the exact values below are doubles */
    xd = ga_fast_decode(c->f, x);
    if (magnitude <= (negative ? c->tiny_neg : c->tiny_pos)) {
        static const double INV_SQRT_2PI = 0x1.9884533d43651p-2;
        /* f(x) - x/2 = x (Phi(x) - 1/2) > 0 (for the tanh form x (sigma(2u) -
         * 1/2) > 0): f lies above x/2, so above the result when x/2 is
         * representable, and below it when x/2 is a tie that rounds up. */
        out->rounded = ga_fast_half_up(c->f, x);
        out->direction = ga_fast_half_is_exact(c->f, x) ? 1 : -1;
        out->exact = fabs(xd) <= TINY_SERIES_UP_TO
                   ? ga_fast_exact_from_double(xd * 0.5 + (xd * xd) * INV_SQRT_2PI)
                   : exact_of(c->fn, xd);
        return 1;
    }
    if (!negative && magnitude >= c->right) {
        /* 0 < f(x) < x for x > 0 */
        out->rounded = x;
        out->direction = -1;
        out->exact = xd >= RIGHT_EXACT_FROM ? ga_fast_exact_from_double(xd)
                                            : exact_of(c->fn, xd);
        return 1;
    }
    if (negative && magnitude >= c->left) {
        out->rounded = c->sign;  /* -0, and f(x) < 0 */
        out->direction = -1;
        out->exact = xd < c->vanishing_below ? vanishing : exact_of(c->fn, xd);
        return 1;
    }
    return evaluated(c, xd, out);
}

/* A format added to the table without thresholds of its own (all zero)
 * is left to MPFR. */
static inline int has_thresholds(const struct context *c)
{
    return c->right != 0;
}

/* Which fast path answers a function in a format: the forward one (its
 * thresholds in the context), the derivatives' (fast_grad.c), or none. */
struct path {
    enum { MPFR_ONLY, FORWARD, DERIVATIVE } kind;
    struct context c;  /* fn and f always; the thresholds for FORWARD */
};

static inline struct path path_of(enum ga_function fn, const struct ga_format *f)
{
    struct path p = { MPFR_ONLY, { .fn = fn, .f = f } };

    if (!ga_function_is_forward(fn)) {
        if (ga_fast_grad_covers(f))
            p.kind = DERIVATIVE;
    } else {
        p.c = context_of(fn, f);
        if (has_thresholds(&p.c))
            p.kind = FORWARD;
    }
    return p;
}

/* 1 with *out set when the path decides x, 0 when MPFR must. */
static inline __attribute__((always_inline)) int path_decides(const struct path *p, ga_bits x,
                                                              struct ga_truth *out)
{
    switch (p->kind) {
    case FORWARD:
        return fast_one(&p->c, x, out);
    case DERIVATIVE:
        return ga_fast_grad_one(p->c.fn, p->c.f, x, out);
    default:
        return 0;
    }
}

bool ga_truth_fast_covers(enum ga_function fn, const struct ga_format *f)
{
    return path_of(fn, f).kind != MPFR_ONLY;
}

int ga_truth_fast_only(enum ga_function fn, const struct ga_format *f, ga_bits x,
                       struct ga_truth *out)
{
    struct path p = path_of(fn, f);

    return path_decides(&p, x, out);
}

int ga_truth_fast(enum ga_function fn, const struct ga_format *f, ga_bits x,
                  struct ga_truth *out)
{
    if (ga_truth_fast_only(fn, f, x, out))
        return GA_TRUTH_OK;
    return ga_truth_mpfr(fn, f, x, out);
}

size_t ga_truth_fast_batch(enum ga_function fn, const struct ga_format *f,
                           const ga_bits *x, struct ga_truth *out, size_t n)
{
    struct path p = path_of(fn, f);
    size_t undecided = 0;

    for (size_t i = 0; i < n; i++)
        if (!path_decides(&p, x[i], &out[i])
            && ga_truth_mpfr(fn, f, x[i], &out[i]) != GA_TRUTH_OK) {
            out[i].rounded = ga_quiet_nan(f);
            out[i].direction = 0;
            out[i].exact.mant = NAN;
            out[i].exact.exp = 1;
            out[i].tail = 0.0f;
            undecided++;
        }
    return undecided;
}
