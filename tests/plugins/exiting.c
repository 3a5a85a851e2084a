/* Test plugin: the good float32 kernel, except that any input x in [2, 3)
 * makes it call exit(7), as a kernel that gives up would.  exit() runs the
 * atexit handlers and flushes stdio: in a worker that must not repeat
 * anything gelu-acc had buffered before the fork. */
#include <math.h>
#include <stdlib.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 exiting_gelu_f32;

void exiting_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        if (x >= 2.0 && x < 3.0)
            exit(7);
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}
