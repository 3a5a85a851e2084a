/* Exact conversion between encodings and doubles, and rounding of a double
 * into a format: to nearest, ties to even, with an overflow convention; and
 * toward zero. */
#include "formats/codec.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

static int exponent_bias(const struct ga_format *f)
{
    return ga_exponent_bias(f);
}

/* 2^e for a normal double exponent, built from its bits (exact). */
static double power_of_two(int e)
{
    uint64_t bits = (uint64_t)(1023 + e) << 52;
    double v;

    memcpy(&v, &bits, sizeof v);
    return v;
}

/* v 2^k, by a multiplication where 2^k is a normal double (sweeps encode
 * every output; ldexp was a third of a backward sweep), by ldexp beyond
 * (float64's far ends).  Every call below scales to a value that is a
 * double (an integer below 2^(p+1) from a value of f, or such an integer
 * times 2^q with q >= -1022, or with ldexp): both are then exact, the same. */
static double scaled(double v, int k)
{
    return k >= -1022 && k <= 1023 ? v * power_of_two(k) : ldexp(v, k);
}

/* Built from the fields (sweeps decode every pair): an exponent field of 0
 * is a zero or subnormal, mantissa * 2^(emin - mbits); a normal value is the
 * double with the same fraction bits, rebiased; magnitudes from
 * ga_finite_end on are infinity, from ga_nan_from on NaN.  Every value is a
 * double, so each step is exact. */
static double decode_fields(const struct ga_format *f, ga_bits x)
{
    int mbits = ga_mantissa_bits(f);
    ga_bits magnitude = x & ~ga_sign_mask(f);
    ga_bits exponent = magnitude >> mbits;
    ga_bits mantissa = magnitude & (((ga_bits)1 << mbits) - 1);
    double v;

    if (exponent == 0) {
        /* float64's subnormals lie below the normal doubles that
         * power_of_two builds: scaled by ldexp, exact (they are doubles) */
        v = f->emin - mbits >= -1022 ? (double)mantissa * power_of_two(f->emin - mbits)
                                     : ldexp((double)mantissa, f->emin - mbits);
    } else if (magnitude >= ga_finite_end(f)) {
        v = magnitude >= ga_nan_from(f) ? NAN : INFINITY;
    } else {
        uint64_t bits = ((uint64_t)((int)exponent - exponent_bias(f) + 1023) << 52)
                      | ((uint64_t)mantissa << (52 - mbits));
        memcpy(&v, &bits, sizeof v);
    }
    return ga_sign(f, x) ? -v : v;
}

/* A backward sweep of a 16-bit format decodes several values per pair, 2^32
 * pairs: there ga_decode reads a table of the 2^16 values, filled once by
 * decode_fields (so the same bits by construction). */
static double float16_values[1 << 16], bfloat16_values[1 << 16];
static pthread_once_t float16_once = PTHREAD_ONCE_INIT, bfloat16_once = PTHREAD_ONCE_INIT;

static void fill_values(enum ga_format_id id, double *values)
{
    const struct ga_format *f = ga_format_get(id);

    for (uint32_t x = 0; x < (1u << 16); x++)
        values[x] = decode_fields(f, (ga_bits)x);
}

static void fill_float16(void) { fill_values(GA_FLOAT16, float16_values); }
static void fill_bfloat16(void) { fill_values(GA_BFLOAT16, bfloat16_values); }

const double *ga_decode_table(const struct ga_format *f)
{
    if (f->id == GA_BFLOAT16) {
        pthread_once(&bfloat16_once, fill_bfloat16);
        return bfloat16_values;
    }
    if (f->id == GA_FLOAT16) {
        pthread_once(&float16_once, fill_float16);
        return float16_values;
    }
    return NULL;
}

double ga_decode(const struct ga_format *f, ga_bits x)
{
    const double *values = x < (1u << 16) ? ga_decode_table(f) : NULL;

    return values ? values[x] : decode_fields(f, x);
}

/* Encode a non-negative value that is already representable in f. */
static ga_bits encode_exact(const struct ga_format *f, double r)
{
    int mbits = ga_mantissa_bits(f);
    int e;

    if (r < power_of_two(f->emin))  /* zero or subnormal: fixed grid */
        return (ga_bits)scaled(r, mbits - f->emin);
    e = ilogb(r);
    return (ga_bits)(e + exponent_bias(f)) << mbits
         | ((ga_bits)scaled(r, mbits - e) & (((ga_bits)1 << mbits) - 1));
}

