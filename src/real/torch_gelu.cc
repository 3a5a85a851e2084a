/* Real PyTorch: at::gelu from libtorch, on the paths a CPU tensor can take.
 *
 * Kernels (STEM_f32, STEM_bf16, STEM_f16, STEM_f64, at each length below;
 * STEM_backward_f32... for at::gelu_backward; see real.c for the table):
 *   torch_erf, torch_tanh                     at::gelu(x, "none" | "tanh") on a
 *       contiguous tensor: the default path (exact GELU in float32 goes to
 *       oneDNN while mkldnn is enabled, as it is by default);
 *   torch_nomkldnn_erf, torch_nomkldnn_tanh   the same with
 *       at::globalContext().setUserEnabledMkldnn(false): ATen's vector kernel;
 *   torch_strided_erf, torch_strided_tanh     the same on a non-contiguous
 *       view (every other element of a buffer): ATen's scalar loop.
 * float16: libtorch 1.13 has no CPU GELU for Half; the kernel exists so that
 * the refusal is reported (gelu_acc_real_about), and aborts if ever called.
 *
 * Lengths: ATen's vector loop computes the last (n mod 2*lanes) elements of
 * a tensor with its scalar code, and oneDNN is bypassed for a one-element
 * tensor.  Each kernel comes at the three lengths of call_length.h: STEM
 * (every input in a long tensor's vector body), STEM_len1 (one element per
 * call) and STEM_len67 (the remainder after a 64-element body); in each the
 * result for in[i] depends on in[i] alone (the kernel ABI's contract).
 *
 * Threads: one (at::set_num_threads(1)), so that the worker processes that
 * run these kernels stay single-threaded and results deterministic. */
#include "config.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <c10/util/Exception.h>
#include <torch/csrc/api/include/torch/version.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "real/call_length.h"
#include "real/module.h"

