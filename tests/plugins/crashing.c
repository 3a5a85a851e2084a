/* Test plugin: the good float32 kernel, except that any input x in [2, 3)
 * kills it with SIGSEGV, as a stray store would.  The signal is raised with
 * its default action restored, so that a sanitizer built into the plugin
 * (CI's ASan/UBSan build) reports the crash as the crash it is rather than
 * as a diagnostic of its own. */
#include <math.h>
#include <signal.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 crashing_gelu_f32;

void crashing_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        if (x >= 2.0 && x < 3.0) {
            signal(SIGSEGV, SIG_DFL);
            raise(SIGSEGV);
        }
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}
