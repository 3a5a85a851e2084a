/* Test plugin: the good float32 kernel, except that any input x in [2, 3)
 * (crashing_gelu_f32; crashing_negative_gelu_f32: x in (-3, -2]) kills it
 * with SIGSEGV, as a stray store would.  The signal is raised with
 * its default action restored, so that a sanitizer built into the plugin
 * (CI's ASan/UBSan build) reports the crash as the crash it is rather than
 * as a diagnostic of its own. */
#include <math.h>
#include <signal.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 crashing_gelu_f32;
GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 crashing_negative_gelu_f32;

static void crash(void)
{
    signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
}

static float gelu(double x)
{
    return isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
}

void crashing_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (in[i] >= 2.0f && in[i] < 3.0f)
            crash();
        out[i] = gelu(in[i]);
    }
}

/* The same on x in (-3, -2]: a sweep's runs on -x for the odd identity
 * crash where its runs on x do not. */
void crashing_negative_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (in[i] > -3.0f && in[i] <= -2.0f)
            crash();
        out[i] = gelu(in[i]);
    }
}
