/* The tanh approximation gelu_tanh(x) = 0.5x(1 + tanh(beta(x + kappa x^3))),
 * beta = sqrt(2/pi), kappa = 0.044715, written three ways:
 *
 * tanh           0.5*x*(1 + tanh(beta*(x + kappa*(x*x*x))))
 *                PyTorch gelu(approximate='tanh'), CUDA and CPU, in float
 * tanh_fma       0.5*x*(1 + tanh(beta*fma(kappa, x*x*x, x)))
 *                the same with x + kappa*x^3 fused, as GCC compiles PyTorch
 *                1.13's CPU kernel (GeluKernel.cpp, built with FMA for AVX2)
 * tanh_factored  0.5*x*(1 + tanh(beta*x*(1 + kappa*x*x)))
 *                HF gelu_fast / FastGELUActivation, ggml ggml_gelu_f32
 * sigmoid        x/(1 + exp(-2u)), u = beta*(x + kappa*(x*x*x))
 *                the same function as x*sigmoid(2u): no cancellation
 *
 * The _native forms evaluate the same expressions with every operation and
 * constant rounded to a 16-bit format (native.h), as MLX, JAX and HF eager do
 * on bfloat16/float16 arrays; x^3 is two rounded products (JAX integer_pow).
 *
 * In float32 the first two cancel in 1 + tanh(u): tanhf(u) rounds to -1 and
 * the result is -0 from x ~ -5.158 (doc/libraries.md).  The sigmoid form
 * keeps its relative accuracy until exp(-2u) overflows (x < -10.06). */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"
#include "impls/native.h"

/* PyTorch's kBeta = M_SQRT2 * M_2_SQRTPI * 0.5 rounded to float; ggml's
 * 0.79788456080286535587989211986876f and HF's 0.7978845608 give the same
 * float (checked in tests/catalogue_test.c). */
#define BETA (M_SQRT2 * M_2_SQRTPI * 0.5)
#define KAPPA 0.044715

/* NaN -> NaN; +inf -> x^3 = inf, tanh = 1, inf*2 = +inf;
 * -inf -> tanh(-inf) = -1, (-inf)*(1 - 1) = -inf*0 = NaN;
 * -0 -> x^3 = -0, tanh(-0) = -0, (-0)*(1 - 0) = -0; +0 -> +0.
 * x^3 overflows for |x| > 6.98e12, where tanh is already +-1. */
float ga_gelu_tanh_f32(float x)
{
    const float beta = (float)BETA, kappa = (float)KAPPA;
    float x3 = x * x * x;
    float inner = beta * (x + kappa * x3);
    float half_x = 0.5f * x;
    return half_x * (1.0f + tanhf(inner));
}

/* As ga_gelu_tanh_f32, with one rounding fewer: kappa*x^3 + x fused. */
GA_FMA_CLONES float ga_gelu_tanh_fma_f32(float x)
{
    const float beta = (float)BETA, kappa = (float)KAPPA;
    float x3 = x * x * x;
    float inner = beta * fmaf(kappa, x3, x);
    float half_x = 0.5f * x;
    return half_x * (1.0f + tanhf(inner));
}

/* NaN -> NaN; +inf -> +inf; -inf -> 1 + kappa*x*x = inf, beta*x*inf = -inf,
 * tanh = -1, -inf*0 = NaN; -0 -> (beta*-0)*(1 + 0) = -0, -0*(1 - 0) = -0.
 * ggml's table is built from this form (gelu_lut_f16.c). */
float ga_gelu_tanh_factored_f32(float x)
{
    const float beta = (float)BETA, kappa = (float)KAPPA;
    float inner = beta * x * (1.0f + kappa * x * x);
    float half_x = 0.5f * x;
    return half_x * (1.0f + tanhf(inner));
}

/* NaN -> NaN; +inf -> exp(-inf) = 0, inf/1 = +inf;
 * -inf -> exp(+inf) = inf, -inf/inf = NaN;
 * -0 -> u = -0, exp(+0) = 1, -0/2 = -0; +0 -> +0.
 * For x below -10.06, exp(-2u) overflows to inf and the result is -0. */
float ga_gelu_sigmoid_f32(float x)
{
    const float beta = (float)BETA, kappa = (float)KAPPA;
    float x3 = x * x * x;
    float u = beta * (x + kappa * x3);
    return x / (1.0f + expf(-2.0f * u));
}

/* Rounded constants: beta (bfloat16 0.796875, float16 0.79785156) and kappa
 * (bfloat16 0.044677734, float16 0.044708252); 0.5 and 1 are exact.
 * In float16 x^3 overflows for |x| >= 40.3: tanh is then +-1, so x > 0
 * gives x and x < 0 gives -0.  Special values as the float32 form. */
float ga_gelu_tanh_native(const struct ga_format *f, float x)
{
    float beta = ga_nat(f, BETA), kappa = ga_nat(f, KAPPA);
    float x3 = ga_nat_mul(f, ga_nat_mul(f, x, x), x);
    float inner = ga_nat_mul(f, beta, ga_nat_add(f, x, ga_nat_mul(f, kappa, x3)));
    float t = ga_nat(f, tanhf(inner));
    float half_x = ga_nat_mul(f, 0.5f, x);
    return ga_nat_mul(f, half_x, ga_nat_add(f, 1.0f, t));
}

/* Rounded constants: beta and kappa as above.  Special values as the
 * float32 form. */
float ga_gelu_tanh_factored_native(const struct ga_format *f, float x)
{
    float beta = ga_nat(f, BETA), kappa = ga_nat(f, KAPPA);
    float poly = ga_nat_add(f, 1.0f, ga_nat_mul(f, ga_nat_mul(f, kappa, x), x));
    float inner = ga_nat_mul(f, ga_nat_mul(f, beta, x), poly);
    float t = ga_nat(f, tanhf(inner));
    float half_x = ga_nat_mul(f, 0.5f, x);
    return ga_nat_mul(f, half_x, ga_nat_add(f, 1.0f, t));
}

/* Rounded constants: beta and kappa as above; 2 and 1 are exact.  exp(-2u)
 * overflows the format far earlier than float: bfloat16 shares float's range,
 * float16 overflows once -2u > 11.09 (from x = -4.03125), giving -0.  Special values
 * as the float32 form. */
float ga_gelu_sigmoid_native(const struct ga_format *f, float x)
{
    float beta = ga_nat(f, BETA), kappa = ga_nat(f, KAPPA);
    float x3 = ga_nat_mul(f, ga_nat_mul(f, x, x), x);
    float u = ga_nat_mul(f, beta, ga_nat_add(f, x, ga_nat_mul(f, kappa, x3)));
    float e = ga_nat(f, expf(ga_nat_mul(f, -2.0f, u)));
    return ga_nat_div(f, x, ga_nat_add(f, 1.0f, e));
}
