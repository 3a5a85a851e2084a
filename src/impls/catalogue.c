/* The built-in catalogue: one table, the single source of truth for the
 * implementations under test.  Adding one: write its scalar form (with the
 * formula and what it models at the top of its file), declare it in
 * catalogue_internal.h, generate its batch function below, add its entry.
 *
 * Names are stable: reports and users' scripts refer to them.  Plain names
 * take all three formats; a 16-bit input is computed in float and rounded
 * once (PyTorch "opmath").  _native names exist for the 16-bit formats only
 * and round every operation and constant to the format.  The entries of the
 * small formats (float8, float6, float4: gelu_small.c, gelu_small_lut.c)
 * take those formats only, so the wide formats' reports list none of them;
 * so do the _f64 entries, float64's (gelu_f64.c). */
#include "impls/impl.h"

#include <string.h>

#include "impls/batch.h"
#include "impls/catalogue_internal.h"

#define F32 GA_FORMAT_BIT(GA_FLOAT32)
#define F16 GA_FORMAT_BIT(GA_FLOAT16)
#define BF16 GA_FORMAT_BIT(GA_BFLOAT16)
#define F64 GA_FORMAT_BIT(GA_FLOAT64)
#define ALL_FORMATS (F32 | F16 | BF16)
#define HALF_FORMATS (F16 | BF16)
#define FP8_FORMATS (GA_FORMAT_BIT(GA_FLOAT8_E4M3FN) | GA_FORMAT_BIT(GA_FLOAT8_E5M2))
#define SMALL_FORMATS (FP8_FORMATS | GA_FORMAT_BIT(GA_FLOAT6_E2M3) \
                       | GA_FORMAT_BIT(GA_FLOAT6_E3M2) | GA_FORMAT_BIT(GA_FLOAT4_E2M1))

#define OPMATH(fn) "float32 with C " fn "; 16-bit: float32, rounded once (opmath)"
#define NATIVE "the format itself: every operation and constant rounded to it"

GA_DEFINE_OPMATH_RUN(run_erf, ga_gelu_erf_f32)
GA_DEFINE_OPMATH_RUN(run_erfc, ga_gelu_erfc_f32)
GA_DEFINE_OPMATH_RUN(run_tanh, ga_gelu_tanh_f32)
GA_DEFINE_OPMATH_RUN(run_tanh_factored, ga_gelu_tanh_factored_f32)
GA_DEFINE_OPMATH_RUN(run_sigmoid, ga_gelu_sigmoid_f32)
GA_DEFINE_OPMATH_RUN(run_quick, ga_gelu_quick_f32)
GA_DEFINE_OPMATH_RUN(run_erf_as, ga_gelu_erf_as_f32)
GA_DEFINE_OPMATH_RUN(run_tanh_fma, ga_gelu_tanh_fma_f32)
GA_DEFINE_DOUBLE_RUN(run_double, ga_gelu_double)
GA_DEFINE_F64_RUN(run_erf_f64, ga_gelu_erf_f64)
GA_DEFINE_F64_RUN(run_erfc_f64, ga_gelu_erfc_f64)
GA_DEFINE_F64_RUN(run_tanh_f64, ga_gelu_tanh_f64)
GA_DEFINE_NATIVE_RUN(run_erf_native, ga_gelu_erf_native)
GA_DEFINE_NATIVE_RUN(run_erf_mlx, ga_gelu_erf_mlx_native)
GA_DEFINE_NATIVE_RUN(run_erf_torch_bf16, ga_gelu_erf_torch_bf16)
GA_DEFINE_NATIVE_RUN(run_erfc_native, ga_gelu_erfc_native)
GA_DEFINE_NATIVE_RUN(run_tanh_native, ga_gelu_tanh_native)
GA_DEFINE_NATIVE_RUN(run_tanh_factored_native, ga_gelu_tanh_factored_native)
GA_DEFINE_NATIVE_RUN(run_sigmoid_native, ga_gelu_sigmoid_native)
GA_DEFINE_NATIVE_RUN(run_quick_native, ga_gelu_quick_native)
GA_DEFINE_NATIVE_RUN(run_erf_as_native, ga_gelu_erf_as_native)