namespace {

enum class Path { contiguous, no_mkldnn, strided };

void single_thread()
{
    static bool done = false;
    if (!done) {
        at::set_num_threads(1);
        done = true;
    }
}

/* A copy of n elements of `type`, as a contiguous tensor or (strided)
 * every other element of a buffer twice as long. */
at::Tensor tensor_of(Path p, at::ScalarType type, const void *in, size_t n, size_t element_size)
{
    auto options = at::TensorOptions().dtype(type);
    at::Tensor buffer = at::empty({(int64_t)n}, options);
    std::memcpy(buffer.data_ptr(), in, n * element_size);
    if (p != Path::strided)
        return buffer;
    at::Tensor wide = at::empty({(int64_t)n, 2}, options);
    wide.select(1, 0).copy_(buffer);
    return wide.select(1, 0);
}

/* What a kernel calls: at::gelu or at::gelu_backward on path p. */
struct Call {
    Path path;
    const char *approximate;
    at::ScalarType type;
    size_t element_size;
};

/* y = at::gelu(x) on exactly n elements (ga_real_body). */
void forward_body(void *ctx, const void *const *in, void *out, size_t n)
{
    const Call *c = static_cast<const Call *>(ctx);
    at::Tensor x = tensor_of(c->path, c->type, in[0], n, c->element_size);
    at::Tensor y = at::gelu(x, c->approximate).contiguous();
    std::memcpy(out, y.data_ptr(), n * c->element_size);
}

/* dx = at::gelu_backward(dy, x) on exactly n pairs (ga_real_body). */
void backward_body(void *ctx, const void *const *in, void *out, size_t n)
{
    const Call *c = static_cast<const Call *>(ctx);
    at::Tensor grad = tensor_of(c->path, c->type, in[0], n, c->element_size);
    at::Tensor self = tensor_of(c->path, c->type, in[1], n, c->element_size);
    at::Tensor r = at::gelu_backward(grad, self, c->approximate).contiguous();
    std::memcpy(out, r.data_ptr(), n * c->element_size);
}

/* dx = at::gelu_backward(dy, x, approximate) on path p, at length. */
void run_backward(Path p, ga_real_length length, const char *approximate, at::ScalarType type,
                  const void *dy, const void *x, void *dx, size_t n, size_t element_size)
{
    Call c = { p, approximate, type, element_size };
    const void *in[2] = { dy, x };
    single_thread();
    at::globalContext().setUserEnabledMkldnn(p != Path::no_mkldnn);
    ga_real_call_length(length, backward_body, &c, 2, in, dx, n, element_size);
}

/* x (n elements of `type`, bit patterns in `in`) through at::gelu on path
 * p, at length. */
void run(Path p, ga_real_length length, const char *approximate, at::ScalarType type,
         const void *in, void *out, size_t n, size_t element_size)
{
    Call c = { p, approximate, type, element_size };
    single_thread();
    at::globalContext().setUserEnabledMkldnn(p != Path::no_mkldnn);
    ga_real_call_length(length, forward_body, &c, 1, &in, out, n, element_size);
}

/* The first line of a c10::Error (the rest is a C++ backtrace). */
std::string first_line(const char *what)
{
    std::string s(what);
    size_t eol = s.find('\n');
    return eol == std::string::npos ? s : s.substr(0, eol);
}

/* What ATen says about its vector dispatch: "CPU capability usage: AVX2". */
std::string capability()
{
    std::string config = at::show_config();
    const char *key = "CPU capability usage: ";
    size_t at = config.find(key);
    if (at == std::string::npos)
        return "CPU capability not reported";
    size_t end = config.find('\n', at);
    return "ATen " + config.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

/* Whether the default path hands exact GELU of bfloat16 to oneDNN: ATen
 * decides by the CPU (AVX-512 families), and oneDNN's form gives +0 for
 * gelu(-8) where ATen's gives -0.  Observed, not guessed. */
const char *bf16_route()
{
    uint16_t in[2] = { 0xc100, 0xc100 }, out[2] = { 0, 0 };  /* -8 */
    run(Path::contiguous, GA_REAL_LONG, "none", at::kBFloat16, in, out, 2, 2);
    return out[0] == 0x0000 ? "; bfloat16 to oneDNN (observed: gelu(-8) = +0)"
                            : "; bfloat16 in ATen, not oneDNN (observed: gelu(-8) = -0)";
}

}  // namespace

#define TORCH_KERNELS_AT(stem, path, length, approximate)                            \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;              \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f64 stem##_f64;                \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        run(path, length, approximate, at::kFloat, in, out, n, 4);                   \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        run(path, length, approximate, at::kBFloat16, in, out, n, 2);                \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        run(path, length, approximate, at::kHalf, in, out, n, 2);                    \
    }                                                                                \
    void stem##_f64(const double *in, double *out, size_t n)                         \
    {                                                                                \
        run(path, length, approximate, at::kDouble, in, out, n, 8);                  \
    }

