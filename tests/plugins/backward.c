/* Test plugin: backward kernels (ABI 2), dx = dy * gelu'(x).
 *
 * backward_exact_*: gelu'(x) = Phi(x) + x phi(x) evaluated in double, times
 * dy in double, rounded once into the format.  For x of a 16-bit format or
 * float32, x*x is exact in double, erfc and exp are accurate to a few ulp,
 * and the sum cancels by at most 2^9 next to the root x0 = -0.7518 (the
 * nearest float32 to x0 gives gelu'(x) ~ 1e-8, against Phi ~ 0.23), so the
 * double dx is within 2^-40 of dy gelu'(x), relatively: faithful in every
 * format below double (not always correctly rounded: dy/2 in a subnormal is
 * a midpoint, and dy gelu'(x) for a tiny x lies within 2^-53 above it).
 *
 * backward_wrong_sign_bf16: the same, but the sign of dx flipped for x in
 * (-0.76, -0.74), around x0: the error that turns an update around.
 * backward_crash_bf16: the same, but killed by SIGSEGV at x = 3, dy = 2.
 * backward_overrun_bf16: the same, but reads dy[n].
 * backward_gelu_bf16: a forward kernel declared as such, here to be refused
 * by --backward. */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;
GELU_ACC_BACKWARD_KERNEL_F32(backward_exact_f32);
GELU_ACC_BACKWARD_KERNEL_F16(backward_exact_f16);
GELU_ACC_BACKWARD_KERNEL_BF16(backward_exact_bf16);
GELU_ACC_BACKWARD_KERNEL_BF16(backward_wrong_sign_bf16);
GELU_ACC_BACKWARD_KERNEL_BF16(backward_crash_bf16);
GELU_ACC_BACKWARD_KERNEL_BF16(backward_overrun_bf16);
GELU_ACC_KERNEL_BF16(backward_gelu_bf16);

/* gelu'(x), with gelu'(-inf) = -0 (gelu' < 0 left of x0).  Below
 * x = -38.6 it underflows double: the smallest negative double stands in,
 * so that dy = inf still gives -inf and any finite dy a zero of the right
 * sign. */
static double grad(double x)
{
    double d;

    if (isinf(x))
        return x < 0 ? -0.0 : 1.0;
    d = 0.5 * erfc(-x * M_SQRT1_2) + x * exp(-0.5 * x * x) / sqrt(2.0 * M_PI);
    return d == 0 ? -0x1p-1074 : d;
}

/* v rounded to nearest even with p significand bits, exponent at least
 * emin (subnormals below): rint in the default mode on an exact scaling. */
static double round_to(double v, int p, int emin)
{
    int e;

    if (v == 0 || !isfinite(v))
        return v;
    e = ilogb(v);
    if (e < emin)
        e = emin;
    return ldexp(rint(ldexp(v, p - 1 - e)), e - (p - 1));
}

static float from_bf16(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* v already holds a bfloat16 value (or one past the largest: infinity). */
static uint16_t to_bf16(double v)
{
    float f = (float)v;
    uint32_t u;

    memcpy(&u, &f, sizeof u);
    return isnan(f) ? 0x7fc0 : (uint16_t)(u >> 16);
}

static uint16_t exact_bf16(uint16_t dy, uint16_t x)
{
    return to_bf16(round_to((double)from_bf16(dy) * grad(from_bf16(x)), 8, -126));
}

/* binary16 by its fields. */
static double from_f16(uint16_t h)
{
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double s = h & 0x8000 ? -1.0 : 1.0;

    if (e == 0x1f)
        return m ? NAN : s * INFINITY;
    return s * (e ? ldexp(1024 + m, e - 25) : ldexp(m, -24));
}

static uint16_t to_f16(double v)
{
    uint16_t s = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    int e;

    if (isnan(v))
        return 0x7e00;
    if (a >= 65520.0)                    /* 65504 + half an ulp: rounds to infinity */
        return s | 0x7c00;
    a = round_to(a, 11, -14);
    if (a < 0x1p-14)
        return s | (uint16_t)ldexp(a, 24);
    if (a >= 65536.0)
        return s | 0x7c00;
    e = ilogb(a);
    return s | (uint16_t)((e + 15) << 10) | (uint16_t)(ldexp(a, 10 - e) - 1024);
}

void backward_exact_f32(const float *dy, const float *x, float *dx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dx[i] = (float)((double)dy[i] * grad(x[i]));
}

void backward_exact_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dx[i] = to_f16(from_f16(dy[i]) * grad(from_f16(x[i])));
}

void backward_exact_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dx[i] = exact_bf16(dy[i], x[i]);
}

void backward_wrong_sign_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float xf = from_bf16(x[i]);
        dx[i] = exact_bf16(dy[i], x[i]);
        if (xf > -0.76f && xf < -0.74f)
            dx[i] ^= 0x8000;
    }
}

void backward_crash_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (x[i] == 0x4040 && dy[i] == 0x4000)   /* x = 3, dy = 2 */
            raise(SIGSEGV);
        dx[i] = exact_bf16(dy[i], x[i]);
    }
}

void backward_overrun_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)
{
    volatile uint16_t sink;

    for (size_t i = 0; i < n; i++)
        dx[i] = exact_bf16(dy[i], x[i]);
    sink = dy[n];
    (void)sink;
}

void backward_gelu_bf16(const uint16_t *in, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = in[i];
}
