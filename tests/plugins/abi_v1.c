/* Test plugin: a library built against kernel ABI version 1 (before the
 * backward kernels).  Its forward kernel still loads; anything named as a
 * backward kernel is refused, whatever its code. */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT const int gelu_acc_kernel_abi_version;
const int gelu_acc_kernel_abi_version = 1;

GELU_ACC_KERNEL_F32(v1_gelu_f32);
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 v1_other_f32;

void v1_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}

/* An undeclared kernel, which --backward would otherwise take on trust. */
void v1_other_f32(const float *in, float *out, size_t n)
{
    v1_gelu_f32(in, out, n);
}
