/* Real SLEEF: GELU built on SLEEF's erf and tanh, through its scalar and its
 * 8-lane (__m256; float64: 4-lane __m256d) entry points.
 *
 * The formulas wrapped around them are the ones PyTorch 1.13's ATen vector
 * kernel (GeluKernel.cpp) evaluates in float32, with the fused
 * multiply-add that GCC forms there in the tanh argument:
 *   erf forms:  (x*0.5f)*(1 + E(x*(float)M_SQRT1_2))
 *   tanh forms: (0.5f*x)*(1 + T(beta*fmaf(kappa, (x*x)*x, x))),
 *               beta = (float)(M_2_SQRTPI*M_SQRT1_2), kappa = 0.044715f
 * E is Sleef_erff_u10 (scalar) or Sleef_erff8_u10 (vector; SLEEF 3.5 has no
 * 3.5-ulp erf), T is Sleef_tanhf_u10 / _u35 or Sleef_tanhf8_u10 / _u35.
 * The vector entry points dispatch at run time to the best variant for the
 * CPU (AVX2 or AVX); gelu_acc_real_about names it (Sleef_getPtrf8(0)).
 * 16-bit formats: widened to float, computed as above, rounded once to the
 * format (nearest even), as ATen's opmath would.
 * float64: the same formulas in double (ATen's on double tensors), with
 *   M_SQRT1_2, beta = M_2_SQRTPI*M_SQRT1_2 and kappa = 0.044715 as doubles,
 *   E = Sleef_erf_u10 (scalar) or Sleef_erfd4_u10 (4 lanes, __m256d),
 *   T = Sleef_tanh_u10 / _u35 or Sleef_tanhd4_u10 / _u35.
 *
 * The build compiles this file with -ffp-contract=off (as the whole suite),
 * so that the formulas round as written, the one fmaf() aside. */
#include <math.h>
#include <stdio.h>
#include <string.h>

/* sleef.h declares its __m256 entry points only where AVX is enabled; the
 * rest of the module runs on any x86-64, and checks for AVX at run time. */
#pragma GCC push_options
#pragma GCC target("avx,f16c")
#include <immintrin.h>
#include <sleef.h>
#pragma GCC pop_options

#include "real/module.h"

#define BETA ((float)(M_2_SQRTPI * M_SQRT1_2))
#define KAPPA 0.044715f

static float erf_argument(float x)
{
    return x * (float)M_SQRT1_2;
}

static float erf_result(float x, float erf_u)
{
    return (x * 0.5f) * (1.0f + erf_u);
}

static float tanh_argument(float x)
{
    return BETA * fmaf(KAPPA, (x * x) * x, x);
}

static float tanh_result(float x, float tanh_u)
{
    return (0.5f * x) * (1.0f + tanh_u);
}

static double erf_argument64(double x)
{
    return x * M_SQRT1_2;
}

static double erf_result64(double x, double erf_u)
{
    return (x * 0.5) * (1.0 + erf_u);
}

static double tanh_argument64(double x)
{
    return M_2_SQRTPI * M_SQRT1_2 * fma(0.044715, (x * x) * x, x);
}

static double tanh_result64(double x, double tanh_u)
{
    return (0.5 * x) * (1.0 + tanh_u);
}

/* float <-> the 16-bit encodings, round to nearest even (bfloat16 by bits,
 * float16 by F16C's conversion, which rounds to nearest even too). */
static float bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint16_t f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);  /* quiet NaN */
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

__attribute__((target("avx,f16c")))
static float f16_to_f32(uint16_t h)
{
    return _cvtsh_ss(h);
}

__attribute__((target("avx,f16c")))
static uint16_t f32_to_f16(float f)
{
    return (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}

typedef float scalar_fn(float);
typedef __m256 vector_fn(__m256);
typedef double scalar64_fn(double);
typedef __m256d vector64_fn(__m256d);

/* name(x, y, n, erf, sf, vf): out[i] = result(x, F(argument(x))) with F
 * scalar (sf), or LANES at a time (vf; the last group padded with copies of
 * its last input).  Defined for float (8 lanes) and double (4). */
#define DEFINE_APPLY(name, T, LANES, SF, VF, LOAD, STORE, ERF_ARG, ERF_RES, TANH_ARG,     \
                     TANH_RES)                                                           \
    __attribute__((target("avx,f16c")))                                                  \
    static void name(const T *x, T *y, size_t n, int erf, SF *sf, VF *vf)                \
    {                                                                                    \
        for (size_t i = 0; i < n; i += LANES) {                                          \
            T a[LANES], r[LANES];                                                        \
            size_t m = n - i < LANES ? n - i : LANES;                                    \
            for (size_t k = 0; k < LANES; k++) {                                         \
                T v = x[i + (k < m ? k : m - 1)];                                        \
                a[k] = erf ? ERF_ARG(v) : TANH_ARG(v);                                   \
            }                                                                            \
            if (vf != NULL) {                                                            \
                STORE(r, vf(LOAD(a)));                                                   \
            } else {                                                                     \
                for (size_t k = 0; k < LANES; k++)                                       \
                    r[k] = sf(a[k]);                                                     \
            }                                                                            \
            for (size_t k = 0; k < m; k++)                                               \
                y[i + k] = erf ? ERF_RES(x[i + k], r[k]) : TANH_RES(x[i + k], r[k]);     \
        }                                                                                \
    }

