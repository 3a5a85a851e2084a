/* Binary floating-point formats: one table entry describes each.
 *
 * An encoding travels as a uint64_t holding the format's bits right-aligned
 * (a float16 encoding is 0x0000..0xffff, a float4_e2m1 one 0x0..0xf, a
 * float64 one all 64 bits).  Values cross boundaries as
 * encodings; compare them with ga_same_encoding, never with == on floats:
 * +0 and -0 differ, and any NaN matches any NaN. */
#ifndef GA_FORMAT_H
#define GA_FORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t ga_bits;

/* The wide formats first: the ids below GA_FIRST_SMALL_FORMAT are those the
 * real libraries, plugins and the facts know; then the small formats; then
 * float64, too many encodings to visit them all (ga_is_enumerable). */
enum ga_format_id {
    GA_FLOAT32, GA_FLOAT16, GA_BFLOAT16,
    GA_FLOAT8_E4M3FN, GA_FLOAT8_E5M2, GA_FLOAT6_E2M3, GA_FLOAT6_E3M2, GA_FLOAT4_E2M1,
    GA_FLOAT64,
    GA_FORMAT_COUNT
};
#define GA_FIRST_SMALL_FORMAT GA_FLOAT8_E4M3FN
#define GA_LAST_SMALL_FORMAT GA_FLOAT4_E2M1

/* Which encodings are not numbers. */
enum ga_specials {
    GA_SPECIALS_IEEE,      /* exponent field all ones: infinity (fraction 0), else NaN */
    GA_SPECIALS_NAN_ONLY,  /* no infinity; NaN only with every bit but the sign set (E4M3FN) */
    GA_SPECIALS_NONE,      /* every encoding is a finite number (the MX FP6 and FP4 types) */
};

/* A binary format with signed zeros and subnormals: sign bit, exponent field
 * biased by 1 - emin, precision - 1 fraction bits.  Normal numbers are
 * m * 2^e with 1 <= m < 2 and emin <= e <= emax. */
struct ga_format {
    enum ga_format_id id;
    const char *name;
    int bits;        /* encoding width (stored in whole bytes: ga_storage_bytes) */
    int precision;   /* significand bits, hidden bit included */
    int emin, emax;  /* exponent range of normal numbers */
    enum ga_specials specials;
};

/* What a rounding does with a value beyond the largest finite one, and
 * with an infinite value: kept where the format has infinities, except under
 * saturation, which never gives one (PTX cvt.satfinite). */
enum ga_overflow {
    GA_OVERFLOW_INFINITY,   /* IEEE: infinity of the value's sign */
    GA_OVERFLOW_SATFINITE,  /* the largest finite value of that sign */
    GA_OVERFLOW_NAN,        /* NaN (only where the format has one) */
};

enum ga_class { GA_ZERO, GA_SUBNORMAL, GA_NORMAL, GA_INFINITE, GA_NAN };

/* Table access.  ga_format_by_name returns NULL for an unknown name. */
const struct ga_format *ga_format_get(enum ga_format_id id);
const struct ga_format *ga_format_by_name(const char *name);
/* "float32, float16, bfloat16, float8_e4m3fn, ..., float64": for help texts
 * and error messages. */
const char *ga_format_names(void);
static inline bool ga_is_small_format(const struct ga_format *f)
{
    return f->id >= GA_FIRST_SMALL_FORMAT && f->id <= GA_LAST_SMALL_FORMAT;
}
/* Whether every encoding can be visited (domains all and stride:, tables by
 * encoding): up to 2^32 of them, so not float64. */
static inline bool ga_is_enumerable(const struct ga_format *f) { return f->bits <= 32; }
static inline bool ga_has_infinity(const struct ga_format *f) { return f->specials == GA_SPECIALS_IEEE; }
static inline bool ga_has_nan(const struct ga_format *f) { return f->specials != GA_SPECIALS_NONE; }
/* The format's own: infinity where it has one, else saturation. */
static inline enum ga_overflow ga_default_overflow(const struct ga_format *f)
{
    return ga_has_infinity(f) ? GA_OVERFLOW_INFINITY : GA_OVERFLOW_SATFINITE;
}
/* Whether f can follow convention o (infinity and NaN need their encodings). */
bool ga_overflow_allowed(const struct ga_format *f, enum ga_overflow o);
/* "infinity", "satfinite", "nan"; ga_overflow_by_name returns -1 when unknown. */
const char *ga_overflow_name(enum ga_overflow o);
int ga_overflow_by_name(const char *name, enum ga_overflow *o);

/* Derived layout. */
static inline int ga_mantissa_bits(const struct ga_format *f) { return f->precision - 1; }
static inline int ga_exponent_bits(const struct ga_format *f) { return f->bits - f->precision; }
static inline int ga_exponent_bias(const struct ga_format *f) { return 1 - f->emin; }
/* Bytes per encoding in files and arrays: whole bytes, little-endian. */
static inline int ga_storage_bytes(const struct ga_format *f) { return (f->bits + 7) / 8; }
static inline ga_bits ga_sign_mask(const struct ga_format *f) { return (ga_bits)1 << (f->bits - 1); }
static inline ga_bits ga_all_ones(const struct ga_format *f)
{
    return f->bits >= 64 ? UINT64_MAX : ((ga_bits)1 << f->bits) - 1;
}
/* Number of encodings: 2^bits; only for an enumerable format (2^64 does
 * not fit). */
static inline uint64_t ga_encoding_count(const struct ga_format *f) { return (uint64_t)1 << f->bits; }
static inline bool ga_sign(const struct ga_format *f, ga_bits x) { return (x & ga_sign_mask(f)) != 0; }
static inline ga_bits ga_negate(const struct ga_format *f, ga_bits x) { return x ^ ga_sign_mask(f); }

