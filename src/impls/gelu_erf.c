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
#include "impls/proven.h"

/* The constants of the proven models (impls/proven.h). */
enum { SQRT_K, HALF, ONE };
static const struct ga_proven_table erf_table = { { (float)M_SQRT1_2, 0.5, 1 }, 0 };
static const char *const erf_constants[] = { "1/sqrt2", "0.5 in 0.5x", "1 in 1 + erf", NULL };
static const char *const no_steps[] = { NULL };

/* Special values, by IEEE arithmetic on the formula:
 * NaN -> NaN; +inf -> inf*2 = +inf; -inf -> (-inf)*(1 + -1) = -inf*0 = NaN;
 * +0 -> +0*1 = +0; -0 -> -0*(1 + -0) = -0. */
static inline float erf_f32(const struct ga_proven_table *c, float x)
{
    const float sqrt1_2 = (float)c->k[SQRT_K];  /* PyTorch kAlpha */
    float half_x = x * (float)c->k[HALF];
    float one_plus_erf = (float)c->k[ONE] + erff(x * sqrt1_2);
    return half_x * one_plus_erf;
}

float ga_gelu_erf_f32(float x)
{
    return erf_f32(&erf_table, x);
}

static double erf_form(const struct ga_proven_table *c, const struct ga_format *f, double x)
{
    (void)f;
    return erf_f32(c, (float)x);
}

const struct ga_proven_model ga_proven_erf = { "erf", &erf_table, erf_constants, no_steps,
                                               GA_PROVEN_ULP_FLOAT32, erf_form };

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
 * -inf gives NaN, -0 gives -0.  (x*0.5)*(1 + erf) as HF gelu_python.
 * Each rounding to the format is a step of the table. */
enum { NAT_SQRT2 = 1u << 0, NAT_U = 1u << 1, NAT_ERF = 1u << 2, NAT_SUM = 1u << 3,
       NAT_HALF_X = 1u << 4, NAT_PRODUCT = 1u << 5 };
static const struct ga_proven_table native_table = {
    { M_SQRT2, 0.5, 1 }, NAT_SQRT2 | NAT_U | NAT_ERF | NAT_SUM | NAT_HALF_X | NAT_PRODUCT
};
static const char *const native_constants[] = { "sqrt2", "0.5 in 0.5x", "1 in 1 + erf", NULL };
static const char *const native_steps[] = { "sqrt2 rounded", "x/sqrt2 rounded", "erf rounded",
                                            "1 + erf rounded", "0.5x rounded",
                                            "product rounded", NULL };

static float erf_native(const struct ga_proven_table *c, const struct ga_format *f, float x)
{
    float sqrt2 = ga_proven_round(c, NAT_SQRT2, f, c->k[SQRT_K]);
    float u = ga_proven_round(c, NAT_U, f, x / sqrt2);
    float erf_u = ga_proven_round(c, NAT_ERF, f, erff(u));
    float one_plus_erf = ga_proven_round(c, NAT_SUM, f, (float)c->k[ONE] + erf_u);
    float half_x = ga_proven_round(c, NAT_HALF_X, f, x * (float)c->k[HALF]);
    return ga_proven_round(c, NAT_PRODUCT, f, half_x * one_plus_erf);
}

float ga_gelu_erf_native(const struct ga_format *f, float x)
{
    return erf_native(&native_table, f, x);
}

static double native_form(const struct ga_proven_table *c, const struct ga_format *f, double x)
{
    return erf_native(c, f, (float)x);
}

const struct ga_proven_model ga_proven_erf_native = {
    "erf_native", &native_table, native_constants, native_steps, GA_PROVEN_ULP_FORMAT, native_form
};

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
enum { TB_ALPHA = 1u << 0, TB_HALF_X = 1u << 1, TB_U = 1u << 2, TB_ERF = 1u << 3,
       TB_SUM = 1u << 4, TB_PRODUCT = 1u << 5 };
static const struct ga_proven_table torch_table = {
    { M_SQRT1_2, 0.5, 1 }, TB_ALPHA | TB_HALF_X | TB_U | TB_ERF | TB_SUM | TB_PRODUCT
};
static const char *const torch_steps[] = { "kAlpha rounded", "0.5x rounded", "x*kAlpha rounded",
                                           "erf rounded", "1 + erf rounded", "product rounded",
                                           NULL };

static float erf_torch(const struct ga_proven_table *c, const struct ga_format *f, float x)
{
    float alpha = ga_proven_round(c, TB_ALPHA, f, c->k[SQRT_K]);
    float half_x = ga_proven_round(c, TB_HALF_X, f, x * (float)c->k[HALF]);
    float erf_u = ga_proven_round(c, TB_ERF, f, erff(ga_proven_round(c, TB_U, f, x * alpha)));
    float sum = ga_proven_round(c, TB_SUM, f, (float)c->k[ONE] + erf_u);
    return ga_proven_round(c, TB_PRODUCT, f, half_x * sum);
}

float ga_gelu_erf_torch_bf16(const struct ga_format *f, float x)
{
    return erf_torch(&torch_table, f, x);
}

static double torch_form(const struct ga_proven_table *c, const struct ga_format *f, double x)
{
    return erf_torch(c, f, (float)x);
}

const struct ga_proven_model ga_proven_erf_torch_bf16 = {
    "erf_torch_bf16", &torch_table, erf_constants, torch_steps, GA_PROVEN_ULP_FORMAT, torch_form
};
