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
#include "impls/proven.h"

/* PyTorch's kBeta = M_SQRT2 * M_2_SQRTPI * 0.5 rounded to float; ggml's
 * 0.79788456080286535587989211986876f and HF's 0.7978845608 give the same
 * float (checked in tests/catalogue_test.c). */
#define BETA (M_SQRT2 * M_2_SQRTPI * 0.5)
#define KAPPA 0.044715

/* The constants of the proven models (impls/proven.h). */
enum { BETA_K, KAPPA_K, HALF, ONE };
static const char *const tanh_constants[] = { "beta", "kappa", "0.5 in 0.5x", "1 in 1 + tanh",
                                              NULL };

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
static const struct ga_proven_table fma_table = { { (float)BETA, (float)KAPPA, 0.5, 1 }, 0 };
static const char *const no_steps[] = { NULL };

static inline __attribute__((always_inline)) float tanh_fma(const struct ga_proven_table *c,
                                                           float x)
{
    const float beta = (float)c->k[BETA_K], kappa = (float)c->k[KAPPA_K];
    float x3 = x * x * x;
    float inner = beta * fmaf(kappa, x3, x);
    float half_x = (float)c->k[HALF] * x;
    return half_x * ((float)c->k[ONE] + tanhf(inner));
}

GA_FMA_CLONES float ga_gelu_tanh_fma_f32(float x)
{
    return tanh_fma(&fma_table, x);
}

GA_FMA_CLONES static double fma_form(const struct ga_proven_table *c, const struct ga_format *f,
                                     double x)
{
    (void)f;
    return tanh_fma(c, (float)x);
}

const struct ga_proven_model ga_proven_tanh_fma = { "tanh_fma", &fma_table, tanh_constants,
                                                    no_steps, GA_PROVEN_ULP_FLOAT32, fma_form };

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
 * gives x and x < 0 gives -0.  Special values as the float32 form.  Each
 * rounding to the format is a step of the table. */
enum { N_BETA = 1u << 0, N_KAPPA = 1u << 1, N_X2 = 1u << 2, N_X3 = 1u << 3, N_KX3 = 1u << 4,
       N_SUM = 1u << 5, N_INNER = 1u << 6, N_TANH = 1u << 7, N_HALF_X = 1u << 8,
       N_ONE_PLUS = 1u << 9, N_PRODUCT = 1u << 10 };
static const struct ga_proven_table native_table = { { BETA, KAPPA, 0.5, 1 }, (1u << 11) - 1 };
static const char *const native_steps[] = {
    "beta rounded", "kappa rounded", "x*x rounded", "x^3 rounded", "kappa*x^3 rounded",
    "x + kappa*x^3 rounded", "beta*(...) rounded", "tanh rounded", "0.5x rounded",
    "1 + tanh rounded", "product rounded", NULL
};

static float tanh_native(const struct ga_proven_table *c, const struct ga_format *f, float x)
{
    float beta = ga_proven_round(c, N_BETA, f, c->k[BETA_K]);
    float kappa = ga_proven_round(c, N_KAPPA, f, c->k[KAPPA_K]);
    float x3 = ga_proven_round(c, N_X3, f, ga_proven_round(c, N_X2, f, x * x) * x);
    float sum = ga_proven_round(c, N_SUM, f, x + ga_proven_round(c, N_KX3, f, kappa * x3));
    float inner = ga_proven_round(c, N_INNER, f, beta * sum);
    float t = ga_proven_round(c, N_TANH, f, tanhf(inner));
    float half_x = ga_proven_round(c, N_HALF_X, f, (float)c->k[HALF] * x);
    return ga_proven_round(c, N_PRODUCT, f,
                           half_x * ga_proven_round(c, N_ONE_PLUS, f, (float)c->k[ONE] + t));
}

float ga_gelu_tanh_native(const struct ga_format *f, float x)
{
    return tanh_native(&native_table, f, x);
}

static double native_form(const struct ga_proven_table *c, const struct ga_format *f, double x)
{
    return tanh_native(c, f, (float)x);
}

const struct ga_proven_model ga_proven_tanh_native = {
    "tanh_native", &native_table, tanh_constants, native_steps, GA_PROVEN_ULP_FORMAT, native_form
};

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