/* Encodings of special values.  ga_infinity: only for a format with
 * infinities (in the others it gives the largest finite, the saturated
 * overflow).  ga_quiet_nan: in a format without NaN, 2^bits, a marker
 * outside the format that classifies as NaN and that no file accepts. */
ga_bits ga_zero(const struct ga_format *f, bool negative);
ga_bits ga_infinity(const struct ga_format *f, bool negative);
ga_bits ga_quiet_nan(const struct ga_format *f);
ga_bits ga_max_finite(const struct ga_format *f, bool negative);
ga_bits ga_min_subnormal(const struct ga_format *f, bool negative);
/* Magnitudes (encodings without the sign) from which encodings are not
 * finite, and from which they are NaN: for the IEEE layout the infinity and
 * the one above it; for E4M3FN both the NaN's; for a format of numbers only
 * both the sign bit, past every magnitude. */
static inline ga_bits ga_exponent_field_mask(const struct ga_format *f)
{
    return (ga_all_ones(f) >> 1) & ~(((ga_bits)1 << ga_mantissa_bits(f)) - 1);
}
static inline ga_bits ga_finite_end(const struct ga_format *f)
{
    switch (f->specials) {
    case GA_SPECIALS_IEEE: return ga_exponent_field_mask(f);
    case GA_SPECIALS_NAN_ONLY: return ga_all_ones(f) >> 1;
    default: return ga_sign_mask(f);
    }
}
static inline ga_bits ga_nan_from(const struct ga_format *f)
{
    return f->specials == GA_SPECIALS_IEEE ? ga_exponent_field_mask(f) + 1 : ga_finite_end(f);
}

enum ga_class ga_classify(const struct ga_format *f, ga_bits x);
/* ga_classify(f, x) == GA_NAN, inline: sweeps ask it of every output. */
static inline bool ga_is_nan(const struct ga_format *f, ga_bits x)
{
    return (x & ~ga_sign_mask(f)) >= ga_nan_from(f);
}

/* True when x is a valid encoding of f (no bits above the width). */
static inline bool ga_fits(const struct ga_format *f, uint64_t x) { return x <= ga_all_ones(f); }

/* Bitwise equality, except that any NaN matches any NaN. */
bool ga_same_encoding(const struct ga_format *f, ga_bits a, ga_bits b);

/* Exact: every value of these formats is a double (float64 is one). */
double ga_decode(const struct ga_format *f, ga_bits x);
/* The 2^16 values ga_decode gives, for float16 and bfloat16; NULL for the
 * other formats. */
const double *ga_decode_table(const struct ga_format *f);

/* Round a double to nearest, ties to even, into f: subnormals are rounded
 * on their fixed grid, overflow follows the format's default convention
 * (infinity, or saturation where it has none), NaN gives a quiet NaN that
 * keeps the sign (see ga_quiet_nan for a format without NaN). */
ga_bits ga_encode(const struct ga_format *f, double v);
/* The same with an overflow convention that f allows (ga_overflow_allowed). */
ga_bits ga_encode_overflow(const struct ga_format *f, double v, enum ga_overflow o);
/* Round toward zero (truncate the fraction), subnormals included; beyond
 * the largest finite value this gives the largest finite, as IEEE's
 * rounding toward zero does; infinity stays infinity where f has one. */
ga_bits ga_encode_toward_zero(const struct ga_format *f, double v);
/* The result of an overflow to a value of the given sign under o. */
ga_bits ga_overflow_result(const struct ga_format *f, bool negative, enum ga_overflow o);

/* v rounded to f and back to double: per-operation rounding of a float
 * computation.  Exact for the 16-bit formats when v is a float result. */
double ga_round(const struct ga_format *f, double v);

/* Next representable encoding towards +inf / -inf.  NaN stays NaN;
 * +inf stays +inf going up (the largest finite, in a format without
 * infinity); -0 and +0 both step to the smallest subnormal. */
ga_bits ga_next_up(const struct ga_format *f, ga_bits x);
ga_bits ga_next_down(const struct ga_format *f, ga_bits x);

/* ulp at a real value v (not necessarily representable): 2^(max(e, emin) - p + 1)
 * for |v| in [2^e, 2^(e+1)); the subnormal ulp for |v| below 2^emin and for 0.
 * Zimmermann's and SLEEF's definition (doc/metrics.md, 'ulp error'). */
double ga_ulp(const struct ga_format *f, double v);
/* log2 of that ulp, for values held as mantissa and exponent. */
int ga_ulp_exponent(const struct ga_format *f, int e);

/* A monotone integer for non-NaN encodings: ordinal(next_up(x)) = ordinal(x) + 1,
 * with -0 and +0 both mapped to 0.  Infinities follow the largest finite. */
int64_t ga_ordinal(const struct ga_format *f, ga_bits x);
/* |ordinal(a) - ordinal(b)|: how many steps separate a and b.  Callers handle
 * NaN first; -0 and +0 are 0 apart (a wrong sign of zero is counted apart). */
uint64_t ga_distance(const struct ga_format *f, ga_bits a, ga_bits b);

/* Parse a format encoding written as hex ("0x3f80" or "3f80").  Returns 0 on
 * success, -1 when the text is not hex, -2 when it is too wide for f. */
int ga_parse_bits(const struct ga_format *f, const char *text, ga_bits *out);

/* Write "0x3f80" padded to the format's width in hex digits ("0x3f" for a
 * 6-bit format, "0xf" for a 4-bit one, 16 digits for float64); buf needs
 * GA_BITS_TEXT_LEN bytes. */
#define GA_BITS_TEXT_LEN 20
void ga_format_bits(const struct ga_format *f, ga_bits x, char *buf);

#endif