/* ggml: float32 through the float16 table; float16 straight from it. */
static int run_lut_f16(const struct ga_impl *impl, const struct ga_format *f,
                       const ga_bits *in, ga_bits *out, size_t n,
                       struct ga_run_failure *failure)
{
    const float *table;

    if (!ga_impl_supports(impl, f))
        return ga_batch_unsupported(impl, f, n, failure);
    table = ga_gelu_lut_f16_table();
    if (f->id == GA_FLOAT32) {
        for (size_t i = 0; i < n; i++)
            out[i] = ga_bits_from_f32(ga_gelu_lut_f16_f32(table, ga_f32_from_bits(in[i])));
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = ga_encode(f, table[in[i] & 0xffffu]);
    }
    return 0;
}

/* oneDNN: float32 as its JIT kernel; bfloat16 the same, converted by
 * VCVTNEPS2BF16 (subnormal results flushed). */
static int run_erf_dnnl(const struct ga_impl *impl, const struct ga_format *f,
                        const ga_bits *in, ga_bits *out, size_t n,
                        struct ga_run_failure *failure)
{
    if (!ga_impl_supports(impl, f))
        return ga_batch_unsupported(impl, f, n, failure);
    if (f->id == GA_FLOAT32) {
        for (size_t i = 0; i < n; i++)
            out[i] = ga_bits_from_f32(ga_gelu_erf_dnnl_f32(ga_f32_from_bits(in[i])));
    } else {
        for (size_t i = 0; i < n; i++)
            out[i] = ga_encode(f, ga_gelu_erf_dnnl_bf16((float)ga_decode(f, in[i])));
    }
    return 0;
}

/* The small formats: float32 erf GELU, one conversion (gelu_small.c), the
 * entry's data saying which. */
static const enum ga_small_conversion satfinite = GA_SMALL_SATFINITE,
                                      overflow_nan = GA_SMALL_OVERFLOW_NAN,
                                      truncation = GA_SMALL_TRUNCATE;

static int run_erf_small(const struct ga_impl *impl, const struct ga_format *f,
                         const ga_bits *in, ga_bits *out, size_t n,
                         struct ga_run_failure *failure)
{
    const enum ga_small_conversion *how = impl->data;

    if (!ga_impl_supports(impl, f))
        return ga_batch_unsupported(impl, f, n, failure);
    for (size_t i = 0; i < n; i++)
        out[i] = ga_gelu_erf_small(f, in[i], *how);
    return 0;
}

/* lut_small: the shipped table of the format (gelu_small_lut.c). */
static int run_lut_small(const struct ga_impl *impl, const struct ga_format *f,
                         const ga_bits *in, ga_bits *out, size_t n,
                         struct ga_run_failure *failure)
{
    const uint8_t *table = ga_gelu_lut_small_table(f);

    if (!ga_impl_supports(impl, f) || table == NULL)
        return ga_batch_unsupported(impl, f, n, failure);
    for (size_t i = 0; i < n; i++)
        out[i] = table[in[i] & ga_all_ones(f)];
    return 0;
}

