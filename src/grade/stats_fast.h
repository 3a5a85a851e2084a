/* What the batch path of the statistics (stats_batch.c) decides about an
 * input with a few integer compares: whether it lies in a region, and
 * whether its output needs no error computed (equal to the truth, or the
 * zero of a truth far below it) or errors cheaper than ga_error_compute's.
 * Static inline: they are folded into the batch loops. */
#ifndef GA_STATS_FAST_H
#define GA_STATS_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "grade/stats_add.h"

/* What the fast path makes of an input. */
enum fast_kind {
    FAST_NONE,   /* not taken: add_slow */
    FAST_EXACT,  /* correctly rounded, y = f: every error is 0 */
    FAST_UNDER,  /* the zero output of a truth below 2^-1000 ulp: ulp and
                    absolute error 0, relative error 1 */
    FAST_ERROR,  /* correctly rounded, errors in struct fast_error */
    FAST_NEAR,   /* not correctly rounded, both normal: errors, distance */
};

struct fast_error {
    double ulp, abs;
    double q, am;       /* the relative error is q / am <= 2q */
    uint64_t distance;  /* FAST_NEAR */
    bool faithful;
};

/* The bits of the double of value y, for a normal y (the same for any y
 * in float32, converted by the hardware). */
static inline __attribute__((always_inline)) uint64_t
value_bits(const struct ga_format_layout *c, ga_bits y)
{
    if (c->mbits == 23 && c->emax == 127 && c->sign_shift == 32) {  /* float32 */
        uint32_t low = (uint32_t)y;
        float v;
        double d;
        uint64_t bits;
        memcpy(&v, &low, sizeof v);
        d = v;
        memcpy(&bits, &d, sizeof bits);
        return bits;
    }
    return ((((uint64_t)(y & ~c->sign_mask)) << c->value_shift) + c->value_bias)
         | (uint64_t)(y & c->sign_mask) << c->sign_shift;
}

/* Whether y is correctly rounded and equal to f, in ga_error_compute's first
 * case (y and r normal, emin < E <= emax + 1, 0.5 <= |mant| < 1): the double
 * of y is then mant 2^E (with a tail of 0), and its bits those of mant with
 * E added to the exponent.  A subnormal, zero, infinite or NaN y has no such value in that
 * range of E (when emin = 1 - emax, as in IEEE formats).  (In the far left r
 * is a zero: in_region.) */
static inline __attribute__((always_inline)) bool
exact_output(const struct ga_format_layout *c, enum ga_region r, ga_bits y,
             const struct ga_truth *t)
{
    const long E = t->exact.exp;
    uint64_t mant_bits;

    memcpy(&mant_bits, &t->exact.mant, sizeof mant_bits);
    if (r == GA_REGION_FAR_LEFT || y != t->rounded || t->tail != 0.0f
        || (unsigned long)(E - c->emin - 1) >= (unsigned long)c->inline_exp_span
        || (mant_bits << 1 >> 53) != 0x3fe)
        return false;
    return value_bits(c, y) == mant_bits + ((uint64_t)E << 52)
        && (c->emin == 1 - c->emax
            || (y & ~c->sign_mask) - c->min_normal < c->inf_magnitude - c->min_normal);
}

/* Whether y is the correctly rounded zero of a truth below 2^-1000 ulp, in
 * ga_error_compute's second case: then its ulp and absolute error are 0 and
 * its relative error is 1.  (In the far left r is a zero: in_region.) */
static inline __attribute__((always_inline)) bool
under_output(const struct ga_format_layout *c, enum ga_region r, ga_bits y,
             const struct ga_truth *t)
{
    uint64_t mant_bits;

    memcpy(&mant_bits, &t->exact.mant, sizeof mant_bits);
    /* E below that bound is below emin */
    return y == t->rounded && (r == GA_REGION_FAR_LEFT || (y & ~c->sign_mask) == 0)
        && t->exact.exp - c->ulp_exp_min < GA_ERROR_TINY_SCALE_EXP
        && (mant_bits << 1 >> 53) == 0x3fe;  /* 0.5 <= |mant| < 1 */
}

/* The inputs of ga_error_compute's two inline cases that need no special
 * care, with the same errors as there.  The relative error, the one
 * division, is left to the caller: it rarely needs it.  Its FAST_EXACT and
 * FAST_UNDER are those of exact_output and under_output: in the first case
 * y = f exactly when q = 0 (two different doubles never subtract to 0). */
