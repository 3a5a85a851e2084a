/* Real PyTorch: at::gelu from libtorch, on the paths a CPU tensor can take.
 *
 * Kernels (STEM_f32, STEM_bf16, STEM_f16, STEM_f64; see real.c for the table):
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
 * Why the padding: ATen's vector loop computes the last (n mod 2*lanes)
 * elements of a tensor with its scalar code, and oneDNN is bypassed for a
 * one-element tensor.  Each batch is padded to a multiple of 64 elements with
 * copies of its last input, so that every input takes the path named, and the
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

#include "real/module.h"

namespace {

enum class Path { contiguous, no_mkldnn, strided };

constexpr size_t kPad = 64;

void single_thread()
{
    static bool done = false;
    if (!done) {
        at::set_num_threads(1);
        done = true;
    }
}

/* A copy of n elements of `type` padded to a multiple of kPad with copies
 * of the last, as a contiguous tensor or (strided) every other element of
 * a buffer twice as long. */
at::Tensor padded_tensor(Path p, at::ScalarType type, const void *in, size_t n,
                         size_t element_size)
{
    size_t padded = (n + kPad - 1) / kPad * kPad;
    auto options = at::TensorOptions().dtype(type);
    at::Tensor buffer = at::empty({(int64_t)padded}, options);
    std::memcpy(buffer.data_ptr(), in, n * element_size);
    for (size_t i = n; i < padded; i++)
        std::memcpy((char *)buffer.data_ptr() + i * element_size,
                    (const char *)in + (n - 1) * element_size, element_size);
    if (p != Path::strided)
        return buffer;
    at::Tensor wide = at::empty({(int64_t)padded, 2}, options);
    wide.select(1, 0).copy_(buffer);
    return wide.select(1, 0);
}

/* dx = at::gelu_backward(dy, x, approximate) on path p: both operands
 * padded alike, so that every pair takes the path named. */
void run_backward(Path p, const char *approximate, at::ScalarType type, const void *dy,
                  const void *x, void *dx, size_t n, size_t element_size)
{
    if (n == 0)
        return;
    single_thread();
    at::globalContext().setUserEnabledMkldnn(p != Path::no_mkldnn);
    at::Tensor grad = padded_tensor(p, type, dy, n, element_size);
    at::Tensor self = padded_tensor(p, type, x, n, element_size);
    at::Tensor r = at::gelu_backward(grad, self, approximate).contiguous();
    std::memcpy(dx, r.data_ptr(), n * element_size);
}

/* x (n elements of `type`, bit patterns in `in`) through at::gelu on path p. */
void run(Path p, const char *approximate, at::ScalarType type, const void *in, void *out,
         size_t n, size_t element_size)
{
    if (n == 0)
        return;
    single_thread();
    at::globalContext().setUserEnabledMkldnn(p != Path::no_mkldnn);
    at::Tensor x = padded_tensor(p, type, in, n, element_size);
    at::Tensor y = at::gelu(x, approximate).contiguous();
    std::memcpy(out, y.data_ptr(), n * element_size);
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
    run(Path::contiguous, "none", at::kBFloat16, in, out, 2, 2);
    return out[0] == 0x0000 ? "; bfloat16 to oneDNN (observed: gelu(-8) = +0)"
                            : "; bfloat16 in ATen, not oneDNN (observed: gelu(-8) = -0)";
}

}  // namespace

#define TORCH_KERNELS(stem, path, approximate)                                       \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;              \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f64 stem##_f64;                \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        run(path, approximate, at::kFloat, in, out, n, 4);                           \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        run(path, approximate, at::kBFloat16, in, out, n, 2);                        \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        run(path, approximate, at::kHalf, in, out, n, 2);                            \
    }                                                                                \
    void stem##_f64(const double *in, double *out, size_t n)                         \
    {                                                                                \
        run(path, approximate, at::kDouble, in, out, n, 8);                          \
    }

/* Backward kernels (ABI 2): STEM_backward_f32/_bf16/_f16. */
#define TORCH_BACKWARD_KERNELS(stem, path, approximate)                              \
    GELU_ACC_BACKWARD_KERNEL_F32(stem##_backward_f32);                               \
    GELU_ACC_BACKWARD_KERNEL_BF16(stem##_backward_bf16);                             \
    GELU_ACC_BACKWARD_KERNEL_F16(stem##_backward_f16);                               \
    void stem##_backward_f32(const float *dy, const float *x, float *dx, size_t n)   \
    {                                                                                \
        run_backward(path, approximate, at::kFloat, dy, x, dx, n, 4);                \
    }                                                                                \
    void stem##_backward_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,   \
                              size_t n)                                              \
    {                                                                                \
        run_backward(path, approximate, at::kBFloat16, dy, x, dx, n, 2);             \
    }                                                                                \
    void stem##_backward_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,    \
                             size_t n)                                               \
    {                                                                                \
        run_backward(path, approximate, at::kHalf, dy, x, dx, n, 2);                 \
    }

GELU_ACC_KERNEL_ABI_TAG;
TORCH_KERNELS(torch_erf, Path::contiguous, "none")
TORCH_KERNELS(torch_tanh, Path::contiguous, "tanh")
TORCH_KERNELS(torch_nomkldnn_erf, Path::no_mkldnn, "none")
TORCH_KERNELS(torch_nomkldnn_tanh, Path::no_mkldnn, "tanh")
TORCH_KERNELS(torch_strided_erf, Path::strided, "none")
TORCH_KERNELS(torch_strided_tanh, Path::strided, "tanh")
TORCH_BACKWARD_KERNELS(torch_erf, Path::contiguous, "none")
TORCH_BACKWARD_KERNELS(torch_tanh, Path::contiguous, "tanh")
TORCH_BACKWARD_KERNELS(torch_nomkldnn_erf, Path::no_mkldnn, "none")
TORCH_BACKWARD_KERNELS(torch_nomkldnn_tanh, Path::no_mkldnn, "tanh")
TORCH_BACKWARD_KERNELS(torch_strided_erf, Path::strided, "none")
TORCH_BACKWARD_KERNELS(torch_strided_tanh, Path::strided, "tanh")

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
            if (std::strncmp(rest, "_backward", 9) == 0 && std::strcmp(rest + 9, "_f64") != 0)
                rest += 9;
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
