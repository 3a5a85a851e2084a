/* The error of one output against the ground truth.
 *
 * Definitions (the README quotes them):
 * - ulp error: |y - f(x)| / ulp(f(x)), ulp from the exponent of the EXACT value
 *   f = mant * 2^exp: 2^(max(e, emin) - p + 1) for |f| in [2^e, 2^(e+1)), the
 *   subnormal ulp 2^(emin - p + 1) for f = 0 (doc/metrics.md, 'ulp error').  Computed
 *   on values scaled by 2^-ulp, so exact values far below the double range keep
 *   their ulp; a part below 2^-1000 ulp is dropped.  +inf for an infinite
 *   output where the truth is finite, except where that infinity is the
 *   correctly rounded result (f beyond the overflow threshold, a backward
 *   sweep's dy d(x)): 0, as every correctly rounded output, and so are the
 *   relative and absolute errors; for f = +-inf, 0 when y is that
 *   infinity and +inf otherwise.
 * - relative error: |y - f| / |f|; for f = 0 (x = +-0 or -inf) it is 0 when y
 *   is a zero and +inf otherwise.
 * - absolute error: |y - f| as a double (values below 2^-1074 underflow to 0).
 *   These three are NaN when y or the truth is NaN: NaN outputs are counted
 *   apart (flags), never in the error statistics.
 * - distance: ordinal distance between y and the correctly rounded result
 *   (ga_distance: -0 and +0 are 0 apart; infinities follow the largest finite).
 * - correctly rounded: y has the encoding of the correctly rounded result
 *   (ga_same_encoding: +0 and -0 differ, any NaN matches any NaN).
 * - faithful: y is correctly rounded, or y is the other format value that
 *   brackets f: the neighbour of the correctly rounded value on f's side,
 *   with f's sign when it is a zero.  So y is RD(f) or RU(f) (only f when f is
 *   representable).  Decided on encodings and the oracle's certified
 *   direction (ga_error_bracket), never on the approximate exact value or
 *   the rounded ulp error.  A faithful output has ulp error < 1; the converse
 *   fails just above a power of 2, where the value below the binade lies
 *   within 1 ulp of f but does not bracket it.
 *
 * Where each figure is decided: the flags and the distance from encodings
 * and truth.h's certified `rounded` and `direction` only; the ulp's binade
 * from the exact value's exponent, which truth.h keeps certified; the error
 * magnitudes from the approximate exact value and its tail (their last
 * digits: below 2^-20 ulp with the MPFR oracle, truth.h). */
#ifndef GA_ERROR_H
#define GA_ERROR_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "formats/format.h"
#include "truth/truth.h"

enum ga_error_flag {
    GA_ERR_CORRECT = 1u << 0,    /* same encoding as the correctly rounded result */
    GA_ERR_FAITHFUL = 1u << 1,   /* RD(f) or RU(f), see above */
    GA_ERR_NAN = 1u << 2,        /* NaN where the truth is not NaN */
    GA_ERR_INF = 1u << 3,        /* +-inf where the correctly rounded result is finite */
    GA_ERR_FLUSHED = 1u << 4,    /* +-0 where the correctly rounded result is not zero */
    GA_ERR_ZERO_SIGN = 1u << 5,  /* a zero of the sign opposite to the correctly rounded zero */
    GA_ERR_NOT_NAN = 1u << 6,    /* not NaN where the truth is NaN */
};

struct ga_error {
    unsigned flags;     /* enum ga_error_flag */
    double ulp;         /* NaN when y or the truth is NaN */
    double rel;
    double abs;
    uint64_t distance;  /* UINT64_MAX when y or the truth is NaN */
};

/* Exact values below 2^-1000 ulp are dropped next to the output: that changes
 * no ulp error a double can show beside an output of at least 1 ulp, and
 * keeps mant * 2^k exact above it (a double with k >= -1021 is normal). */
#define GA_ERROR_TINY_SCALE_EXP (-1000)

/* A format's layout, worked out once for the per-input path. */
struct ga_format_layout {
    const struct ga_format *format;
    int mbits;                 /* stored mantissa bits, p - 1 */
    int emin, emax, precision;
    ga_bits sign_mask;
    ga_bits inf_magnitude;     /* magnitudes from it on are not finite (infinity's, if any) */
    ga_bits nan_magnitude;     /* magnitudes from it on are NaN (inf_magnitude + 1 in IEEE) */
    int bias;                  /* of the exponent field: 1 - emin */
    ga_bits min_normal;        /* magnitudes below it are subnormal or zero */
    int ulp_exp_min;           /* emin - p + 1 */
    double subnormal_unit;     /* 2^(emin - p + 1): value of mantissa field 1 when subnormal */
    double two_p;              /* 2^p: ulp errors of normal exact values are |y 2^-exp - mant| 2^p */
    /* a normal magnitude m is the double of bits (m << value_shift) + value_bias */
    int value_shift;           /* 52 - mbits */
    int sign_shift;            /* 64 - bits: moves the sign bit to the double's */
    uint64_t value_bias;       /* (1023 - bias) << 52: rebias of the exponent field */
    /* the inline cases take emin < E <= min(emax + 1, 1022): 2^-E and 2^E
     * must be normal doubles (not so for float64's E = 1023 and 1024) */
    long inline_exp_span;      /* min(emax + 1, 1022) - emin */
};

