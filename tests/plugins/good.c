/* Test plugin: a correct GELU, gelu(x) = (x/2) erfc(-x/sqrt(2)) in double,
 * rounded once to the format (so within about 0.5 ulp, but not always
 * correctly rounded: double rounding).  gelu(-inf) = -0 by the suite's
 * convention; erfc(+inf) = 0 would otherwise give -inf * 0 = NaN. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 good_gelu_f32;
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_bf16 good_gelu_bf16;

static double gelu(double x)
{
    if (isinf(x) && x < 0)
        return -0.0;
    return 0.5 * x * erfc(-x * M_SQRT1_2);
}

/* The containment tests also load this kernel for bfloat16 on purpose, so
 * that it reads float32 values from 2-byte-aligned arrays until it touches
 * the guard page past in[n]: in a sanitizer build that misalignment must not
 * stop it first (UBSan's alignment check would abort the worker). */
__attribute__((no_sanitize("alignment")))
void good_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (float)gelu(in[i]);
}

/* bfloat16: exact decode, round the float result to nearest even. */
void good_gelu_bf16(const uint16_t *in, uint16_t *out, size_t n)
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
