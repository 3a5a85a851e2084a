/* Test plugin: the good float32 kernel with an off-by-one store: it writes
 * out[n], one element past the end of its output array (a loop bound of
 * i <= n).  Every output it owes is right, so only the store past the end
 * can reveal it.  overrun_some_gelu_f32 does it only in calls that hold an
 * input x in [2, 3), as a bug on one code path would. */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 overrun_gelu_f32;
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 overrun_some_gelu_f32;

void overrun_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
    ((volatile float *)out)[n] = 0.0f;
}

void overrun_some_gelu_f32(const float *in, float *out, size_t n)
{
    int store = 0;

    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
        store |= x >= 2.0 && x < 3.0;
    }
    if (store)
        ((volatile float *)out)[n] = 0.0f;
}
