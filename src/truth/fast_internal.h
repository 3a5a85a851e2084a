/* The parts of the fast oracle, shared by its files and its tests. */
#ifndef GA_TRUTH_FAST_INTERNAL_H
#define GA_TRUTH_FAST_INTERNAL_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "formats/format.h"
#include "truth/function.h"
#include "truth/truth.h"

/* Assumed relative error of the C library's double erfc, exp and exp2 on
 * normal results.  glibc's libm-test-ulps lists a few ulp at most for them
 * on x86_64 (an ulp is at most 2^-52 relatively); the assumption leaves a
 * wide margin and tests/truth_fast_test.c measures it against MPFR
 * (doc/oracle.md, 'The C library assumption'). */
#define GA_FAST_LIBM_REL_ERR 0x1p-44

/* ---- regions (fast_thresholds.c) ---- */

/* Region boundaries, as encodings of f:
 *   |x| <= |tiny_pos| (x > 0), |x| <= |tiny_neg| (x < 0): f(x) rounds to
 *       x/2, a tie rounding towards +inf;
 *   x >= right (positive encodings): f(x) rounds to x;
 *   x <= left (negative encodings, so |x| >= |left|): f(x) rounds to -0.
 * tiny_neg and left are negative encodings. */
struct ga_fast_thresholds {
    ga_bits tiny_pos, tiny_neg, right, left;
};

extern const struct ga_fast_thresholds
    ga_fast_threshold_table[GA_FUNCTION_COUNT][GA_FORMAT_COUNT];

static inline const struct ga_fast_thresholds *ga_fast_thresholds(enum ga_function fn,
                                                                  const struct ga_format *f)
{
    return &ga_fast_threshold_table[fn][f->id];
}

/* x/2 rounded into f with ties towards +inf, for x finite. */
static inline ga_bits ga_fast_half_up(const struct ga_format *f, ga_bits x)
{
    int mbits = f->precision - 1;
    ga_bits sign = x & ((ga_bits)1 << (f->bits - 1));
    ga_bits magnitude = x & ~sign;

    /* Exponent field >= 2: x/2 is normal, one binade down. */
    if (magnitude >> mbits >= 2)
        return sign | (magnitude - ((ga_bits)1 << mbits));
    /* Subnormal or lowest normal binade: the magnitude field counts smallest
     * subnormals, and x/2 is that count halved; an odd count is a tie,
     * which goes towards +inf: up in magnitude for x > 0, down for x < 0.
     * A result of 2^mbits encodes the smallest normal, as it should. */
    return sign | (sign ? magnitude >> 1 : (magnitude + 1) >> 1);
}

/* Whether x/2 is representable in f, for x finite: it is unless x is in the
 * two lowest binades (subnormal or lowest normal) with an odd magnitude
 * field, the ties of ga_fast_half_up. */
static inline bool ga_fast_half_is_exact(const struct ga_format *f, ga_bits x)
{
    int mbits = f->precision - 1;
    ga_bits magnitude = x & ~((ga_bits)1 << (f->bits - 1));

    return magnitude >> mbits >= 2 || (magnitude & 1) == 0;
}

/* ---- evaluation (fast_eval.c) and far left tail (fast_tail.c) ---- */

/* The double evaluations, for x >= GA_FAST_GELU_DOUBLE_MIN and
 * x >= GA_FAST_TANH_DOUBLE_MIN respectively, x a value of one of the formats
 * (at most 24 significant bits), x != 0: the result v and a bound *rel_err
 * with |v - f(x)| <= *rel_err * |v|. */
#define GA_FAST_GELU_DOUBLE_MIN (-36.0)
#define GA_FAST_TANH_DOUBLE_MIN (-20.0)
double ga_fast_gelu_double(double x, double *rel_err);
double ga_fast_gelu_tanh_double(double x, double *rel_err);

/* The exact value below those bounds, from the asymptotic form with its
 * huge binary exponent split off; relative error below 2^-49 plus the C
 * library's exp2 error.  Magnitudes below 2^GA_EXACT_EXP_MIN give the
 * clamped value, which is certain from |x| >= GA_FAST_*_VANISHING_FROM on:
 * there log2|gelu| < -x^2/(2 ln 2) <= -2^41.5 and
 * log2|gelu_tanh| < log2|x| - (2 beta kappa/ln 2)|x|^3 < -2^41.7. */
#define GA_FAST_GELU_VANISHING_FROM 0x1p21
#define GA_FAST_TANH_VANISHING_FROM 0x1p15
struct ga_exact ga_fast_gelu_left_tail(double x);
struct ga_exact ga_fast_gelu_tanh_left_tail(double x);

/* The derivatives in double (fast_eval.c), for x >= GA_FAST_GELU_DOUBLE_MIN
 * and x >= GA_FAST_TANH_DOUBLE_MIN respectively, x <= 8, x a value of a
 * format of at most 24 significant bits, x != 0: the result v and a bound
 * with |v - d(x)| <= *abs_err (absolute: the terms cancel near the root). */