void ga_format_layout_init(struct ga_format_layout *c, const struct ga_format *f);

/* Any case: special values, zeros, subnormal or out-of-range exact values. */
void ga_error_compute_general(const struct ga_format_layout *c, ga_bits y, const struct ga_truth *t,
                              struct ga_error *out);

static inline double ga_error_from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* The value of a finite encoding, exactly (every format value is a double). */
static inline double ga_error_value(const struct ga_format_layout *c, ga_bits x)
{
    ga_bits mag = x & ~c->sign_mask;
    uint64_t sign = (uint64_t)(x & c->sign_mask) << c->sign_shift;
    if (mag < c->min_normal) {
        double v = (double)mag * c->subnormal_unit;
        return sign ? -v : v;
    }
    return ga_error_from_bits((((uint64_t)mag << c->value_shift) + c->value_bias) | sign);
}

/* 0.5 <= am < 1, for am >= 0 (the bit patterns of doubles are ordered like
 * their values). */
static inline bool ga_error_normal_mant(double am)
{
    uint64_t am_bits;
    memcpy(&am_bits, &am, sizeof am_bits);
    return am_bits - 0x3fe0000000000000u < 0x0010000000000000u;
}

/* The certified binade of f: E with |f| in [2^(E-1), 2^E), which sets the
 * ulp.  The exact value's exponent is right wherever the correctly rounded r
 * is not a power of 2: f then lies within half an ulp of r, inside r's
 * binade with a margin of 2^-p relatively, far beyond the exact value's
 * error.  Where r is a normal power of 2 the exact value may land on r or
 * across it (x = -2^-60 in float32: |gelu(x)| lies 2^-120 below 2^-61), and
 * the oracle's certified direction says which binade f is in. */
static inline long ga_error_binade(const struct ga_format_layout *c, const struct ga_truth *t)
{
    ga_bits rmag = t->rounded & ~c->sign_mask;

    if ((rmag & (c->min_normal - 1)) != 0 || rmag - c->min_normal >= c->inf_magnitude - c->min_normal
        || t->direction == 0)
        return t->exact.exp;
    /* |r| = 2^k: |f| >= |r| when f lies on the far side of r from 0 */
    long k = (long)(rmag >> c->mbits) - c->bias;
    bool beyond = (t->direction > 0) == !(t->rounded & c->sign_mask);
    return beyond ? k + 1 : k;
}

/* The common case of ga_error_compute: y finite (a zero: flushed), the
 * correctly rounded result finite nonzero, emin < E <= emax + 1 (and
 * <= 1022: inline_exp_span) and a
 * normalized mantissa, so that the ulp of f is 2^(E - p), and E the
 * certified binade. */
static inline bool ga_error_inline_case(const struct ga_format_layout *c, ga_bits ymag,
                                        ga_bits rmag, long E, bool normal_mant)
{
    return ymag < c->inf_magnitude && rmag - 1 < c->inf_magnitude - 1
           && (unsigned long)(E - c->emin - 1) < (unsigned long)c->inline_exp_span
           && normal_mant;
}

/* The core of every ulp error in that case (ga_error_compute, ga_error_ulp,
 * the statistics' batch path): |y - f| / 2^E from the value of y, where
 * f = (mant + tail) 2^E.  y 2^-E is exact (a power of 2 within the double
 * range); subtracting mant is exact while y lies within a factor 2 of f
 * (Sterbenz), so float64's errors keep the tail's bits; subtracting the tail
 * is the one rounding (a tail of 0, the fast oracle's, changes nothing).
 * The ulp error is this times 2^p, the absolute error this times 2^E, the
 * relative error this over |mant|.  E is the certified binade (truth.h), so
 * only the last bits are approximate. */
static inline double ga_error_scaled(double y_value, const struct ga_truth *t)
{
    double scale = ga_error_from_bits((uint64_t)(1023 - t->exact.exp) << 52);  /* 2^-E */
    return fabs((y_value * scale - t->exact.mant) - (double)t->tail);
}

/* The other value that brackets f besides the correctly rounded r: the
 * neighbour of r on the side of f that the oracle certified (direction), a
 * zero of r's sign when that neighbour is 0 (f lies between 0 and r), the
 * smallest subnormal of f's sign when r is a zero.  Only meaningful when
 * direction is not 0 (f representable: r alone brackets it).  This and
 * y == r are the whole definition of faithful: no approximate value enters. */