static const struct ga_impl catalogue[] = {
    { "erf", ALL_FORMATS, GA_GELU,
      "PyTorch 1.13 exact GELU: CPU scalar loop (strided tensors, GeluKernel.cpp with glibc "
      "erff; equal to libtorch 1.13 bit for bit), and the CUDA kernel's formula",
      "x*0.5f*(1 + erff(x*(float)M_SQRT1_2))",
      OPMATH("erff"), run_erf, NULL, false },
    { "erfc", ALL_FORMATS, GA_GELU,
      "JAX exact GELU (jax v0.11.0, jax/_src/nn/functions.py gelu, approximate=False: "
      "0.5*x*erfc(-x*sqrt_half)), with the C library's erfcf",
      "0.5f*x*erfcf(-x*(float)sqrt(0.5))",
      OPMATH("erfcf"), run_erfc, NULL, false },
    { "tanh", ALL_FORMATS, GA_GELU_TANH,
      "PyTorch 1.13 tanh GELU (approximate='tanh') as written in its CUDA kernel "
      "(ActivationGeluKernel.cu); on the CPU 1.13 fuses x + kappa*x^3 (tanh_fma)",
      "0.5f*x*(1 + tanhf(beta*(x + kappa*(x*x*x)))), beta = (float)sqrt(2/pi), kappa = 0.044715f",
      OPMATH("tanhf"), run_tanh, NULL, false },
    { "tanh_factored", ALL_FORMATS, GA_GELU_TANH,
      "HF transformers FastGELUActivation (src/transformers/activations.py at commit "
      "00e12e7), ggml ggml_gelu_f32 (src/ggml-cpu/ggml-cpu.c at commit 9a4acb3, 2025-02-12)",
      "0.5f*x*(1 + tanhf(beta*x*(1 + kappa*x*x)))",
      OPMATH("tanhf"), run_tanh_factored, NULL, false },
    { "sigmoid", ALL_FORMATS, GA_GELU_TANH,
      "the tanh form written as x*sigmoid(2u), without cancellation",
      "x/(1 + expf(-2*u)), u = beta*(x + kappa*(x*x*x))",
      OPMATH("expf"), run_sigmoid, NULL, false },
    { "quick", ALL_FORMATS, GA_GELU,
      "quick GELU: CLIP QuickGELU (clip/model.py at commit d05afc4), HF QuickGELUActivation "
      "(activations.py at 00e12e7), ggml ggml_gelu_quick_f32 (9a4acb3), TransformerEngine "
      "qgelu (transformer_engine/common/util/math.h at d0067d0, 2026-08-22; with CUDA's expf)",
      "x*(1/(1 + expf(-(1.702f*x))))",
      OPMATH("expf"), run_quick, NULL, false },
    { "erf_as", ALL_FORMATS, GA_GELU,
      "the Abramowitz-Stegun 7.1.26 erf that oneDNN 2.6 uses, in the (0.5x)(1 + erf) form "
      "with C expf (oneDNN's own form is erf_dnnl; PyTorch 1.13's vector erf is SLEEF's)",
      "x*0.5f*(1 + erf_as(x*(float)M_SQRT1_2)), erf_as(u) = sign(u)*fmaf(-expf(-u*u)*t, r, 1), "
      "t = 1/fmaf(0.3275911f, |u|, 1), r = Horner a5..a1 with fmaf",
      "float32 with fmaf and C expf; 16-bit: float32, rounded once",
      run_erf_as, NULL, false },
    { "erf_dnnl", F32 | BF16, GA_GELU,
      "oneDNN 2.6.3 eltwise gelu_erf JIT kernel (jit_uni_eltwise_injector.cpp): PyTorch 1.13 "
      "exact GELU on contiguous float32 tensors, and on bfloat16 ones where the CPU has "
      "AVX-512 BF16",
      "fmaf(erf, S, S), S = 0.5f*x, erf = sign(x)*fmaf(-exp_dnnl(-u*u)*t, r, 1), "
      "u = x*0x3f3504f3, t = 1/fmaf(0.3275911f, |u|, 1), r = Horner a5..a1 with fmaf",
      "float32 with fmaf and oneDNN's exp polynomial; bfloat16: that float32 converted by "
      "VCVTNEPS2BF16 (subnormal results flushed to zero)",
      run_erf_dnnl, NULL, false },
    { "tanh_fma", ALL_FORMATS, GA_GELU_TANH,
      "PyTorch 1.13 CPU tanh GELU, scalar loop (strided tensors): GeluKernel.cpp compiled "
      "with FMA, which fuses x + kappa*x^3",
      "0.5f*x*(1 + tanhf(beta*fmaf(kappa, x*x*x, x)))",
      OPMATH("tanhf"), run_tanh_fma, NULL, false },
    { "lut_f16", F32 | F16, GA_GELU_TANH,
      "ggml / llama.cpp / whisper.cpp CPU GELU with GGML_GELU_FP16 (ggml_vec_gelu_f32 and "
      "its table, src/ggml-cpu/ggml-cpu.c at ggml commit 9a4acb3, 2025-02-12)",
      "float16: table[h] = fp16(tanh_factored(h)); "
      "float32: x <= -10 -> 0, x >= 10 -> x, else table[fp16(x)]",
      "float32 tanh_factored rounded to float16 in a 65536-entry table",
      run_lut_f16, NULL, false },
    { "double", ALL_FORMATS, GA_GELU,
      "exact GELU in double (no library: a wider-precision baseline)",
      "0.5*x*erfc(-x/M_SQRT2)",
      "double with C erfc, rounded once to the format",
      run_double, NULL, false },
    { "erf_native", HALF_FORMATS, GA_GELU,
      "HF transformers _gelu_python (src/transformers/activations.py at commit 00e12e7) and "
      "TensorFlow tf.nn.gelu (= Eigen 3.4 bit for bit) on bfloat16/float16 arrays; MLX "
      "v0.32.1 nn.gelu halves last, x*(1 + erf(x/sqrt2))/2 (doc/libraries.md)",
      "x*0.5*(1 + erf(x/sqrt2)), sqrt2 rounded (bfloat16 1.4140625)",
      NATIVE, run_erf_native, NULL, false },
    { "erf_mlx", HALF_FORMATS, GA_GELU,
      "MLX v0.32.1 nn.gelu (python/mlx/nn/layers/activations.py) on bfloat16/float16 arrays",
      "x*(1 + erf(x/sqrt2))/2, sqrt2 rounded (bfloat16 1.4140625): halved last",
      NATIVE, run_erf_mlx, NULL, false },
    { "erf_torch_bf16", BF16, GA_GELU,
      "PyTorch 1.13 CPU exact GELU on bfloat16 tensors (GeluKernel.cpp, Vectorized<BFloat16>): "
      "the default path where the CPU lacks AVX-512 BF16, and with mkldnn disabled",
      "x*0.5*(1 + erf(x*alpha)), alpha = M_SQRT1_2 rounded (bfloat16 0.70703125)",
      NATIVE, run_erf_torch_bf16, NULL, false },
    { "erfc_native", HALF_FORMATS, GA_GELU,
      "JAX exact GELU (jax v0.11.0, jax/_src/nn/functions.py) on bfloat16/float16 arrays "
      "(constants cast to the dtype)",
      "0.5*x*erfc(-x*sqrt(0.5)), sqrt(0.5) rounded (bfloat16 0.70703125)",
      NATIVE, run_erfc_native, NULL, false },
    { "tanh_native", HALF_FORMATS, GA_GELU_TANH,
      "HF transformers NewGELUActivation (activations.py at commit 00e12e7), JAX v0.11.0 "
      "approximate=True, and PyTorch 1.13's CPU tanh GELU (= libtorch bit for bit) on "
      "bfloat16/float16 arrays",
      "0.5*x*(1 + tanh(beta*(x + kappa*((x*x)*x)))), beta, kappa rounded "
      "(bfloat16 0.796875, 0.044677734)",
      NATIVE, run_tanh_native, NULL, false },
    { "tanh_factored_native", HALF_FORMATS, GA_GELU_TANH,
      "HF transformers FastGELUActivation eager (activations.py at commit 00e12e7) on "
      "bfloat16/float16 arrays",
      "0.5*x*(1 + tanh(beta*x*(1 + kappa*x*x))), beta, kappa rounded",
      NATIVE, run_tanh_factored_native, NULL, false },
    { "sigmoid_native", HALF_FORMATS, GA_GELU_TANH,
      "the sigmoid form of the tanh GELU on bfloat16/float16 arrays",
      "x/(1 + exp(-2*u)), u = beta*(x + kappa*((x*x)*x)), beta, kappa rounded",
      NATIVE, run_sigmoid_native, NULL, false },
    { "quick_native", HALF_FORMATS, GA_GELU,
      "MLX v0.32.1 gelu_fast_approx (python/mlx/nn/layers/activations.py), HF "
      "QuickGELUActivation eager (activations.py at 00e12e7) on bfloat16/float16 arrays",
      "x*sigmoid(1.702*x), 1.702 rounded (bfloat16 1.703125), sigmoid one op in float",
      NATIVE, run_quick_native, NULL, false },
    { "erf_as_native", HALF_FORMATS, GA_GELU,
      "Abramowitz-Stegun 7.1.26 erf GELU as a bfloat16/float16 kernel",
      "as erf_as with separate multiply and add, p, a1..a5, M_SQRT1_2 rounded",
      NATIVE, run_erf_as_native, NULL, false },
    { "erf_satfinite", SMALL_FORMATS, GA_GELU,
      "a float32 GELU epilogue that quantizes to FP8/FP6/FP4 with saturation (PTX "
      "cvt.rn.satfinite, CUDA __nv_cvt_float_to_fp8 with __NV_SATFINITE, TransformerEngine "
      "casts, the OCP OFP8 and MX saturating conversions)",
      "satfinite(x*0.5f*(1 + erff(x*(float)M_SQRT1_2)))",
      "float32 with glibc erff, converted once: nearest even, saturating (infinities too)",
      run_erf_small, &satfinite, false },
    { "erf_overflow_nan", FP8_FORMATS, GA_GELU,
      "the same epilogue with the OCP OFP8 non-saturating conversion (CUDA "
      "__nv_cvt_float_to_fp8 with __NV_NOSAT): beyond the largest finite, NaN",
      "rn_nan(x*0.5f*(1 + erff(x*(float)M_SQRT1_2)))",
      "float32 with glibc erff, converted once: nearest even, NaN beyond the largest finite "
      "(E5M2 keeps infinities)",
      run_erf_small, &overflow_nan, false },
    { "erf_truncate", SMALL_FORMATS, GA_GELU,
      "the same epilogue with a conversion that drops the low fraction bits (rounding "
      "toward zero)",
      "trunc(x*0.5f*(1 + erff(x*(float)M_SQRT1_2)))",
      "float32 with glibc erff, converted once: toward zero, saturating",
      run_erf_small, &truncation, false },
    { "lut_small", SMALL_FORMATS, GA_GELU_TANH,
      "a runtime that bakes the activation of an 8-bit or narrower format into one table "
      "entry per encoding, from ggml's float32 tanh GELU",
      "table[h] = satfinite(0.5f*x*(1 + tanhf(beta*x*(1 + kappa*x*x)))), x = decode(h)",
      "a shipped table (src/impls/gelu_lut_small_data.c, tools/gen_lut_small.c)",
      run_lut_small, NULL, false },
    { "erf_f64", F64, GA_GELU,
      "PyTorch 1.13 exact GELU on float64 tensors, scalar loop (strided tensors: "
      "GeluKernel.cpp, kAlpha = M_SQRT1_2, std::erf)",
      "x*0.5*(1 + erf(x*M_SQRT1_2))",
      "double with glibc erf", run_erf_f64, NULL, false },
    { "erfc_f64", F64, GA_GELU,
      "JAX exact GELU with jax_enable_x64 (jax v0.11.0, jax/_src/nn/functions.py gelu, "
      "approximate=False: 0.5*x*erfc(-x*sqrt_half))",
      "0.5*x*erfc(-x*sqrt(0.5))",
      "double with glibc erfc", run_erfc_f64, NULL, false },
    { "tanh_f64", F64, GA_GELU_TANH,
      "PyTorch 1.13 tanh GELU (approximate='tanh') on float64 tensors, scalar loop "
      "(GeluKernel.cpp: kBeta = M_SQRT2*M_2_SQRTPI*0.5, kKappa = 0.044715)",
      "0.5*x*(1 + tanh(beta*(x + kappa*x*x*x)))",
      "double with glibc tanh", run_tanh_f64, NULL, false },
};

#define CATALOGUE_COUNT (sizeof catalogue / sizeof catalogue[0])

size_t ga_catalogue_count(void)
{
    return CATALOGUE_COUNT;
}

const struct ga_impl *ga_catalogue_at(size_t i)
{
    return i < CATALOGUE_COUNT ? &catalogue[i] : NULL;
}

const struct ga_impl *ga_catalogue_find(const char *name)
{
    for (size_t i = 0; i < CATALOGUE_COUNT; i++)
        if (strcmp(catalogue[i].name, name) == 0)
            return &catalogue[i];
    return NULL;
}
