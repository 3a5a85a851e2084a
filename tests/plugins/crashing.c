/* Test plugin: the good float32 kernel, except that any input x in [2, 3)
 * makes it store through a null pointer: SIGSEGV. */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 crashing_gelu_f32;

/* volatile: the compiler must not see the null and turn the store into a
 * trap instruction (SIGILL). */
static int *volatile nowhere;

void crashing_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        if (x >= 2.0 && x < 3.0)
            *nowhere = 1;
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}
