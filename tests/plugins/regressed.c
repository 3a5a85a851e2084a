/* Test plugin: the good kernel (good.c) with one deliberate regression:
 * for x = 1.0f (0x3f800000) it returns the float one ulp above the correct
 * gelu(1) = 0.84134474606854293 (0x3f57625f), i.e. 0x3f576260.  Every other
 * input gives what good_gelu_f32 gives. */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 regressed_gelu_f32;

void regressed_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        float y = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
        out[i] = in[i] == 1.0f ? nextafterf(y, INFINITY) : y;
    }
}
