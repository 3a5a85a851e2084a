/* Test plugin: kernels declared with their format (GELU_ACC_KERNEL_F32,
 * _BF16), which the loader checks; plus a variable, which is not a kernel.
 * The kernels are the good ones (good.c). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;
GELU_ACC_KERNEL_F32(declared_gelu_f32);
GELU_ACC_KERNEL_BF16(declared_gelu_bf16);

/* A table a kernel might use: data, not code. */
GELU_ACC_EXTERN_C GELU_ACC_EXPORT const float declared_table[4];
const float declared_table[4] = { 0.0f, 0.5f, 1.0f, 1.5f };

static double gelu(double x)
{
    if (isinf(x) && x < 0)
        return -0.0;
    return 0.5 * x * erfc(-x * M_SQRT1_2);
}

void declared_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (float)gelu(in[i]);
}

/* bfloat16: exact decode, round the float result to nearest even. */
void declared_gelu_bf16(const uint16_t *in, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t xb = (uint32_t)in[i] << 16, yb;
        float x, y;

        memcpy(&x, &xb, sizeof x);
        y = (float)gelu(x);
        memcpy(&yb, &y, sizeof yb);
        if (isnan(y))
            out[i] = (uint16_t)((yb >> 16) | 0x40);
        else
            out[i] = (uint16_t)((yb + 0x7fff + ((yb >> 16) & 1)) >> 16);
    }
}
