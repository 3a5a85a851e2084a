// Test plugin in C++: <gelu-acc/kernel.h> must compile as C++ and its
// declaration macro give the kernel C linkage and an exported format.
// The kernel is the good float32 one (good.c).
#include <cmath>
#include <cstddef>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;
GELU_ACC_KERNEL_F32(cxx_gelu_f32);

void cxx_gelu_f32(const float *in, float *out, std::size_t n)
{
    for (std::size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = std::isinf(x) && x < 0 ? -0.0f
                                         : static_cast<float>(0.5 * x * std::erfc(-x * M_SQRT1_2));
    }
}
