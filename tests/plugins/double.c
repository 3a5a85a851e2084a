/* Test plugin: float64 kernels (<gelu-acc/kernel.h>, GELU_ACC_KERNEL_F64).
 * double_identity returns its input: for x in [40, 41] that is gelu(x)
 * correctly rounded (x*Phi(-x) < 10^-300, far below half an ulp of x), and
 * for x in [-41, -40] it is wrong (gelu(x) there rounds to -0: |x*Phi(x)|
 * < 10^-340, below the smallest subnormal).
 * double_erfc is 0.5*x*erfc(-x*sqrt(0.5)) with the C library's erfc: the
 * catalogue's erfc_f64, so a sweep of the one must give the other's figures.
 * double_declared_f32 is a float kernel, asked for as float64 by the test. */
#include <math.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;
GELU_ACC_KERNEL_F64(double_identity);
GELU_ACC_KERNEL_F64(double_erfc);
GELU_ACC_KERNEL_F32(double_declared_f32);

void double_identity(const double *in, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}

void double_erfc(const double *in, double *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = 0.5 * in[i] * erfc(-in[i] * sqrt(0.5));
}

void double_declared_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}
