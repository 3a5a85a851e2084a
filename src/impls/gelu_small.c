/* GELU kernels for the small formats (float8, float6, float4): the activation
 * computed in float32 and converted once to the format, as a fused
 * "activation + quantize" epilogue does.  Inputs are decoded exactly (every
 * value of these formats is a float); the float32 result is
 *
 *   y = x*0.5f*(1 + erff(x*(float)M_SQRT1_2))      (the erf entry, gelu_erf.c)
 *
 * converted by one of the conversions the hardware and libraries offer:
 * erf_satfinite     to nearest even, anything beyond the largest finite
 *                   (infinities included) saturates to it: PTX cvt.satfinite,
 *                   CUDA __nv_cvt_float_to_fp8(..., __NV_SATFINITE, ...),
 *                   TransformerEngine's casts, the OCP OFP8 saturating mode;
 * erf_overflow_nan  to nearest even, a result beyond the largest finite is
 *                   NaN (E4M3FN; E5M2 keeps its infinities exact): the
 *                   non-saturating mode of the OCP OFP8 spec for E4M3;
 * erf_truncate      the fraction truncated toward zero (a conversion by bit
 *                   shifting), saturating like IEEE rounding toward zero.
 * GELU of a finite input lies between x/2 and x (x > 0) or between x/2 and 0
 * (x < 0), and float32 keeps it there, so no finite input overflows: the
 * first two differ only where an infinity comes in (E5M2: +inf gives +inf,
 * or the largest finite when saturating).  In E4M3FN they agree on every
 * input; their conversions differ only between 448 and 464 and beyond
 * (tests/small_formats_test.c).
 *
 * Special values are float32's: NaN -> NaN; +inf -> +inf; -inf -> NaN
 * (-inf * 0, see gelu_erf.c); +-0 -> +-0. */
#include "formats/fp_contract.h"

#include "formats/format.h"
#include "impls/catalogue_internal.h"

ga_bits ga_gelu_erf_small(const struct ga_format *f, ga_bits x, enum ga_small_conversion how)
{
    return ga_gelu_erf_cast(f, x, f, how);
}

/* A wider input (bfloat16, float16, float32) is exactly a float too; its
 * GELU can exceed the small format's largest finite, and there the
 * conversions part: satfinite gives the largest finite, overflow_nan NaN
 * (an infinite y stays infinite in E5M2), truncation the largest finite. */
ga_bits ga_gelu_erf_cast(const struct ga_format *in, ga_bits x, const struct ga_format *out,
                         enum ga_small_conversion how)
{
    float y = ga_gelu_erf_f32((float)ga_decode(in, x));

    switch (how) {
    case GA_SMALL_SATFINITE: return ga_encode_overflow(out, y, GA_OVERFLOW_SATFINITE);
    case GA_SMALL_OVERFLOW_NAN: return ga_encode_overflow(out, y, GA_OVERFLOW_NAN);
    default: return ga_encode_toward_zero(out, y);
    }
}
