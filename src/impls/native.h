/* Per-operation rounding into a 16-bit format: how MLX, JAX and eager
 * frameworks evaluate a formula on bfloat16 or float16 arrays.
 *
 * Each +, -, *, / is computed in float and the float result is rounded to
 * the format.  That equals the exactly rounded operation because float has
 * 24 >= 2p + 2 bits for p = 8 (bfloat16) and p = 11 (float16)
 * (doc/formats.md, 'Per-operation rounding in a 16-bit format').  A library
 * function (erff, tanhf, expf, erfcf) is evaluated in float on a format
 * value and its result rounded, as these libraries do for 16-bit
 * transcendental ops.  Constants are rounded from their double value
 * straight to the format (JAX: np.sqrt(2/np.pi).astype(dtype)). */
#ifndef GA_NATIVE_H
#define GA_NATIVE_H

#include "formats/format.h"

/* v rounded to f; exact in float because every 16-bit value is a float. */
static inline float ga_nat(const struct ga_format *f, double v)
{
    return (float)ga_round(f, v);
}

static inline float ga_nat_add(const struct ga_format *f, float a, float b)
{
    return ga_nat(f, a + b);
}

static inline float ga_nat_sub(const struct ga_format *f, float a, float b)
{
    return ga_nat(f, a - b);
}

static inline float ga_nat_mul(const struct ga_format *f, float a, float b)
{
    return ga_nat(f, a * b);
}

static inline float ga_nat_div(const struct ga_format *f, float a, float b)
{
    return ga_nat(f, a / b);
}

#endif
