/* Binary floating-point formats: one table entry describes each.
 *
 * An encoding travels as a uint32_t holding the format's bits right-aligned
 * (a float16 encoding is 0x0000..0xffff).  Values cross boundaries as
 * encodings; compare them with ga_same_encoding, never with == on floats:
 * +0 and -0 differ, and any NaN matches any NaN. */
#ifndef GA_FORMAT_H
#define GA_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

typedef uint32_t ga_bits;

enum ga_format_id { GA_FLOAT32, GA_FLOAT16, GA_BFLOAT16, GA_FORMAT_COUNT };

/* An IEEE-style binary format with subnormals, infinities and NaNs.
 * Normal numbers are m * 2^e with 1 <= m < 2 and emin <= e <= emax. */
struct ga_format {
    enum ga_format_id id;
    const char *name;
    int bits;        /* storage width */
    int precision;   /* significand bits, hidden bit included */
    int emin, emax;  /* IEEE exponent range of normal numbers */
};

enum ga_class { GA_ZERO, GA_SUBNORMAL, GA_NORMAL, GA_INFINITE, GA_NAN };

/* Table access.  ga_format_by_name returns NULL for an unknown name. */
const struct ga_format *ga_format_get(enum ga_format_id id);
const struct ga_format *ga_format_by_name(const char *name);
/* "float32, float16, bfloat16": for help texts and error messages. */
const char *ga_format_names(void);

/* Derived layout. */
static inline int ga_mantissa_bits(const struct ga_format *f) { return f->precision - 1; }
static inline int ga_exponent_bits(const struct ga_format *f) { return f->bits - f->precision; }
static inline ga_bits ga_sign_mask(const struct ga_format *f) { return (ga_bits)1 << (f->bits - 1); }
static inline ga_bits ga_all_ones(const struct ga_format *f)
{
    return (ga_bits)(((uint64_t)1 << f->bits) - 1);
}
/* Number of encodings: 2^bits. */
static inline uint64_t ga_encoding_count(const struct ga_format *f) { return (uint64_t)1 << f->bits; }
static inline bool ga_sign(const struct ga_format *f, ga_bits x) { return (x & ga_sign_mask(f)) != 0; }
static inline ga_bits ga_negate(const struct ga_format *f, ga_bits x) { return x ^ ga_sign_mask(f); }

/* Encodings of special values. */
ga_bits ga_zero(const struct ga_format *f, bool negative);
ga_bits ga_infinity(const struct ga_format *f, bool negative);
ga_bits ga_quiet_nan(const struct ga_format *f);
ga_bits ga_max_finite(const struct ga_format *f, bool negative);
ga_bits ga_min_subnormal(const struct ga_format *f, bool negative);

enum ga_class ga_classify(const struct ga_format *f, ga_bits x);
static inline bool ga_is_nan(const struct ga_format *f, ga_bits x) { return ga_classify(f, x) == GA_NAN; }

/* True when x is a valid encoding of f (no bits above the width). */
static inline bool ga_fits(const struct ga_format *f, uint64_t x) { return x <= ga_all_ones(f); }

/* Bitwise equality, except that any NaN matches any NaN. */
bool ga_same_encoding(const struct ga_format *f, ga_bits a, ga_bits b);

/* Exact: every value of these formats is a double. */
double ga_decode(const struct ga_format *f, ga_bits x);

/* Round a double to nearest, ties to even, into f: subnormals are rounded
 * on their fixed grid, overflow gives infinity, NaN gives a quiet NaN that
 * keeps the sign. */
ga_bits ga_encode(const struct ga_format *f, double v);

/* v rounded to f and back to double: per-operation rounding of a float
 * computation.  Exact for the 16-bit formats when v is a float result. */
double ga_round(const struct ga_format *f, double v);

/* Next representable encoding towards +inf / -inf.  NaN stays NaN;
 * +inf stays +inf going up; -0 and +0 both step to the smallest subnormal. */
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

/* Write "0x3f80" padded to the format's width; buf needs 11 bytes. */
void ga_format_bits(const struct ga_format *f, ga_bits x, char *buf);

#endif
