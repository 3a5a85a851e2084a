/* An example plugin: a fast float32 GELU in the tanh form, written so that
 * GCC vectorizes it at -O3 (no calls, no branches in the loop).
 *
 * Formula: gelu_tanh(x) = (x/2)(1 + tanh(u)), u = sqrt(2/pi)(x + 0.044715 x^3),
 * computed as x * sigmoid(2u) = x / (1 + e^(-2u)), which has no cancellation
 * in the left tail, with e^(-2u) = 2^t, t = x (A + B x^2):
 *   A = -2 log2(e) sqrt(2/pi) = -2.3022081981443249,
 *   B = 0.044715 A            = -0.10294323958002349.
 * 2^t = 2^k 2^f, k = t rounded to an integer, f = t - k in [-1/2, 1/2];
 * 2^f by its Taylor polynomial of degree 6, sum (f ln 2)^i / i!, whose
 * truncation error is below (ln(2)/2)^7/7! = 1.2e-7 relative.
 *
 * Known shortcuts, for the suite to show:
 * - t is clamped to [-126, 126] so that 2^k is a normal float: for x above
 *   about 54.7, 2^t stays 2^-126 instead of vanishing (harmless: x/(1+2^-126)
 *   rounds to x);
 * - below x = -10 (where t reaches 126: t(-10.00104) = 126) the result is
 *   flushed to -0, although the tanh form is still representable in float32
 *   down to about -10.7 (gelu_tanh(-10.5) = -7.4e-43, a subnormal).
 * Special values: NaN -> NaN, +inf -> +inf, -inf -> -0.
 *
 * The bfloat16 kernel decodes to float exactly (a bfloat16 is the high half
 * of a float32), computes as above, and rounds once to nearest even, as
 * PyTorch does for 16-bit inputs ("opmath" float).
 */
#include <stdint.h>
#include <string.h>

#include <gelu-acc/kernel.h>

GELU_ACC_KERNEL_ABI_TAG;

GELU_ACC_KERNEL_F32(gelu_tanh_fast_f32);
GELU_ACC_KERNEL_BF16(gelu_tanh_fast_bf16);

static const float A = -2.3022081981443249f;
static const float B = -0.10294323958002349f;

/* (ln 2)^i / i! */
static const float C1 = 0.69314718055994531f;
static const float C2 = 0.24022650695910071f;
static const float C3 = 0.055504108664821580f;
static const float C4 = 0.0096181291076284772f;
static const float C5 = 0.0013333558146428443f;
static const float C6 = 0.00015403530393381610f;

/* Adding and subtracting 1.5 * 2^23 rounds |t| < 2^22 to an integer (the
 * current rounding mode: to nearest). */
static const float ROUND = 12582912.0f;

/* mask ? b : a, on the bits.  Selects and clamps are written this way
 * because GCC, under the default -ftrapping-math, turns ?: on floats into
 * branches (after jump threading), and branches stop vectorization. */
static inline float select_bits(uint32_t mask, float a, float b)
{
    uint32_t ab, bb;

    memcpy(&ab, &a, sizeof ab);
    memcpy(&bb, &b, sizeof bb);
    ab = (ab & ~mask) | (bb & mask);
    memcpy(&a, &ab, sizeof a);
    return a;
}

static inline uint32_t mask_of(int condition)
{
    return -(uint32_t)condition;
}

static inline float gelu_tanh_fast(float x)
{
    float t = x * (A + B * x * x);
    float k, f, p, scale, y;
    int32_t bits;

    /* Clamp; NaN takes the lower bound, so no NaN reaches the int conversion. */
    t = select_bits(mask_of(!(t > -126.0f)), t, -126.0f);
    t = select_bits(mask_of(t > 126.0f), t, 126.0f);
    k = (t + ROUND) - ROUND;
    f = t - k;
    p = 1.0f + f * (C1 + f * (C2 + f * (C3 + f * (C4 + f * (C5 + f * C6)))));
    bits = ((int32_t)k + 127) << 23;   /* 2^k */
    memcpy(&scale, &bits, sizeof scale);
    y = x / (1.0f + p * scale);
    return select_bits(mask_of(x < -10.0f), y, -0.0f);
}

void gelu_tanh_fast_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        out[i] = gelu_tanh_fast(in[i]);
}

void gelu_tanh_fast_bf16(const uint16_t *in, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t xb = (uint32_t)in[i] << 16, yb;
        float x, y;

        memcpy(&x, &xb, sizeof x);
        y = gelu_tanh_fast(x);
        memcpy(&yb, &y, sizeof yb);
        /* Round to nearest even on the 16 dropped bits; a NaN stays a
         * (quiet) NaN rather than rounding into infinity. */
        uint32_t rounded = (yb + 0x7fffu + ((yb >> 16) & 1u)) >> 16;
        uint32_t quiet = (yb >> 16) | 0x40u;
        out[i] = (uint16_t)((yb & 0x7fffffffu) > 0x7f800000u ? quiet : rounded);
    }
}
