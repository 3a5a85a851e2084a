/* The format table, special encodings, classification and bit-level text. */
#include "formats/format.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* IEEE 754 binary32, IEEE 754 binary16, and bfloat16 (the top half of a
 * binary32: same exponent range, 8-bit significand); then the small formats
 * of low-precision inference: OCP 8-bit floating point (OFP8, v1.0, 2023)
 * E4M3 and E5M2, and the OCP Microscaling (MX v1.0) element types FP6 E2M3,
 * FP6 E3M2 and FP4 E2M1; and IEEE 754 binary64.  The bias is 1 - emin in every row: E4M3's 7 with
 * emax 8 (its exponent field 1111 holds numbers up to 448), E2M3's and
 * E2M1's 1, E3M2's 3.  doc/formats.md. */
static const struct ga_format formats[GA_FORMAT_COUNT] = {
    [GA_FLOAT32] = { GA_FLOAT32, "float32", 32, 24, -126, 127, GA_SPECIALS_IEEE },
    [GA_FLOAT16] = { GA_FLOAT16, "float16", 16, 11, -14, 15, GA_SPECIALS_IEEE },
    [GA_BFLOAT16] = { GA_BFLOAT16, "bfloat16", 16, 8, -126, 127, GA_SPECIALS_IEEE },
    /* largest 1.75 * 2^8 = 448 (S.1111.111 is NaN), smallest 2^-9 */
    [GA_FLOAT8_E4M3FN] = { GA_FLOAT8_E4M3FN, "float8_e4m3fn", 8, 4, -6, 8, GA_SPECIALS_NAN_ONLY },
    /* largest 1.75 * 2^15 = 57344, smallest 2^-16 */
    [GA_FLOAT8_E5M2] = { GA_FLOAT8_E5M2, "float8_e5m2", 8, 3, -14, 15, GA_SPECIALS_IEEE },
    /* largest 1.875 * 2^2 = 7.5, smallest 2^-3 */
    [GA_FLOAT6_E2M3] = { GA_FLOAT6_E2M3, "float6_e2m3", 6, 4, 0, 2, GA_SPECIALS_NONE },
    /* largest 1.75 * 2^4 = 28, smallest 2^-4 */
    [GA_FLOAT6_E3M2] = { GA_FLOAT6_E3M2, "float6_e3m2", 6, 3, -2, 4, GA_SPECIALS_NONE },
    /* largest 1.5 * 2^2 = 6, smallest 2^-1 */
    [GA_FLOAT4_E2M1] = { GA_FLOAT4_E2M1, "float4_e2m1", 4, 2, 0, 2, GA_SPECIALS_NONE },
    /* IEEE 754 binary64: largest (2 - 2^-52) * 2^1023, smallest 2^-1074 */
    [GA_FLOAT64] = { GA_FLOAT64, "float64", 64, 53, -1022, 1023, GA_SPECIALS_IEEE },
};

const struct ga_format *ga_format_get(enum ga_format_id id)
{
    return (unsigned)id < GA_FORMAT_COUNT ? &formats[id] : NULL;
}

const struct ga_format *ga_format_by_name(const char *name)
{
    for (int i = 0; i < GA_FORMAT_COUNT; i++)
        if (strcmp(formats[i].name, name) == 0)
            return &formats[i];
    return NULL;
}

const char *ga_format_names(void)
{
    return "float32, float16, bfloat16, float8_e4m3fn, float8_e5m2, float6_e2m3, "
           "float6_e3m2, float4_e2m1, float64";
}

static const char *const overflow_names[] = {
    [GA_OVERFLOW_INFINITY] = "infinity",
    [GA_OVERFLOW_SATFINITE] = "satfinite",
    [GA_OVERFLOW_NAN] = "nan",
};

const char *ga_overflow_name(enum ga_overflow o)
{
    return (unsigned)o <= GA_OVERFLOW_NAN ? overflow_names[o] : NULL;
}