DEFINE_APPLY(apply, float, 8, scalar_fn, vector_fn, _mm256_loadu_ps, _mm256_storeu_ps,
             erf_argument, erf_result, tanh_argument, tanh_result)
DEFINE_APPLY(apply64, double, 4, scalar64_fn, vector64_fn, _mm256_loadu_pd, _mm256_storeu_pd,
             erf_argument64, erf_result64, tanh_argument64, tanh_result64)

/* A 16-bit batch through the float one, a block at a time. */
static void apply16(const uint16_t *in, uint16_t *out, size_t n, int bf16, int erf,
                    scalar_fn *sf, vector_fn *vf)
{
    float x[512], y[512];
    for (size_t i = 0; i < n; i += 512) {
        size_t m = n - i < 512 ? n - i : 512;
        for (size_t k = 0; k < m; k++)
            x[k] = bf16 ? bf16_to_f32(in[i + k]) : f16_to_f32(in[i + k]);
        apply(x, y, m, erf, sf, vf);
        for (size_t k = 0; k < m; k++)
            out[i + k] = bf16 ? f32_to_bf16(y[k]) : f32_to_f16(y[k]);
    }
}

#define SLEEF_KERNELS(stem, erf, sf, vf, sf64, vf64)                                 \
    GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                                  \
    GELU_ACC_EXPORT gelu_acc_kernel_f64 stem##_f64;                                  \
    GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;                                \
    GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                                  \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        apply(in, out, n, erf, sf, vf);                                              \
    }                                                                                \
    void stem##_f64(const double *in, double *out, size_t n)                         \
    {                                                                                \
        apply64(in, out, n, erf, sf64, vf64);                                        \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        apply16(in, out, n, 1, erf, sf, vf);                                         \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        apply16(in, out, n, 0, erf, sf, vf);                                         \
    }

GELU_ACC_KERNEL_ABI_TAG;
SLEEF_KERNELS(sleef_erf_u10, 1, NULL, Sleef_erff8_u10, NULL, Sleef_erfd4_u10)
SLEEF_KERNELS(sleef_erf_u10_scalar, 1, Sleef_erff_u10, NULL, Sleef_erf_u10, NULL)
SLEEF_KERNELS(sleef_tanh_u10, 0, NULL, Sleef_tanhf8_u10, NULL, Sleef_tanhd4_u10)
SLEEF_KERNELS(sleef_tanh_u10_scalar, 0, Sleef_tanhf_u10, NULL, Sleef_tanh_u10, NULL)
SLEEF_KERNELS(sleef_tanh_u35, 0, NULL, Sleef_tanhf8_u35, NULL, Sleef_tanhd4_u35)
SLEEF_KERNELS(sleef_tanh_u35_scalar, 0, Sleef_tanhf_u35, NULL, Sleef_tanh_u35, NULL)

GELU_ACC_EXPORT gelu_acc_real_about_fn gelu_acc_real_about;

int gelu_acc_real_about(const char *kernel, struct gelu_acc_real_info *about)
{
    static const char *const stems[] = { "sleef_erf_u10", "sleef_erf_u10_scalar",
                                         "sleef_tanh_u10", "sleef_tanh_u10_scalar",
                                         "sleef_tanh_u35", "sleef_tanh_u35_scalar" };
    size_t len = strlen(kernel);
    int known = 0;

    for (size_t i = 0; i < sizeof stems / sizeof stems[0]; i++) {
        size_t s = strlen(stems[i]);
        if (len > s && strncmp(kernel, stems[i], s) == 0
            && (strcmp(kernel + s, "_f32") == 0 || strcmp(kernel + s, "_bf16") == 0
                || strcmp(kernel + s, "_f16") == 0 || strcmp(kernel + s, "_f64") == 0))
            known = 1;
    }
    if (!known)
        return -1;
    memset(about, 0, sizeof *about);
    /* SLEEF has no run-time version call: this is its sleef.h. */
    snprintf(about->version, sizeof about->version, "%d.%d.%d", SLEEF_VERSION_MAJOR,
             SLEEF_VERSION_MINOR, SLEEF_VERSION_PATCHLEVEL);
    if (strstr(kernel, "_scalar") != NULL) {
        snprintf(about->path, sizeof about->path, "scalar entry point");
    } else if (!__builtin_cpu_supports("avx")) {
        snprintf(about->refusal, sizeof about->refusal, "the CPU has no AVX: no __m256 entry point");
    } else {
        int f64 = strcmp(kernel + len - 4, "_f64") == 0;
        const char *isa = f64 ? Sleef_getPtrd4(0) : Sleef_getPtrf8(0);
        snprintf(about->path, sizeof about->path, "%s entry point dispatched to %s",
                 f64 ? "4-lane" : "8-lane", isa ? isa : "an unnamed variant");
    }
    if (strcmp(kernel + len - 4, "_f16") == 0 && !__builtin_cpu_supports("f16c"))
        snprintf(about->refusal, sizeof about->refusal, "the CPU has no F16C");
    return 0;
}