static inline ga_bits ga_error_bracket(const struct ga_format_layout *c, const struct ga_truth *t)
{
    ga_bits r = t->rounded, rmag = r & ~c->sign_mask;
    int64_t o = ((r & c->sign_mask) ? -(int64_t)rmag : (int64_t)rmag) + t->direction;

    if (o > 0)
        return (ga_bits)o;
    if (o < 0)
        return c->sign_mask | (ga_bits)-o;
    return r & c->sign_mask;
}

/* |ordinal(a) - ordinal(b)| (ga_distance) in unsigned arithmetic: the
 * ordinals of float64 encodings lie up to 2^63 apart. */
static inline uint64_t ga_error_distance(const struct ga_format_layout *c, ga_bits a, ga_bits b)
{
    uint64_t am = a & ~c->sign_mask, bm = b & ~c->sign_mask;
    bool an = (a & c->sign_mask) != 0, bn = (b & c->sign_mask) != 0;

    if (an != bn)
        return am + bm;                       /* across zero */
    return am >= bm ? am - bm : bm - am;
}

/* The error of output y against truth t: the hot path of a sweep, inline for
 * the common case (output and correctly rounded result finite and nonzero,
 * exact value in the normal range: its ulp is 2^(exp - p); or a truth that
 * underflows to the zero output), the general function otherwise.  Both give
 * bitwise the same results there (error_test checks it). */
static inline __attribute__((always_inline)) void
ga_error_compute(const struct ga_format_layout *c, ga_bits y, const struct ga_truth *t,
                 struct ga_error *out)
{
    ga_bits r = t->rounded;
    ga_bits ymag = y & ~c->sign_mask, rmag = r & ~c->sign_mask;
    double mant = t->exact.mant, am = fabs(mant);
    long E = t->exact.exp;  /* |exact| in [2^(E-1), 2^E) */
    bool normal_mant = ga_error_normal_mant(am);

    if (ga_error_inline_case(c, ymag, rmag, E, normal_mant) && ga_error_binade(c, t) == E) {
        double q = ga_error_scaled(ga_error_value(c, y), t);
        out->ulp = q * c->two_p;
        out->abs = q * ga_error_from_bits((uint64_t)(1023 + E) << 52);
        out->rel = q / am;
        if (y == r) {
            out->flags = GA_ERR_CORRECT | GA_ERR_FAITHFUL;
            out->distance = 0;
            return;
        }
        out->distance = ga_error_distance(c, y, r);
        out->flags = (ymag == 0 ? GA_ERR_FLUSHED : 0)
                   | (t->direction != 0 && y == ga_error_bracket(c, t) ? GA_ERR_FAITHFUL : 0);
        return;
    }
    if (ymag == 0 && rmag == 0 && normal_mant && E - c->ulp_exp_min < GA_ERROR_TINY_SCALE_EXP) {
        /* a zero where the truth rounds to a zero, far below the smallest
         * subnormal (a backward sweep's left tail): nothing measurable but
         * the zero's sign; ga_error_compute_general's results there */
        out->ulp = out->abs = 0.0;
        out->rel = 1.0;
        out->flags = y == r ? GA_ERR_CORRECT | GA_ERR_FAITHFUL : GA_ERR_ZERO_SIGN;
        out->distance = 0;
        return;
    }
    if (y == r && ymag == 0 && E <= c->emin && normal_mant) {
        /* the truth underflows to this zero (the far left tail): f is below
         * the normal range, its ulp the subnormal one */
        long k = E - c->ulp_exp_min;
        double d = k < GA_ERROR_TINY_SCALE_EXP ? 0.0 : am * ga_error_from_bits((uint64_t)(1023 + k) << 52);
        out->ulp = d;
        out->abs = d * c->subnormal_unit;
        out->rel = 1.0;
        out->flags = GA_ERR_CORRECT | GA_ERR_FAITHFUL;
        out->distance = 0;
        return;
    }
    ga_error_compute_general(c, y, t, out);
}

/* The ulp error alone, for plots: bitwise ga_error_compute's, without the
 * relative error's division and the flags in the common case. */
static inline __attribute__((always_inline)) double
ga_error_ulp(const struct ga_format_layout *c, ga_bits y, const struct ga_truth *t)
{
    struct ga_error e;

    if (ga_error_inline_case(c, y & ~c->sign_mask, t->rounded & ~c->sign_mask, t->exact.exp,
                             ga_error_normal_mant(fabs(t->exact.mant)))
        && ga_error_binade(c, t) == t->exact.exp)
        return ga_error_scaled(ga_error_value(c, y), t) * c->two_p;
    ga_error_compute(c, y, t, &e);
    return e.ulp;
}

/* The same, for one-off uses (tests, refining worst points). */
void ga_error_measure(const struct ga_format *f, ga_bits y, const struct ga_truth *t,
                      struct ga_error *out);

#endif
