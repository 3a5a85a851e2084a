/* oneDNN 2.6.3's exact GELU (eltwise gelu_erf), as its JIT kernel computes
 * it in float32: src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp,
 * gelu_erf_compute_vector_fwd and exp_compute_vector_fwd, constants from
 * that file's tables (as float bit patterns).  PyTorch 1.13 hands exact
 * GELU of contiguous float32 tensors (and of bfloat16 ones on CPUs with
 * AVX-512 BF16) to this kernel.
 *
 *   u = x*0x3f3504f3 (1/sqrt2);  t = 1/fma(p, |u|, 1)
 *   e = exp_dnnl(-(u*u))          oneDNN's exp, below
 *   r = Horner a5..a1 in t with fma (Abramowitz-Stegun 7.1.26)
 *   erf = sign(x) * fma(-e*t, r, 1)
 *   S = 0.5*x;  gelu = fma(erf, S, S)
 *
 * The last step is what sets it apart from (0.5x)*(1 + erf): for x < 0
 * whose erf rounds to -1 the result is S - S = +0, not -0 (and -0 itself
 * gives +0).
 *
 * exp_dnnl(v): v clamped to [ln FLT_MIN, ln FLT_MAX] (vminps/vmaxps: a NaN
 * becomes the bound), n = floor(v*log2(e) + 0.5), r = fma(-n, ln2, v),
 * p = degree-5 polynomial in r by fma, times 2^(n-1) built in the exponent
 * bits (0 where v < ln FLT_MIN), times 2.
 *
 * bfloat16: oneDNN computes the same float32 and converts it with
 * VCVTNEPS2BF16 (round to nearest even; a subnormal float32 becomes a zero
 * of its sign), so subnormal results are flushed.  Only CPUs with AVX-512
 * BF16 run this path.
 *
 * Every constant, one entry per occurrence, and the two explicit rounding
 * steps (the floor, the flush) are in one table (impls/proven.h), which
 * the mutation test changes one entry at a time. */
#include "formats/fp_contract.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "impls/catalogue_internal.h"
#include "impls/proven.h"

enum {
    ONE_OVER_SQRT2, P, T_ONE, T_NUMERATOR, A1, A2, A3, A4, A5, ERF_ONE, HALF,
    LN_FLT_MIN, LN_FLT_MAX, LOG2E, ROUND_HALF, LN2, P0, P1, P2, P3, P4, P5, BIAS_ONE, TWO
};
enum { STEP_FLOOR = 1u << 0, STEP_FLUSH = 1u << 1 };

/* oneDNN's float bit patterns, as hexadecimal floats: 0x3f3504f3 (1/sqrt2),
 * 0x3ea7ba05 (p), 0x3e827906 0xbe91a98e 0x3fb5f0e3 0xbfba00e3 0x3f87dc22
 * (a1..a5), 0xc2aeac50 0x42b17218 (ln FLT_MIN, ln FLT_MAX), 0x3fb8aa3b
 * (log2 e), 0x3f317218 (ln 2), 0x3f7ffffb 0x3efffee3 0x3e2aad40 0x3d2b9d0d
 * 0x3c07cfce (p1..p5). */
static const struct ga_proven_table table = {
    { [ONE_OVER_SQRT2] = 0x1.6a09e6p-1, [P] = 0x1.4f740ap-2, [T_ONE] = 1, [T_NUMERATOR] = 1,
      [A1] = 0x1.04f20cp-2, [A2] = -0x1.23531cp-2, [A3] = 0x1.6be1c6p+0,
      [A4] = -0x1.7401c6p+0, [A5] = 0x1.0fb844p+0, [ERF_ONE] = 1, [HALF] = 0.5,
      [LN_FLT_MIN] = -0x1.5d58ap+6, [LN_FLT_MAX] = 0x1.62e43p+6, [LOG2E] = 0x1.715476p+0,
      [ROUND_HALF] = 0.5, [LN2] = 0x1.62e43p-1, [P0] = 1, [P1] = 0x1.fffff6p-1,
      [P2] = 0x1.fffdc6p-2, [P3] = 0x1.555a8p-3, [P4] = 0x1.573a1ap-5, [P5] = 0x1.0f9f9cp-7,
      [BIAS_ONE] = 1, [TWO] = 2 },
    STEP_FLOOR | STEP_FLUSH
};

