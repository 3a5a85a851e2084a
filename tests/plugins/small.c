/* Test plugin: byte kernels of the small formats (<gelu-acc/kernel.h>).
 * small_gelu_e4m3fn is correctly rounded by its own arithmetic: the OCP
 * E4M3 encoding decoded by sign, exponent and fraction, GELU in double, the
 * result rounded by searching the 127 finite magnitudes (nearest, ties to
 * the even encoding, saturating).  Where double rounds gelu(x) to x itself
 * (x > about 27), the value is just below x (gelu(x) < x for x > 0).
 * small_wide_f4e2m1 sets a bit above float4_e2m1's four: no encoding. */
#include <math.h>
#include <stdint.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;
GELU_ACC_KERNEL_F8E4M3FN(small_gelu_e4m3fn);
GELU_ACC_KERNEL_F4E2M1(small_wide_f4e2m1);

static double e4m3_value(unsigned h)
{
    unsigned e = (h >> 3) & 0xf, m = h & 7;
    double v = e == 0 ? ldexp(m, -9) : ldexp(8 + m, (int)e - 10);
    return h & 0x80 ? -v : v;
}

static uint8_t e4m3_round(double v)
{
    uint8_t sign = signbit(v) ? 0x80 : 0, best = 0;
    double a = fabs(v);

    if (isnan(v))
        return 0x7f;
    for (unsigned h = 1; h <= 0x7e; h++) {  /* 0x7f is NaN */
        double d = fabs(a - e4m3_value(h)), db = fabs(a - e4m3_value(best));
        if (d < db || (d == db && !(h & 1)))
            best = (uint8_t)h;
    }
    return sign | best;  /* beyond 448 the nearest is 448: saturation */
}

void small_gelu_e4m3fn(const uint8_t *in, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = (in[i] & 0x7f) == 0x7f ? NAN : e4m3_value(in[i]);
        double y = 0.5 * x * erfc(-x * M_SQRT1_2);
        if (x > 0 && y >= x)
            y = nextafter(x, 0);
        out[i] = e4m3_round(y);
    }
}

void small_wide_f4e2m1(const uint8_t *in, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (uint8_t)(in[i] | 0x10);
}
