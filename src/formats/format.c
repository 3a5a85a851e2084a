/* The format table, special encodings, classification and bit-level text. */
#include "formats/format.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* IEEE 754 binary32, IEEE 754 binary16, and bfloat16 (the top half of a
 * binary32: same exponent range, 8-bit significand).  doc/formats.md. */
static const struct ga_format formats[GA_FORMAT_COUNT] = {
    [GA_FLOAT32] = { GA_FLOAT32, "float32", 32, 24, -126, 127 },
    [GA_FLOAT16] = { GA_FLOAT16, "float16", 16, 11, -14, 15 },
    [GA_BFLOAT16] = { GA_BFLOAT16, "bfloat16", 16, 8, -126, 127 },
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
    return "float32, float16, bfloat16";
}

static ga_bits exponent_field_mask(const struct ga_format *f)
{
    return (ga_all_ones(f) >> 1) & ~(((ga_bits)1 << ga_mantissa_bits(f)) - 1);
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
    return with_sign(f, exponent_field_mask(f), negative);
}

/* The quiet bit is the top mantissa bit. */
ga_bits ga_quiet_nan(const struct ga_format *f)
{
    return exponent_field_mask(f) | ((ga_bits)1 << (ga_mantissa_bits(f) - 1));
}

ga_bits ga_max_finite(const struct ga_format *f, bool negative)
{
    return with_sign(f, exponent_field_mask(f) - 1, negative);
}

ga_bits ga_min_subnormal(const struct ga_format *f, bool negative)
{
    return with_sign(f, 1, negative);
}

enum ga_class ga_classify(const struct ga_format *f, ga_bits x)
{
    ga_bits exponent = x & exponent_field_mask(f);
    ga_bits mantissa = x & mantissa_field_mask(f);

    if (exponent == exponent_field_mask(f))
        return mantissa ? GA_NAN : GA_INFINITE;
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
    snprintf(buf, 11, "0x%0*x", f->bits / 4, (unsigned)x);
}