static inline __attribute__((always_inline)) enum fast_kind
fast_measure(const struct ga_format_layout *c, enum ga_region r, ga_bits y,
             const struct ga_truth *t, struct fast_error *out)
{
    const ga_bits ymag = y & ~c->sign_mask, rounded = t->rounded;
    const long E = t->exact.exp;  /* |f| in [2^(E-1), 2^E) */
    const double mant = t->exact.mant;
    uint64_t mant_bits;

    memcpy(&mant_bits, &mant, sizeof mant_bits);
    if ((mant_bits << 1 >> 53) != 0x3fe)  /* not 0.5 <= |mant| < 1 */
        return FAST_NONE;
    /* The first case, y normal (then so is a correctly rounded |f| >= 2^emin);
     * in the far left the correctly rounded result is a zero. */
    if (r != GA_REGION_FAR_LEFT && ymag - c->min_normal < c->inf_magnitude - c->min_normal
        && (unsigned long)(E - c->emin - 1) < (unsigned long)c->inline_exp_span
        && ga_error_binade(c, t) == E) {
        if (y != rounded
            && (rounded & ~c->sign_mask) - c->min_normal >= c->inf_magnitude - c->min_normal)
            return FAST_NONE;
        const double q = ga_error_scaled(ga_error_from_bits(value_bits(c, y)), t);  /* y is normal */
        out->ulp = q * c->two_p;
        out->abs = q * ga_error_from_bits((uint64_t)(1023 + E) << 52);
        out->q = q;
        out->am = fabs(mant);  /* >= 1/2 */
        if (y == rounded)
            return q == 0.0 ? FAST_EXACT : FAST_ERROR;
        /* as ga_error_compute: the distance, and faithful when y is the other bracket */
        out->distance = ga_error_distance(c, y, rounded);
        out->faithful = t->direction != 0 && y == ga_error_bracket(c, t);
        return FAST_NEAR;
    }
    if (under_output(c, r, y, t))
        return FAST_UNDER;
    /* The second, above 2^-1000 ulp: the truth underflows to this zero. */
    if (y == rounded && ymag == 0 && E <= c->emin) {
        long k = E - c->ulp_exp_min;
        out->ulp = fabs(mant) * ga_error_from_bits((uint64_t)(1023 + k) << 52);
        out->abs = out->ulp * c->subnormal_unit;
        out->q = out->am = 1.0;  /* relative error 1 */
        return FAST_ERROR;
    }
    return FAST_NONE;
}

/* Whether the errors (ulp, rel, abs) of an input x >= min_x could win a
 * maximum of the region: be above it, or equal with an x no larger. */

/* Whether input x, whose correctly rounded result is `rounded`, falls in
 * region r: ga_region_of(b, x, rounded) == r, in a few operations. */
static inline __attribute__((always_inline)) bool
in_region(const struct ga_region_bounds *b, ga_bits x, ga_bits rounded, enum ga_region r)
{
    ga_bits mag = x & ~b->sign_mask;
    switch (r) {
    case GA_REGION_TINY:
        return mag - 1 < b->tiny - 1;
    case GA_REGION_CORE:
        return mag - b->tiny <= b->tail - b->tiny;
    case GA_REGION_RIGHT:  /* and the sign bit clear */
        return x - (b->tail + 1) < b->inf - (b->tail + 1);
    case GA_REGION_FAR_LEFT:
    case GA_REGION_LEFT_TAIL:
        if (x - (b->sign_mask | (b->tail + 1)) >= b->inf - (b->tail + 1))
            return false;
        return ((rounded & ~b->sign_mask) == 0) == (r == GA_REGION_FAR_LEFT);
    default:
        return ga_region_of(b, x, rounded) == r;
    }
}

/* value_key of an input of region r, cheaper where r fixes its sign. */
static inline __attribute__((always_inline)) int64_t
key_in(const struct ga_region_bounds *b, enum ga_region r, ga_bits x)
{
    if (r == GA_REGION_RIGHT)
        return (int64_t)x;
    if (r == GA_REGION_FAR_LEFT || r == GA_REGION_LEFT_TAIL)
        return ~(int64_t)(x & ~b->sign_mask);
    return value_key(x, b->sign_mask);
}

/* in_region for inputs of one sign (neg: the sign bit set): one compare
 * fewer in the two regions on both sides of 0. */
static inline __attribute__((always_inline)) bool
in_region_signed(const struct ga_region_bounds *b, ga_bits x, ga_bits rounded, enum ga_region r,
                 bool neg)
{
    const ga_bits sign = neg ? b->sign_mask : 0;
    switch (r) {
    case GA_REGION_TINY:
        return x - (sign | 1) < b->tiny - 1;
    case GA_REGION_CORE:
        return x - (sign | b->tiny) <= b->tail - b->tiny;
    default:
        return in_region(b, x, rounded, r);
    }
}

#endif
