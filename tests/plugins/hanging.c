/* Test plugin: the good float32 kernel, except that it never returns for
 * x = 1.5f (0x3fc00000) (hanging_gelu_f32), or for any x in [4, 8)
 * (hanging_region_gelu_f32: a whole region of hanging batches). */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 hanging_gelu_f32;
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 hanging_region_gelu_f32;

static volatile int spinning = 1;

static float gelu(double x)
{
    return isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
}

void hanging_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        while (x == 1.5 && spinning)
            continue;
        out[i] = gelu(x);
    }
}

void hanging_region_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        while (x >= 4.0 && x < 8.0 && spinning)
            continue;
        out[i] = gelu(x);
    }
}