ga_bits ga_overflow_result(const struct ga_format *f, bool negative, enum ga_overflow o)
{
    switch (o) {
    case GA_OVERFLOW_INFINITY: return ga_infinity(f, negative);
    case GA_OVERFLOW_NAN: return ga_quiet_nan(f) | (negative ? ga_sign_mask(f) : 0);
    default: return ga_max_finite(f, negative);
    }
}

/* rint or trunc of |v| on f's grid (a > 0 finite, below 2^(emax + 1)): the
 * ulp of the binade of a is 2^q (the subnormal ulp below emin), and a * 2^-q
 * is exact in double. */
static double on_grid(const struct ga_format *f, double a, double (*to_integer)(double))
{
    int e = ilogb(a);
    int q = (e < f->emin ? f->emin : e) - f->precision + 1;
    return scaled(to_integer(scaled(a, -q)), q);
}

/* RN of a > 0 on the bits, where a's binade is a normal one of f (float32
 * and narrower): the top mbits fraction bits of the double, plus one when
 * the rest is above half an ulp, or half with the kept part odd; a carry
 * out of the fraction moves into the exponent field, which is the encoding
 * of the next binade's first value.  The same as on_grid with rint, with no
 * scaling; 0 (the general path) for the rest, and for a result beyond the
 * largest finite value. */
static int encode_normal(const struct ga_format *f, double a, ga_bits *out)
{
    int mbits = ga_mantissa_bits(f), shift = 52 - mbits;
    uint64_t bits, rest, half;
    int e;
    ga_bits r;

    if (f->precision > 24)
        return 0;
    memcpy(&bits, &a, sizeof bits);
    e = (int)(bits >> 52) - 1023;
    if (e < f->emin || e > f->emax)
        return 0;
    rest = bits & (((uint64_t)1 << shift) - 1);
    half = (uint64_t)1 << (shift - 1);
    r = (ga_bits)(e + exponent_bias(f)) << mbits
      | (ga_bits)((bits & (((uint64_t)1 << 52) - 1)) >> shift);
    r += rest > half || (rest == half && (r & 1));
    if (r > ga_max_finite(f, false))
        return 0;
    *out = r;
    return 1;
}

ga_bits ga_encode_overflow(const struct ga_format *f, double v, enum ga_overflow o)
{
    bool negative = signbit(v) != 0;
    double a = fabs(v);
    double rounded;
    ga_bits fast;

    if (isnan(v))
        return ga_quiet_nan(f) | (negative ? ga_sign_mask(f) : 0);
    if (a == 0.0)
        return ga_zero(f, negative);
    /* exact where there is an infinity, except that saturation never gives
     * one (PTX cvt.satfinite); an overflow elsewhere */
    if (isinf(a))
        return ga_has_infinity(f) && o != GA_OVERFLOW_SATFINITE
             ? ga_infinity(f, negative) : ga_overflow_result(f, negative, o);
    if (encode_normal(f, a, &fast))
        return fast | (negative ? ga_sign_mask(f) : 0);
    if (ilogb(a) > f->emax)
        return ga_overflow_result(f, negative, o);
    rounded = on_grid(f, a, rint);  /* to nearest, ties to even */
    if (rounded > ga_decode(f, ga_max_finite(f, false)))
        return ga_overflow_result(f, negative, o);
    return encode_exact(f, rounded) | (negative ? ga_sign_mask(f) : 0);
}

ga_bits ga_encode(const struct ga_format *f, double v)
{
    return ga_encode_overflow(f, v, ga_default_overflow(f));
}

ga_bits ga_encode_toward_zero(const struct ga_format *f, double v)
{
    bool negative = signbit(v) != 0;
    double a = fabs(v), largest = ga_decode(f, ga_max_finite(f, false));

    if (isnan(v) || a == 0.0 || (isinf(a) && ga_has_infinity(f)))
        return ga_encode(f, v);
    if (a >= largest)  /* IEEE: rounding toward zero never overflows */
        return ga_max_finite(f, negative);
    return encode_exact(f, on_grid(f, a, trunc)) | (negative ? ga_sign_mask(f) : 0);
}

double ga_round(const struct ga_format *f, double v)
{
    return ga_decode(f, ga_encode(f, v));
}
