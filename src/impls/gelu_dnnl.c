/* oneDNN 2.6.3's exact GELU (eltwise gelu_erf), as its JIT kernel computes
 * it in float32: src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp,
 * gelu_erf_compute_vector_fwd and exp_compute_vector_fwd, constants from
 * that file's tables (as float bit patterns).  PyTorch 1.13 hands exact
 * GELU of contiguous float32 tensors (and of bfloat16 ones on CPUs with
 * AVX-512 BF16) to this kernel.
 *
 *   u = x*0x3f3504f3 (1/sqrt2);  t = 1/fma(p, |u|, 1)
 *   e = exp_dnnl(-(u*u))          oneDNN's exp, below
 *   r = Horner a5..a1 in t with fma (Abramowitz-Stegun 7.1.26)
 *   erf = sign(x) * fma(-e*t, r, 1)
 *   S = 0.5*x;  gelu = fma(erf, S, S)
 *
 * The last step is what sets it apart from (0.5x)*(1 + erf): for x < 0
 * whose erf rounds to -1 the result is S - S = +0, not -0 (and -0 itself
 * gives +0).
 *
 * exp_dnnl(v): v clamped to [ln FLT_MIN, ln FLT_MAX] (vminps/vmaxps: a NaN
 * becomes the bound), n = floor(v*log2(e) + 0.5), r = fma(-n, ln2, v),
 * p = degree-5 polynomial in r by fma, times 2^(n-1) built in the exponent
 * bits (0 where v < ln FLT_MIN), times 2.
 *
 * bfloat16: oneDNN computes the same float32 and converts it with
 * VCVTNEPS2BF16 (round to nearest even; a subnormal float32 becomes a zero
 * of its sign), so subnormal results are flushed.  Only CPUs with AVX-512
 * BF16 run this path. */
#include "formats/fp_contract.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "impls/catalogue_internal.h"

static float from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* vminps a, b / vmaxps a, b: the second operand when either is NaN. */
static float vmin(float a, float b)
{
    return a < b ? a : b;
}

static float vmax(float a, float b)
{
    return a > b ? a : b;
}

/* Inlined, so that its fmaf() calls are instructions in the FMA copy of
 * ga_gelu_erf_dnnl_f32. */
static inline __attribute__((always_inline)) float exp_dnnl(float v)
{
    const float ln_flt_min = from_bits(0xc2aeac50), ln_flt_max = from_bits(0x42b17218);
    const float log2e = from_bits(0x3fb8aa3b), ln2 = from_bits(0x3f317218);
    const float p1 = from_bits(0x3f7ffffb), p2 = from_bits(0x3efffee3),
                p3 = from_bits(0x3e2aad40), p4 = from_bits(0x3d2b9d0d),
                p5 = from_bits(0x3c07cfce);
    int underflow = v < ln_flt_min;
    float s = vmax(vmin(v, ln_flt_max), ln_flt_min);
    float n = floorf(s * log2e + 0.5f);
    float r = fmaf(-n, ln2, s);
    /* 2^(n-1): n - 1 is in [-127, 127], so the biased exponent fits. */
    int32_t e = (int32_t)(n - 1.0f) + 127;
    float scale = underflow ? 0.0f : from_bits((uint32_t)e << 23);
    float p = fmaf(fmaf(fmaf(fmaf(fmaf(p5, r, p4), r, p3), r, p2), r, p1), r, 1.0f);
    return p * scale * 2.0f;
}

GA_FMA_CLONES float ga_gelu_erf_dnnl_f32(float x)
{
    const float one_over_sqrt2 = from_bits(0x3f3504f3), p = from_bits(0x3ea7ba05);
    const float a1 = from_bits(0x3e827906), a2 = from_bits(0xbe91a98e),
                a3 = from_bits(0x3fb5f0e3), a4 = from_bits(0xbfba00e3),
                a5 = from_bits(0x3f87dc22);
    float u = x * one_over_sqrt2;
    float t = 1.0f / fmaf(p, fabsf(u), 1.0f);
    float minus_e_t = -exp_dnnl(-(u * u)) * t;
    float r = fmaf(fmaf(fmaf(fmaf(a5, t, a4), t, a3), t, a2), t, a1);
    float erf = fmaf(minus_e_t, r, 1.0f);
    float half_x = x * 0.5f;
    if (signbit(x))
        erf = -erf;  /* XOR with x's sign bit */
    return fmaf(erf, half_x, half_x);
}

/* VCVTNEPS2BF16 on the float32 result: a subnormal float32 gives a zero of
 * its sign; anything else rounds to nearest even (NaN stays NaN). */
float ga_gelu_erf_dnnl_bf16(float x)
{
    float y = ga_gelu_erf_dnnl_f32(x);
    return fpclassify(y) == FP_SUBNORMAL ? copysignf(0.0f, y) : y;
}
