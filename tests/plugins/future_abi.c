/* Test plugin: claims a kernel ABI version that does not exist yet (the
 * loader must refuse it); the kernel itself would be fine. */
#include <stddef.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT const int gelu_acc_kernel_abi_version;
const int gelu_acc_kernel_abi_version = GELU_ACC_KERNEL_ABI_VERSION + 1;

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 future_gelu_f32;

void future_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}