int ga_overflow_by_name(const char *name, enum ga_overflow *o)
{
    for (int i = 0; i <= GA_OVERFLOW_NAN; i++)
        if (strcmp(overflow_names[i], name) == 0) {
            *o = (enum ga_overflow)i;
            return 0;
        }
    return -1;
}

bool ga_overflow_allowed(const struct ga_format *f, enum ga_overflow o)
{
    return o == GA_OVERFLOW_SATFINITE || (o == GA_OVERFLOW_INFINITY && ga_has_infinity(f))
        || (o == GA_OVERFLOW_NAN && ga_has_nan(f));
}

static ga_bits exponent_field_mask(const struct ga_format *f)
{
    return ga_exponent_field_mask(f);
}

static ga_bits mantissa_field_mask(const struct ga_format *f)
{
    return ((ga_bits)1 << ga_mantissa_bits(f)) - 1;
}

static ga_bits with_sign(const struct ga_format *f, ga_bits magnitude, bool negative)
{
    return negative ? magnitude | ga_sign_mask(f) : magnitude;
}

ga_bits ga_zero(const struct ga_format *f, bool negative)
{
    return with_sign(f, 0, negative);
}

ga_bits ga_infinity(const struct ga_format *f, bool negative)
{
    return ga_has_infinity(f) ? with_sign(f, exponent_field_mask(f), negative)
                              : ga_max_finite(f, negative);
}

/* The quiet bit is the top mantissa bit; E4M3FN has one NaN magnitude. */
ga_bits ga_quiet_nan(const struct ga_format *f)
{
    switch (f->specials) {
    case GA_SPECIALS_IEEE:
        return exponent_field_mask(f) | ((ga_bits)1 << (ga_mantissa_bits(f) - 1));
    case GA_SPECIALS_NAN_ONLY: return ga_finite_end(f);
    default: return (ga_bits)ga_encoding_count(f);
    }
}

ga_bits ga_max_finite(const struct ga_format *f, bool negative)
{
    return with_sign(f, ga_finite_end(f) - 1, negative);
}

ga_bits ga_min_subnormal(const struct ga_format *f, bool negative)
{
    return with_sign(f, 1, negative);
}

enum ga_class ga_classify(const struct ga_format *f, ga_bits x)
{
    ga_bits exponent = x & exponent_field_mask(f);
    ga_bits mantissa = x & mantissa_field_mask(f);
    ga_bits magnitude = x & ~ga_sign_mask(f);

    if (magnitude >= ga_nan_from(f))
        return GA_NAN;
    if (magnitude == ga_finite_end(f))  /* only reached where there is an infinity */
        return GA_INFINITE;
    if (exponent == 0)
        return mantissa ? GA_SUBNORMAL : GA_ZERO;
    return GA_NORMAL;
}

bool ga_same_encoding(const struct ga_format *f, ga_bits a, ga_bits b)
{
    if (ga_is_nan(f, a) || ga_is_nan(f, b))
        return ga_is_nan(f, a) && ga_is_nan(f, b);
    return a == b;
}

int ga_parse_bits(const struct ga_format *f, const char *text, ga_bits *out)
{
    const char *p = text;
    uint64_t value = 0;
    int digits = 0;

    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        p += 2;
    for (; *p; p++, digits++) {
        int d;
        if (!isxdigit((unsigned char)*p))
            return -1;
        d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
        if (value > (UINT64_MAX >> 4))
            return -2;
        value = value << 4 | (uint64_t)d;
    }
    if (digits == 0)
        return -1;
    if (!ga_fits(f, value))
        return -2;
    *out = (ga_bits)value;
    return 0;
}

void ga_format_bits(const struct ga_format *f, ga_bits x, char *buf)
{
    snprintf(buf, GA_BITS_TEXT_LEN, "0x%0*" PRIx64, (f->bits + 3) / 4, x);
}
