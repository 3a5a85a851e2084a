/* Exact GELU with erf from Abramowitz and Stegun 7.1.26, the erf oneDNN
 * 2.6.3's eltwise gelu_erf uses (jit_uni_eltwise_injector.cpp), in the
 * textbook form x*0.5*(1 + erf(x*M_SQRT1_2)):
 *
 *   t = 1/(1 + p*|u|),  r = (((a5*t + a4)*t + a3)*t + a2)*t + a1,
 *   erf(u) = sign(u) * (1 - r*t*exp(-u*u)),
 *
 * p = 0.3275911 and a1..a5 from the Handbook (absolute error <= 1.5e-7).
 * The "+" steps are fmaf(), which is correctly rounded with or without FMA
 * hardware, so the float32 form is the same on every machine; exp is the C
 * library's expf.  oneDNN itself differs in two ways, which erf_dnnl
 * (gelu_dnnl.c) models bit for bit: its own exp polynomial, and the last
 * step fma(erf, 0.5x, 0.5x).  PyTorch 1.13's own vector erf
 * (Vectorized<float>::erf, vec256_float.h) is SLEEF's Sleef_erff8_u10, not
 * this one.
 *
 * erf_as_native does the same with every operation and constant rounded to a
 * 16-bit format (native.h), separate multiply and add, no FMA: the Handbook
 * formula as a hand-written bfloat16/float16 kernel would run it. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"
#include "impls/native.h"

/* Abramowitz and Stegun, Handbook of Mathematical Functions, 7.1.26. */
#define AS_P  0.3275911
#define AS_A1 0.254829592
#define AS_A2 (-0.284496736)
#define AS_A3 1.421413741
#define AS_A4 (-1.453152027)
#define AS_A5 1.061405429

/* Special values: u = NaN -> NaN.  |u| = inf: t = 1/inf = 0, exp(-inf) = 0,
 * 1 + (-0)*r = 1, so erf(+-inf) = +-1.  u = +-0: t = 1 and the result is
 * +-(1 - r) with r the float sum a1 + ... + a5, which need not be 1. */
static float erf_as(float u)
{
    const float p = (float)AS_P;
    float a = fabsf(u);
    float t = 1.0f / fmaf(p, a, 1.0f);
    float r = fmaf((float)AS_A5, t, (float)AS_A4);
    r = fmaf(r, t, (float)AS_A3);
    r = fmaf(r, t, (float)AS_A2);
    r = fmaf(r, t, (float)AS_A1);
    float minus_e = -expf(-(u * u));
    float magnitude = fmaf(minus_e * t, r, 1.0f);
    return signbit(u) ? -magnitude : magnitude;  /* oneDNN XORs u's sign bit in */
}

/* GELU specials: NaN -> NaN; +inf -> +inf; -inf -> (-inf)*(1 - 1) = NaN;
 * +-0 -> (+-0)*(1 +- (1 - r)) = +-0. */
GA_FMA_CLONES float ga_gelu_erf_as_f32(float x)
{
    const float sqrt1_2 = (float)M_SQRT1_2;
    float half_x = x * 0.5f;
    float one_plus_erf = 1.0f + erf_as(x * sqrt1_2);
    return half_x * one_plus_erf;
}

/* Rounded constants: M_SQRT1_2, p and a1..a5 (in bfloat16 e.g. p -> 0.328125,
 * a5 -> 1.0625); 0.5 and 1 are exact.  Same special values as the float32
 * form: -inf gives NaN. */
float ga_gelu_erf_as_native(const struct ga_format *f, float x)
{
    float u = ga_nat_mul(f, x, ga_nat(f, M_SQRT1_2));
    float a = fabsf(u);
    float t = ga_nat_div(f, 1.0f, ga_nat_add(f, ga_nat_mul(f, ga_nat(f, AS_P), a), 1.0f));
    float r = ga_nat(f, AS_A5);
    r = ga_nat_add(f, ga_nat_mul(f, r, t), ga_nat(f, AS_A4));
    r = ga_nat_add(f, ga_nat_mul(f, r, t), ga_nat(f, AS_A3));
    r = ga_nat_add(f, ga_nat_mul(f, r, t), ga_nat(f, AS_A2));
    r = ga_nat_add(f, ga_nat_mul(f, r, t), ga_nat(f, AS_A1));
    float minus_e = -ga_nat(f, expf(-ga_nat_mul(f, u, u)));
    float magnitude = ga_nat_add(f, ga_nat_mul(f, ga_nat_mul(f, minus_e, t), r), 1.0f);
    float erf_u = signbit(u) ? -magnitude : magnitude;
    float half_x = ga_nat_mul(f, x, 0.5f);
    return ga_nat_mul(f, half_x, ga_nat_add(f, 1.0f, erf_u));
}
