/* Test plugin: a "vectorized" float32 kernel whose scalar epilogue is
 * sloppy: the last n % 4 elements of a call come out one ulp high (toward
 * +inf); the others are the good kernel's.  Its result for an input depends
 * on where that input sits in the batch, which the contract forbids.  With
 * batches of 4096 elements the epilogue never runs in a plain sweep.
 * small_call_gelu_f32: the same slip in calls of fewer than 4 elements
 * only (a separate path for short calls). */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 position_gelu_f32;
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 small_call_gelu_f32;

static float gelu(double x)
{
    return isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
}

void position_gelu_f32(const float *in, float *out, size_t n)
{
    size_t body = n - n % 4;

    for (size_t i = 0; i < n; i++) {
        float y = gelu(in[i]);
        out[i] = i < body || isnan(y) ? y : nextafterf(y, INFINITY);
    }
}

void small_call_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float y = gelu(in[i]);
        out[i] = n >= 4 || isnan(y) ? y : nextafterf(y, INFINITY);
    }
}
