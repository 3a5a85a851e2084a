/* Shared steps of the MPFR oracles: the rounding test of Ziv's strategy, the
 * exact value, and the exponent range the oracles compute in. */
#ifndef GA_ZIV_H
#define GA_ZIV_H

#include <math.h>
#include <mpfr.h>

#include "formats/format.h"
#include "truth/truth.h"

/* If every real within 2^-k * |v| of v rounds to the same encoding of f and
 * lies on the same side of that encoding's value, store the encoding and the
 * side (the sign of real - encoding) in *out and return 1; otherwise return 0
 * (more precision is needed).  Rounding is monotone, so it suffices that both
 * ends of the interval agree.  The side is certain once the interval
 * excludes the representable value itself, or when that value lies outside
 * the open interval (lower, upper) that the true value is known to lie in:
 * both functions satisfy x/2 < f(x) < max(x, 0) for x != 0 (0 < Phi, sigma
 * < 1, and > 1/2 for x > 0), which decides large x, where f(x) = x (1 - Q)
 * with Q far below 2^-4096, and x/2 when it is representable. */
int ga_ziv_decide(const struct ga_format *f, mpfr_srcptr v, long k, double lower, double upper,
                  struct ga_truth *out);
/* The same with an overflow convention that f allows.  A result that
 * overflows to NaN (or to infinity) stands beyond the largest finite value:
 * its direction is that of an infinity of the result's sign (-1 for a
 * positive value). */
int ga_ziv_decide_overflow(const struct ga_format *f, enum ga_overflow o, mpfr_srcptr v, long k,
                           double lower, double upper, struct ga_truth *out);

/* The same decision from an absolute bound: the true value is known to lie
 * within err (> 0) of v.  The bound becomes a relative one through v's own
 * magnitude, 2^-k |v| >= err with k = EXP(v) - 1 - EXP(err), capped at v's
 * precision; nothing is decided while k < 53 (the exact value must carry 53
 * good bits, ga_ziv_exact_bits for f).  Near a zero of the function err does not shrink with |v|, so
 * k stays small and the caller raises the precision until it decides. */
int ga_ziv_decide_within(const struct ga_format *f, mpfr_srcptr v, mpfr_srcptr err,
                         double lower, double upper, struct ga_truth *out);

/* The open interval (lower, upper) that gelu(x) and its tanh form lie in,
 * as ga_ziv_decide wants it: x/2 < f(x) < max(x, 0) for x != 0.  x/2 is
 * used only where it is exact: rounded (x an odd multiple of the smallest
 * subnormal) it may land on f's far side, as -2^-1075 rounds to -0 above
 * gelu(-2^-1074) < 0, and nothing would ever be decided; the weaker x
 * (x < 0) or 0 (x > 0) stands in for it there. */
void ga_truth_bounds(double x, double *lower, double *upper);

/* v as mant * 2^exp, 53 bits (GA_EXACT_EXP_MIN for magnitudes below it). */
struct ga_exact ga_exact_from_mpfr(mpfr_srcptr v);

/* The exact value of a decided truth from v, the approximation of f(x) in
 * format f: exact to 53 bits; tail the rest to a float's 24 where the
 * format needs more than 53 bits (ga_ziv_exact_bits: float64), else 0, so
 * that the narrower formats' figures stay bit for bit those of a double
 * (0 too when exact is clamped at GA_EXACT_EXP_MIN).  v must be good to
 * ga_ziv_exact_bits. */
void ga_truth_set_exact(const struct ga_format *f, mpfr_srcptr v, struct ga_truth *out);

/* The relative precision, in bits, that an oracle's approximation v must
 * have (|v - f| <= 2^-k |v| with k at least this) before it sets the exact
 * value: 53 for a double, and p + 21 for a format of precision p, so that
 * an error measured in ulps of the format (> 2^-p |f|) is good to 2^-20 ulp.
 * Only float64 needs more than 53; the loops start at 64 bits or this. */
static inline long ga_ziv_exact_bits(const struct ga_format *f)
{
    return f->precision + 21 > 53 ? f->precision + 21 : 53;
}
static inline long ga_ziv_first_bits(const struct ga_format *f)
{
    return ga_ziv_exact_bits(f) > 64 ? ga_ziv_exact_bits(f) : 64;
}

/* The special inputs, the same for both functions: f(NaN) = NaN,
 * f(+inf) = +inf, f(-inf) = -0, f(+-0) = +-0.  Returns 1 when x is one of
 * them (and fills *out), 0 otherwise. */
int ga_truth_special(const struct ga_format *f, ga_bits x, struct ga_truth *out);
/* The same for an input x of format in whose result is rounded into out
 * under convention o: +inf gives what o makes of an infinity (+inf,
 * the largest finite, or NaN), the other results their value in out. */
int ga_truth_special_cast(const struct ga_format *in, ga_bits x, const struct ga_format *out_f,
                          enum ga_overflow o, struct ga_truth *out);

/* A truth for a result known to be far below every format's smallest
 * subnormal (|f(x)| < 2^GA_EXACT_EXP_MIN): a zero of the given sign. */
void ga_truth_vanishing(const struct ga_format *f, bool negative, struct ga_truth *out);

/* Right-tail saturation, the same for both functions: for x >= 9,
 * f(x) = x (1 - Q) with 0 < Q < 2^-54 (gelu: Q = Phi(-x) < phi(9)/9 < 2^-62
 * by the Mills ratio; the tanh form: Q = 1/(1 + e^(2u)) < e^(-2u), u(9) > 33,
 * so Q < 2^-95).  x (1 - 2^-54) is at or above the midpoint between x and
 * the encoding below it in every format of at most 53 bits of precision, so
 * f(x) rounds to x itself, from below; its 53-bit value is x too.  Spares
 * the Ziv loop the precision of x^2 or x^3 (infinite in double past 2^512
 * in float64).  Returns 1 (and fills *out) for such x, else 0. */
#define GA_TRUTH_IDENTITY_FROM 9.0
/* Where x is f(x) to ga_ziv_exact_bits = 74 for float64 as well: gelu's
 * Q < phi(10)/10 < 2^-76 from x = 10 (the tanh form's is below 2^-95 from 9).
 * Formats of more than 41 bits of precision take x as f(x) from there. */
#define GA_TRUTH_IDENTITY_WIDE_FROM 10.0
int ga_truth_identity(const struct ga_format *f, ga_bits x, struct ga_truth *out);

/* The oracles compute in MPFR's widest exponent range, so that nothing under-
 * or overflows before the final rounding; the caller's range is restored. */
struct ga_mpfr_range { mpfr_exp_t emin, emax; };
struct ga_mpfr_range ga_mpfr_widen_range(void);
void ga_mpfr_restore_range(struct ga_mpfr_range saved);

/* ceil(log2(v)) for v >= 1, and an upper bound for huge v. */
long ga_ceil_log2(double v);

#endif