static float from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* vminps a, b / vmaxps a, b: the second operand when either is NaN. */
static float vmin(float a, float b)
{
    return a < b ? a : b;
}

static float vmax(float a, float b)
{
    return a > b ? a : b;
}

#define K(i) ((float)c->k[i])

/* Inlined, so that its fmaf() calls are instructions in the FMA copies and
 * the constants of the catalogue's table are folded. */
static inline __attribute__((always_inline)) float exp_dnnl(const struct ga_proven_table *c,
                                                           float v)
{
    int underflow = v < K(LN_FLT_MIN);
    float s = vmax(vmin(v, K(LN_FLT_MAX)), K(LN_FLT_MIN));
    float n = s * K(LOG2E) + K(ROUND_HALF);
    if (c->steps & STEP_FLOOR)
        n = floorf(n);
    float r = fmaf(-n, K(LN2), s);
    /* 2^(n-1): n - 1 is in [-127, 127], so the biased exponent fits. */
    int32_t e = (int32_t)(n - K(BIAS_ONE)) + 127;
    float scale = underflow ? 0.0f : from_bits((uint32_t)e << 23);
    float p = fmaf(fmaf(fmaf(fmaf(fmaf(K(P5), r, K(P4)), r, K(P3)), r, K(P2)), r, K(P1)), r,
                   K(P0));
    return p * scale * K(TWO);
}

static inline __attribute__((always_inline)) float erf_dnnl(const struct ga_proven_table *c,
                                                           float x)
{
    float u = x * K(ONE_OVER_SQRT2);
    float t = K(T_NUMERATOR) / fmaf(K(P), fabsf(u), K(T_ONE));
    float minus_e_t = -exp_dnnl(c, -(u * u)) * t;
    float r = fmaf(fmaf(fmaf(fmaf(K(A5), t, K(A4)), t, K(A3)), t, K(A2)), t, K(A1));
    float erf = fmaf(minus_e_t, r, K(ERF_ONE));
    float half_x = x * K(HALF);
    if (signbit(x))
        erf = -erf;  /* XOR with x's sign bit */
    return fmaf(erf, half_x, half_x);
}

/* VCVTNEPS2BF16 on the float32 result: a subnormal float32 gives a zero of
 * its sign; anything else rounds to nearest even (NaN stays NaN), which the
 * batch function's encoding does. */
static inline __attribute__((always_inline)) float flush(const struct ga_proven_table *c,
                                                        float y)
{
    if ((c->steps & STEP_FLUSH) && fpclassify(y) == FP_SUBNORMAL)
        return copysignf(0.0f, y);
    return y;
}

#undef K

GA_FMA_CLONES float ga_gelu_erf_dnnl_f32(float x)
{
    return erf_dnnl(&table, x);
}

GA_FMA_CLONES float ga_gelu_erf_dnnl_bf16(float x)
{
    return flush(&table, erf_dnnl(&table, x));
}

GA_FMA_CLONES static double form(const struct ga_proven_table *c, const struct ga_format *f,
                                 double x)
{
    float y = erf_dnnl(c, (float)x);
    return f->id == GA_BFLOAT16 ? flush(c, y) : y;
}

static const char *const constants[] = {
    "1/sqrt2", "p", "1 in 1 + p|u|", "1 in 1/(1 + p|u|)", "a1", "a2", "a3", "a4", "a5",
    "1 in 1 - e*t*r", "0.5 in 0.5x", "ln FLT_MIN", "ln FLT_MAX", "log2 e",
    "0.5 in floor(v*log2e + 0.5)", "ln 2", "exp p0 (1)", "exp p1", "exp p2", "exp p3", "exp p4",
    "exp p5", "1 in 2^(n-1)", "2 in 2^(n-1)*2", NULL
};
static const char *const steps[] = { "floor of n", "bfloat16 subnormal flush", NULL };

const struct ga_proven_model ga_proven_erf_dnnl = { "erf_dnnl", &table, constants, steps,
                                                    GA_PROVEN_ULP_FLOAT32, form };
