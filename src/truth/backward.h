/* The backward truth: for x and dy in a format F, the reference of a GELU
 * backward kernel is RN_F(dy * d(x)), d = gelu' or the tanh form's
 * derivative taken exactly, dy exact, the product exact before the one
 * rounding.  Overflow, underflow and signed zeros follow F; dy = +-0,
 * +-inf and NaN by IEEE rules on the exact product, with d's limits
 * (grad_limits.h): d(-inf) = -0 (so -inf with dy = +-inf is NaN), d(+inf) = 1,
 * d(+-0) = 1/2 exactly; for any other x, d(x) is finite and not 0.
 * doc/oracle.md, 'The backward truth'. */
#ifndef GA_BACKWARD_H
#define GA_BACKWARD_H

#include "formats/format.h"
#include "truth/function.h"
#include "truth/truth.h"

/* What is known of d(x), computed once per x and shared by every dy. */
enum ga_grad_kind {
    GA_GRAD_NAN,        /* x is NaN */
    GA_GRAD_EXACT,      /* d(x) = mant * 2^exp exactly (+-0, +inf, -inf: 1/2, 1, -0) */
    GA_GRAD_APPROX,     /* |mant 2^exp - d(x)| <= 2^-52 |d(x)|, 0.5 <= |mant| < 1 */
    GA_GRAD_VANISHING,  /* -2^GA_EXACT_EXP_MIN < d(x) < 0 (far left tail) */
    GA_GRAD_ONE_ABOVE,  /* 1 < d(x) < 1 + 2^-60 (right tail, x >= 1): dy d rounds to dy */
};

struct ga_grad_value {
    enum ga_grad_kind kind;
    double mant;
    long exp;
    /* APPROX within 2^-20 of base = 1/2 (tiny x) or 1 (x beyond 5), else
     * base = 0: d = base + delta, |delta' - delta| <= 2^-52 |delta|.  There
     * dy d lies next to the representable dy base, where mant alone cannot
     * tell the side (backward_fast.c). */
    double base, delta;
};

/* d(x) for a derivative fn (GA_GELU_GRAD, GA_GELU_TANH_GRAD) at a double x,
 * certified by the oracle's enclosure (grad_value.c).  Returns a
 * ga_truth_status (UNDECIDED only if the relative bound is out of reach
 * below GA_ZIV_MAX_PRECISION, which no format value needs). */
int ga_grad_value(enum ga_function fn, double x, struct ga_grad_value *out);
/* The limits alone (NaN, +-0, +-inf): 1 and *out filled, else 0. */
int ga_grad_limit(double x, struct ga_grad_value *out);

/* The result when it does not need d(x)'s digits: NaN operands, dy = +-0 or
 * +-inf, and d(x) exact or in a tail.  Returns 1 and fills *out, else 0. */
int ga_backward_special(const struct ga_format *f, const struct ga_grad_value *g, ga_bits dy,
                        struct ga_truth *out);

/* The fast path (backward_fast.c): RN_F(dy * d) from g with a proved error
 * bound.  Returns 1 when decided, 0 when the product lies too close to a
 * rounding boundary (then ask ga_backward_mpfr). */
int ga_backward_fast(const struct ga_format *f, const struct ga_grad_value *g, ga_bits dy,
                     struct ga_truth *out);

/* The MPFR Ziv loop on the product, independent of ga_grad_value's
 * rounding (backward_mpfr.c).  Returns a ga_truth_status. */
int ga_backward_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits x, ga_bits dy,
                     struct ga_truth *out);

/* Special, then fast, then MPFR: what a sweep uses.  g is d(x) for this x
 * (from ga_grad_value). */
int ga_backward_truth(enum ga_function fn, const struct ga_format *f, const struct ga_grad_value *g,
                      ga_bits x, ga_bits dy, struct ga_truth *out);

#endif
