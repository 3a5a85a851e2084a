/* Test plugin: the good float32 kernel that also chatters on stdout, one
 * line per call, as a debugging print left in a kernel would.  gelu-acc's
 * own stdout (JSON, CSV) must not receive a byte of it. */
#include <math.h>
#include <stdio.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 printing_gelu_f32;

void printing_gelu_f32(const float *in, float *out, size_t n)
{
    printf("printing_gelu_f32: a call of %zu elements\n", n);
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}