/* Backward kernels (ABI 2): STEM_f32/_bf16/_f16. */
#define TORCH_BACKWARD_KERNELS_AT(stem, path, length, approximate)                   \
    GELU_ACC_BACKWARD_KERNEL_F32(stem##_f32);                                        \
    GELU_ACC_BACKWARD_KERNEL_BF16(stem##_bf16);                                      \
    GELU_ACC_BACKWARD_KERNEL_F16(stem##_f16);                                        \
    void stem##_f32(const float *dy, const float *x, float *dx, size_t n)            \
    {                                                                                \
        run_backward(path, length, approximate, at::kFloat, dy, x, dx, n, 4);        \
    }                                                                                \
    void stem##_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)  \
    {                                                                                \
        run_backward(path, length, approximate, at::kBFloat16, dy, x, dx, n, 2);     \
    }                                                                                \
    void stem##_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)   \
    {                                                                                \
        run_backward(path, length, approximate, at::kHalf, dy, x, dx, n, 2);         \
    }

/* Each path at the three lengths of call_length.h: STEM (long), STEM_len1,
 * STEM_len67; forward and backward (STEM_backward, STEM_backward_len1...). */
#define TORCH_KERNELS(stem, path, approximate)                                       \
    TORCH_KERNELS_AT(stem, path, GA_REAL_LONG, approximate)                          \
    TORCH_KERNELS_AT(stem##_len1, path, GA_REAL_ONE, approximate)                    \
    TORCH_KERNELS_AT(stem##_len67, path, GA_REAL_TAIL, approximate)                  \
    TORCH_BACKWARD_KERNELS_AT(stem##_backward, path, GA_REAL_LONG, approximate)      \
    TORCH_BACKWARD_KERNELS_AT(stem##_backward_len1, path, GA_REAL_ONE, approximate)  \
    TORCH_BACKWARD_KERNELS_AT(stem##_backward_len67, path, GA_REAL_TAIL, approximate)

GELU_ACC_KERNEL_ABI_TAG;
TORCH_KERNELS(torch_erf, Path::contiguous, "none")
TORCH_KERNELS(torch_tanh, Path::contiguous, "tanh")
TORCH_KERNELS(torch_nomkldnn_erf, Path::no_mkldnn, "none")
TORCH_KERNELS(torch_nomkldnn_tanh, Path::no_mkldnn, "tanh")
TORCH_KERNELS(torch_strided_erf, Path::strided, "none")
TORCH_KERNELS(torch_strided_tanh, Path::strided, "tanh")

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_real_about_fn gelu_acc_real_about;

/* float16 kernels are probed: 1.13 raises "not implemented for 'Half'". */
int gelu_acc_real_about(const char *kernel, struct gelu_acc_real_info *about)
{
    static const char *const stems[] = { "torch_erf", "torch_tanh", "torch_nomkldnn_erf",
                                         "torch_nomkldnn_tanh", "torch_strided_erf",
                                         "torch_strided_tanh" };
    bool known = false;
    size_t len = std::strlen(kernel);

    for (const char *stem : stems) {
        size_t s = std::strlen(stem);
        if (len > s && std::strncmp(kernel, stem, s) == 0) {
            const char *rest = kernel + s;
            bool backward = std::strncmp(rest, "_backward", 9) == 0;
            rest += backward ? 9 : 0;
            rest += std::strncmp(rest, "_len1_", 6) == 0 ? 5
                    : std::strncmp(rest, "_len67_", 7) == 0 ? 6 : 0;
            if (backward && std::strcmp(rest, "_f64") == 0)
                continue;
            if (std::strcmp(rest, "_f32") == 0 || std::strcmp(rest, "_bf16") == 0
                || std::strcmp(rest, "_f16") == 0 || std::strcmp(rest, "_f64") == 0)
                known = true;
        }
    }
    if (!known)
        return -1;
    std::memset(about, 0, sizeof *about);
    /* libtorch has no run-time version call: this is its torch/version.h,
     * and the package configure found (Debian's 1.13.1 says 1.13.0). */
#ifdef GA_TORCH_PACKAGE
    std::snprintf(about->version, sizeof about->version, "%s (%s)", TORCH_VERSION,
                  GA_TORCH_PACKAGE);
#else
    std::snprintf(about->version, sizeof about->version, "%s", TORCH_VERSION);
#endif
    single_thread();
    bool contiguous = std::strstr(kernel, "nomkldnn") == nullptr
                      && std::strstr(kernel, "strided") == nullptr;
    std::snprintf(about->path, sizeof about->path, "%s; mkldnn %s%s", capability().c_str(),
                  !at::hasMKLDNN() ? "not built in"
                  : contiguous    ? "enabled"
                                  : "bypassed",
                  std::strcmp(kernel, "torch_erf_bf16") == 0 ? bf16_route() : "");
    if (std::strcmp(kernel + len - 4, "_f16") == 0) {
        try {
            at::Tensor x = at::zeros({2}, at::TensorOptions().dtype(at::kHalf));
            at::globalContext().setUserEnabledMkldnn(contiguous);
            const char *approximate = std::strstr(kernel, "tanh") ? "tanh" : "none";
            if (std::strstr(kernel, "_backward_"))
                (void)at::gelu_backward(x, x, approximate);
            else
                (void)at::gelu(x, approximate);
        } catch (const c10::Error &e) {
            std::snprintf(about->refusal, sizeof about->refusal, "%s",
                          first_line(e.what()).c_str());
        }
    }
    return 0;
}
