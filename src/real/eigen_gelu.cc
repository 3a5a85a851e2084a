/* Real Eigen 3.4: the array erf and tanh that TensorFlow's CPU kernels run
 * (its Erf and Tanh ops are Eigen cwise functors), composed as TensorFlow's
 * tf.nn.gelu writes GELU (tensorflow/python/ops/nn_ops.py, TF 2.x):
 *   eigen_erf:  0.5*x*(1 + erf(x/1.4142135623730951))
 *   eigen_tanh: 0.5*x*(1 + tanh(0.7978845608028654*(x + 0.044715*pow(x, 3))))
 * Each operation is its own TensorFlow op, so each is evaluated here into
 * an array of the input's type, left to right as written: in float32 every
 * step rounds to float, in bfloat16 (Eigen::bfloat16) and float16
 * (Eigen::half) every step and every constant rounds to the format, as TF
 * computes on tensors of that dtype.
 *
 * Eigen is header-only: the code is what this module was compiled to.  The
 * build compiles this file twice: for the x86-64 baseline (module eigen:
 * SSE2 packets, no FMA, kernels eigen_erf_f32...) and with -mavx2 -mfma
 * (module eigen_avx2, EIGEN_STEM_PREFIX eigen_avx2: 8-lane packets, Eigen's
 * polynomials with fused multiply-adds, as TensorFlow builds for AVX2 run
 * them).  gelu_acc_real_about reports Eigen's own list of the instruction
 * sets in use, and refuses on a CPU that lacks them.
 *
 * Lengths: Eigen computes whole packets, then the last (n mod packet size)
 * elements with its scalar functions, which round differently (the AVX2
 * build's tanh differs at x = 0x3fd0b100).  Each kernel comes at the three
 * lengths of call_length.h: STEM (every input in the packet loop),
 * STEM_len1 and STEM_len67 (the scalar remainder); in each the result for
 * in[i] depends on in[i] alone (the kernel ABI's contract). */
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include <cstdio>
#include <cstring>

#include "real/call_length.h"
#include "real/module.h"

namespace {

template <typename T>
using Vec = Eigen::Array<T, Eigen::Dynamic, 1>;

/* x = in[0..n), exactly n elements: Eigen's packets, then its scalar
 * functions for the last (n mod packet size). */
template <typename T>
Vec<T> array_of(const T *in, size_t n)
{
    Vec<T> x((Eigen::Index)n);
    std::memcpy(x.data(), in, n * sizeof(T));
    return x;
}

/* GELU through erf on exactly n elements (ga_real_body). */
template <typename T>
void gelu_erf(void *, const void *const *in, void *out, size_t n)
{
    Vec<T> x = array_of(static_cast<const T *>(in[0]), n);
    Vec<T> half_x = T(0.5f) * x;
    Vec<T> u = x / T(1.4142135623730951f);
    Vec<T> e = u.erf();
    Vec<T> s = T(1.0f) + e;
    Vec<T> y = half_x * s;
    std::memcpy(out, y.data(), n * sizeof(T));
}

/* The tanh form on exactly n elements (ga_real_body). */
template <typename T>
void gelu_tanh(void *, const void *const *in, void *out, size_t n)
{
    Vec<T> x = array_of(static_cast<const T *>(in[0]), n);
    Vec<T> half_x = T(0.5f) * x;
    Vec<T> cube = x.pow(T(3.0f));
    Vec<T> kappa_cube = T(0.044715f) * cube;
    Vec<T> inner = x + kappa_cube;
    Vec<T> u = T(0.7978845608028654f) * inner;
    Vec<T> t = u.tanh();
    Vec<T> s = T(1.0f) + t;
    Vec<T> y = half_x * s;
    std::memcpy(out, y.data(), n * sizeof(T));
}

/* form<T> on in[0..n) at length. */
template <typename T>
void run(ga_real_body *form, ga_real_length length, const void *in, void *out, size_t n)
{
    ga_real_call_length(length, form, nullptr, 1, &in, out, n, sizeof(T));
}

}  // namespace

#define EIGEN_KERNELS_AT(stem, form, length)                                         \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;              \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        run<float>(form<float>, length, in, out, n);                                 \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        run<Eigen::bfloat16>(form<Eigen::bfloat16>, length, in, out, n);             \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        run<Eigen::half>(form<Eigen::half>, length, in, out, n);                     \
    }

/* At the three lengths of call_length.h: STEM (long), STEM_len1, STEM_len67. */
#define EIGEN_KERNELS(stem, form)                                                    \
    EIGEN_KERNELS_AT(stem, form, GA_REAL_LONG)                                       \
    EIGEN_KERNELS_AT(stem##_len1, form, GA_REAL_ONE)                                 \
    EIGEN_KERNELS_AT(stem##_len67, form, GA_REAL_TAIL)

#ifdef GA_EIGEN_AVX2
#define STEM(name) eigen_avx2_##name
#define STEM_TEXT "eigen_avx2_"
#else
#define STEM(name) eigen_##name
#define STEM_TEXT "eigen_"
#endif
#define EIGEN_KERNELS_FOR(stem, form) EIGEN_KERNELS(stem, form)

GELU_ACC_KERNEL_ABI_TAG;
EIGEN_KERNELS_FOR(STEM(erf), gelu_erf)
EIGEN_KERNELS_FOR(STEM(tanh), gelu_tanh)

static_assert(sizeof(Eigen::bfloat16) == 2 && sizeof(Eigen::half) == 2,
              "16-bit Eigen types travel as their encodings");

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_real_about_fn gelu_acc_real_about;

int gelu_acc_real_about(const char *kernel, struct gelu_acc_real_info *about)
{
    static const char *const names[] = { "erf_f32", "erf_bf16", "erf_f16",
                                         "tanh_f32", "tanh_bf16", "tanh_f16" };
    size_t prefix = std::strlen(STEM_TEXT);
    bool known = false;

    for (const char *name : names) {
        size_t form = std::strcspn(name, "_");  /* "erf", then "_f32" */
        const char *rest = kernel + prefix + form;
        if (std::strncmp(kernel, STEM_TEXT, prefix) != 0
            || std::strncmp(kernel + prefix, name, form) != 0)
            continue;
        rest += std::strncmp(rest, "_len1_", 6) == 0    ? 5
                : std::strncmp(rest, "_len67_", 7) == 0 ? 6
                                                        : 0;
        known |= std::strcmp(rest, name + form) == 0;
    }
    if (!known)
        return -1;
    std::memset(about, 0, sizeof *about);
#ifdef GA_EIGEN_AVX2
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
        std::snprintf(about->refusal, sizeof about->refusal,
                      "this module is compiled for AVX2 and FMA; the CPU lacks them");
#endif
    /* Header-only: the version this module was compiled against. */
    std::snprintf(about->version, sizeof about->version, "%d.%d.%d", EIGEN_WORLD_VERSION,
                  EIGEN_MAJOR_VERSION, EIGEN_MINOR_VERSION);
    std::snprintf(about->path, sizeof about->path, "compiled for %s%s; packet float x%d",
                  Eigen::SimdInstructionSetsInUse(),
#ifdef EIGEN_VECTORIZE_FMA
                  " (and FMA: -mavx2 -mfma)",
#else
                  "",
#endif
                  (int)Eigen::internal::packet_traits<float>::size);
    return 0;
}