double ga_fast_gelu_grad_double(double x, double *abs_err);
double ga_fast_gelu_tanh_grad_double(double x, double *abs_err);

/* Their exact values below those bounds (fast_tail.c), as the functions'. */
struct ga_exact ga_fast_gelu_grad_left_tail(double x);
struct ga_exact ga_fast_gelu_tanh_grad_left_tail(double x);

/* sqrt(2/pi) and 3 kappa = 0.134145, rounded to double. */
#define GA_FAST_BETA 0x1.9884533d43651p-1
#define GA_FAST_THREE_KAPPA 0x1.12ba9d1f60179p-3

/* 1 with the encoding and direction in *out when every real of [lo, hi]
 * rounds in f to one encoding and lies on one side of its value
 * (fast_decide.c). */
int ga_fast_decide(const struct ga_format *f, double lo, double hi, struct ga_truth *out);

/* The fast paths of the derivatives for one input (fast_grad.c): 1 with *out
 * set when decided, 0 when MPFR must; and the formats they cover. */
int ga_fast_grad_one(enum ga_function fn, const struct ga_format *f, ga_bits x,
                     struct ga_truth *out);
bool ga_fast_grad_covers(const struct ga_format *f);

/* ga_truth_fast without the MPFR fallback (fast.c): 1 with *out set when the
 * fast paths decide x, 0 (and *out unspecified) when MPFR would be called. */
int ga_truth_fast_only(enum ga_function fn, const struct ga_format *f, ga_bits x,
                       struct ga_truth *out);

/* ---- bit-level helpers ---- */

/* The value of a float32 encoding, with integer operations only, so that a
 * flush-to-zero mode cannot touch subnormal inputs. */
static inline double ga_fast_decode_float32(ga_bits x)
{
    uint64_t sign = (uint64_t)(x >> 31) << 63;
    uint64_t exponent = (x >> 23) & 0xff;
    uint64_t mantissa = x & 0x7fffff;
    uint64_t d;
    double v;

    if (exponent == 0) {  /* subnormal: mantissa * 2^-149, exact */
        v = (double)mantissa * 0x1p-149;
        return sign ? -v : v;
    }
    d = sign | (exponent + 1023 - 127) << 52 | mantissa << 29;
    memcpy(&v, &d, sizeof v);
    return v;
}

/* The value of an encoding of f: float32 by the integer path above. */
static inline double ga_fast_decode(const struct ga_format *f, ga_bits x)
{
    return f->id == GA_FLOAT32 ? ga_fast_decode_float32(x) : ga_decode(f, x);
}

/* The float32 encoding of a double whose magnitude rounds into the normal
 * range, rounded to nearest even on the 29 bits a float drops: in the IEEE
 * order of magnitudes a carry into the exponent is the right result. */
static inline ga_bits ga_fast_round_float32_normal(double v)
{
    uint64_t d;
    uint64_t magnitude;

    memcpy(&d, &v, sizeof d);
    magnitude = d & ~((uint64_t)1 << 63);
    magnitude = (magnitude + 0x0fffffff + ((magnitude >> 29) & 1)) >> 29;
    return (ga_bits)(d >> 63) << 31 | (ga_bits)(magnitude - ((uint64_t)(1023 - 127) << 23));
}

/* A non-zero finite double as mant * 2^exp, 0.5 <= |mant| < 1 (frexp,
 * inlined for normal doubles). */
static inline struct ga_exact ga_fast_exact_from_double(double v)
{
    struct ga_exact e;
    uint64_t d;
    int exp;

    memcpy(&d, &v, sizeof d);
    if (((d >> 52) & 0x7ff) == 0) {  /* subnormal double */
        e.mant = frexp(v, &exp);
        e.exp = exp;
        return e;
    }
    e.exp = (long)((d >> 52) & 0x7ff) - 1022;
    d = (d & ~((uint64_t)0x7ff << 52)) | (uint64_t)1022 << 52;
    memcpy(&e.mant, &d, sizeof d);
    return e;
}

/* ---- arithmetic helpers ---- */

/* a * b = hi + *lo exactly, hi = RN(a * b), for products far from overflow
 * and underflow.  The FMA instruction when the target has one, Dekker's
 * product with Veltkamp's splitting otherwise (fma() would then be a call
 * into the C library); both give the same pair.  Callers compile without
 * floating-point contraction (fast_eval.c, fast_tail.c). */
static inline double ga_fast_two_prod(double a, double b, double *lo)
{
    double hi = a * b;
#ifdef FP_FAST_FMA
    *lo = fma(a, b, -hi);
#else
    const double split = 134217729.0;  /* 2^27 + 1 */
    double ca = split * a, cb = split * b;
    double a_hi = ca - (ca - a), a_lo = a - a_hi;
    double b_hi = cb - (cb - b), b_lo = b - b_hi;
    *lo = ((a_hi * b_hi - hi) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo;
#endif
    return hi;
}

/* floor(a) for |a| < 2^62, without a call to the C library. */
static inline double ga_fast_floor(double a)
{
    double t = (double)(int64_t)a;  /* truncated towards zero */
    return t > a ? t - 1 : t;
}

#endif
