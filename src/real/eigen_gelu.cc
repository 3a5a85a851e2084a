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
 * Why the padding: Eigen computes whole packets, then the last
 * (n mod packet size) elements with its scalar functions, which round
 * differently (the AVX2 build's tanh differs at x = 0x3fd0b100).  Each call
 * is padded to a multiple of kPad elements with copies of its last input, so
 * that every input takes the packet path and the result for in[i] depends on
 * in[i] alone (the kernel ABI's contract). */
#include <Eigen/Core>
#include <unsupported/Eigen/SpecialFunctions>

#include <cstdio>
#include <cstring>

#include "real/module.h"

namespace {

template <typename T>
using Vec = Eigen::Array<T, Eigen::Dynamic, 1>;

constexpr size_t kPad = 64;  /* a multiple of every packet size (at most 16 lanes) */

/* in[0..n) followed by copies of in[n-1] up to a multiple of kPad. */
template <typename T>
Vec<T> padded(const T *in, size_t n)
{
    size_t size = (n + kPad - 1) / kPad * kPad;
    Vec<T> x((Eigen::Index)size);
    for (size_t i = 0; i < size; i++)
        x[(Eigen::Index)i] = in[i < n ? i : n - 1];
    return x;
}

template <typename T>
void gelu_erf(const T *in, T *out, size_t n)
{
    if (n == 0)
        return;
    Vec<T> x = padded(in, n);
    Vec<T> half_x = T(0.5f) * x;
    Vec<T> u = x / T(1.4142135623730951f);
    Vec<T> e = u.erf();
    Vec<T> s = T(1.0f) + e;
    Vec<T> y = half_x * s;
    std::memcpy(out, y.data(), n * sizeof(T));
}

template <typename T>
void gelu_tanh(const T *in, T *out, size_t n)
{
    if (n == 0)
        return;
    Vec<T> x = padded(in, n);
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

}  // namespace

#define EIGEN_KERNELS(stem, form)                                                    \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;              \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        form<float>(in, out, n);                                                     \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        form<Eigen::bfloat16>(reinterpret_cast<const Eigen::bfloat16 *>(in),        \
                              reinterpret_cast<Eigen::bfloat16 *>(out), n);          \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        form<Eigen::half>(reinterpret_cast<const Eigen::half *>(in),                 \
                          reinterpret_cast<Eigen::half *>(out), n);                  \
    }

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

    for (const char *name : names)
        known |= std::strncmp(kernel, STEM_TEXT, prefix) == 0
                 && std::strcmp(kernel + prefix, name) == 0;
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
