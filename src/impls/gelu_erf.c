/* Exact GELU through the C library's error functions.
 *
 * erf    x*0.5*(1 + erf(x*M_SQRT1_2))       PyTorch exact GELU (CUDA kernel and
 *                                            CPU scalar path), computed in float
 * erfc   0.5*x*erfc(-x*sqrt(0.5))           JAX jax.nn.gelu(approximate=False)
 *                                            since 2024; erfcf here is glibc's,
 *                                            not XLA's polynomial
 * The _native forms evaluate the same formulas with every operation and
 * constant rounded to a 16-bit format (native.h):
 * erf_native   x*0.5*(1 + erf(x/sqrt2))     HF gelu_python, TensorFlow:
 *                                            sqrt2 -> 1.4140625 in bfloat16
 * erf_mlx      x*(1 + erf(x/sqrt2))/2     MLX v0.32.1 nn.gelu: halves last, so
 *                                            x*(1 + erf) overflows above max/2
 * erfc_native  0.5*x*erfc(-x*sqrt(0.5))     JAX with a bfloat16/float16 array:
 *                                            sqrt(0.5) -> 0.70703125 in bfloat16
 *
 * The erf form cancels in 1 + erf(u) for negative x: float32 erff(u) rounds
 * to -1 once erfc(|u|) < 2^-25, from x ~ -5.5426, and the result is -0 where
 * the truth is about -8.3e-8 (doc/libraries.md).  The erfc form has no
 * such cancellation. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"
#include "impls/native.h"

/* Special values, by IEEE arithmetic on the formula:
 * NaN -> NaN; +inf -> inf*2 = +inf; -inf -> (-inf)*(1 + -1) = -inf*0 = NaN;
 * +0 -> +0*1 = +0; -0 -> -0*(1 + -0) = -0. */
float ga_gelu_erf_f32(float x)
{
    const float sqrt1_2 = (float)M_SQRT1_2;  /* PyTorch kAlpha */
    float half_x = x * 0.5f;
    float one_plus_erf = 1.0f + erff(x * sqrt1_2);
    return half_x * one_plus_erf;
}

/* NaN -> NaN; +inf -> inf*erfc(-inf) = inf*2 = +inf;
 * -inf -> (-inf)*erfc(+inf) = -inf*(+0) = NaN;
 * +0 -> +0*erfc(-0) = +0; -0 -> -0*erfc(+0) = -0. */
float ga_gelu_erfc_f32(float x)
{
    const float sqrt_half = (float)M_SQRT1_2;  /* np.sqrt(0.5).astype(float32) */
    float half_x = 0.5f * x;
    return half_x * erfcf(-x * sqrt_half);
}

/* Constants rounded: sqrt2 (bfloat16 1.4140625, float16 1.4140625);
 * 0.5 and 1 are exact.  Special values as in ga_gelu_erf_f32:
 * -inf gives NaN, -0 gives -0.  (x*0.5)*(1 + erf) as HF gelu_python. */
float ga_gelu_erf_native(const struct ga_format *f, float x)
{
    float sqrt2 = ga_nat(f, M_SQRT2);
    float u = ga_nat_div(f, x, sqrt2);
    float erf_u = ga_nat(f, erff(u));
    float one_plus_erf = ga_nat_add(f, 1.0f, erf_u);
    float half_x = ga_nat_mul(f, x, 0.5f);
    return ga_nat_mul(f, half_x, one_plus_erf);
}

/* MLX v0.32.1 nn.gelu (python/mlx/nn/layers/activations.py):
 * x*(1 + erf(x/sqrt(2)))/2, each operation on the array's dtype.  Halving
 * last, the product x*(1 + erf) is rounded before it is halved: it
 * overflows to +inf once x*2 does (1 + erf is 2 there), and a subnormal
 * product loses its last bit to the halving.  -inf gives NaN, +inf gives
 * +inf, -0 gives -0 (-0*1/2). */
float ga_gelu_erf_mlx_native(const struct ga_format *f, float x)
{
    float sqrt2 = ga_nat(f, M_SQRT2);
    float erf_u = ga_nat(f, erff(ga_nat_div(f, x, sqrt2)));
    float product = ga_nat_mul(f, x, ga_nat_add(f, 1.0f, erf_u));
    return ga_nat_div(f, product, 2.0f);
}

/* Constants rounded: sqrt(0.5) (bfloat16 0.70703125, float16 0.70703125);
 * 0.5 is exact.  Special values as in ga_gelu_erfc_f32: -inf gives NaN. */
float ga_gelu_erfc_native(const struct ga_format *f, float x)
{
    float sqrt_half = ga_nat(f, M_SQRT1_2);
    float half_x = ga_nat_mul(f, 0.5f, x);
    float v = ga_nat_mul(f, -x, sqrt_half);
    float erfc_v = ga_nat(f, erfcf(v));
    return ga_nat_mul(f, half_x, erfc_v);
}

/* PyTorch 1.13's CPU kernel on bfloat16 tensors (GeluKernel.cpp through
 * Vectorized<BFloat16>, whose every operation converts to float, computes and
 * rounds back): x*0.5*(1 + erf(x*kAlpha)), kAlpha = M_SQRT1_2 rounded to the
 * format (bfloat16 0.70703125).  It multiplies where erf_native divides. */
float ga_gelu_erf_torch_bf16(const struct ga_format *f, float x)
{
    float alpha = ga_nat(f, M_SQRT1_2);
    float half_x = ga_nat_mul(f, x, 0.5f);
    float erf_u = ga_nat(f, erff(ga_nat_mul(f, x, alpha)));
    return ga_nat_mul(f, half_x, ga_nat_add(f, 1.0f, erf_u));
}
