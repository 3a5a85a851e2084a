/* What the vector paths of the fast oracle share: their kernels' contract
 * and the constants of the evaluation (doc/oracle.md, 'The vector paths').
 *
 * gelu(x) for float32 x in the evaluated range, a = |x| <= 14.36:
 *   Q(a) = Phi(-a) = e^(-a^2/2) M(a),  M(a) = e^(a^2/2) erfc(a/sqrt 2)/2,
 *   s = (7/4 a - 6)/(a + 6) in [-1, 0.94],  M(a) = G(s)/(a + 6),
 *   G a polynomial of degree 18 fitted to e^(a^2/2) erfc(a/sqrt 2)(a + 6)/2;
 *   e^(-h), h = a^2/2 (exact), as 2^k P(r), k = round(-h/ln 2),
 *   r = -h - k L1 - k L2, P the Taylor polynomial of degree 12;
 *   v = x Q for x < 0, x (1 - Q) for x > 0.
 * |v/gelu(x) - 1| <= GA_VEC_GELU_REL_ERR. */
#ifndef GA_TRUTH_FAST_VEC_INTERNAL_H
#define GA_TRUTH_FAST_VEC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

/* The proven bound (about 250 u, u = 2^-53) with its margin: 512 u. */
#define GA_VEC_GELU_REL_ERR 0x1p-44

/* gelu_tanh(x) = x/(1 + e^(-2w)), w = beta (x + kappa x^3), for float32 x in
 * its evaluated range (-10.78 < x < 5): w plainly in double, e^(-2w) as
 * above (k may be positive), the sum and the quotient.  The proven bound is
 * about 700 u (the argument's 6.02 u magnified by 2|w| <= 107); with its
 * margin: 4096 u. */
#define GA_VEC_TANH_REL_ERR 0x1p-41
#define GA_VEC_BETA 0x1.9884533d43651p-1    /* sqrt(2/pi) */
#define GA_VEC_KAPPA 0x1.6e4e26d4801f7p-5   /* 0.044715 */

/* gelu'(x) = Phi(x) + x phi(x), for float32 x in -14 < x < 8: with the
 * same Q(a) = e^(-a^2/2) M(a), a = |x|, and a phi(a) = e^(-a^2/2) a/sqrt(2 pi),
 * d = Q - a phi(a) is gelu'(-a), and gelu'(a) = 1 - d.  The two terms
 * carry at most 248 u each (relative), d and 1 - d one rounding more: the
 * radius 2^-44 (Q + a phi) + 2^-51 |v| covers them and forming the interval
 * (doc/oracle.md, 'The derivative'). */
#define GA_VEC_GRAD_TERM_ERR 0x1p-44
#define GA_VEC_GRAD_VALUE_ERR 0x1p-51
#define GA_VEC_INV_SQRT_2PI 0x1.9884533d43651p-2   /* 1/sqrt(2 pi) */
/* Encodings of the range: -14 < x < 8, x not 0 (fast_vec.c). */
#define GA_VEC_GRAD_LEFT 0x41600000u    /* |x| = 14 */
#define GA_VEC_GRAD_RIGHT 0x41000000u   /* x = 8 */

/* gelu_tanh'(x) = T1 + T2, T1 = 1/(1 + e), T2 = 2 p e/(1 + e)^2, e = e^(-2w)
 * as for gelu_tanh, p = beta x (1 + 3 kappa x^2), for float32 x in
 * -10.5 < x < 8 (x not 0): e's error (695 u) reaches T1 weighted by
 * e/(1 + e), T2 twice; with their own roundings and the sum's, the radius
 * 2^-41 (e/(1 + e) T1 + |T2|) + 2^-51 (T1 + |v|) covers them
 * (doc/oracle.md, 'The tanh form's derivative'). */
#define GA_VEC_TANH_GRAD_TERM_ERR 0x1p-41
#define GA_VEC_3KAPPA 0x1.12ba9d1f60179p-3   /* 0.134145 */
#define GA_VEC_TANH_GRAD_LEFT 0x41280000u   /* |x| = 10.5 */
/* From x = 6.5 on, 0 < gelu_tanh'(x) - 1 < 2 p e < 2^-36: the result rounds
 * to 1 from above, where v = 1 + 2^-37 would not show it (doc/oracle.md). */
#define GA_VEC_TANH_GRAD_ONE 0x40d00000u    /* x = 6.5 */

/* Whether the derivatives' kernels evaluate the float32 encoding x:
 * left < x < 8, |left| = 14 (gelu') or 10.5 (the tanh form's), x not 0. */
static inline int ga_vec_grad_evaluated(int gelu_tanh, ga_bits x)
{
    ga_bits magnitude = x & 0x7fffffffu;
    ga_bits left = gelu_tanh ? GA_VEC_TANH_GRAD_LEFT : GA_VEC_GRAD_LEFT;

    return magnitude != 0 && magnitude < (x == magnitude ? GA_VEC_GRAD_RIGHT : left);
}

/* A kernel's answer for an input it could not decide. */
#define GA_VEC_PENDING 2

/* The kernels: for each float32 encoding x[i] whose value is in the
 * evaluated range, either rounded[i] and direction[i] (-1 or +1) of gelu
 * (gelu_tanh),
 * or direction[i] = GA_VEC_PENDING; anything for other inputs (the caller
 * overrides those). */
void ga_vec_gelu_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_tanh_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_tanh_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_grad_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);
void ga_vec_gelu_tanh_grad_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                    size_t n);
void ga_vec_gelu_tanh_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n);

/* The forward functions' thresholds (fast.c's rules, the fast oracle's
 * thresholds th of the function in float32) written over a kernel's
 * answers for the inputs outside the evaluated range, GA_VEC_PENDING for
 * zeros, infinities and NaNs; returns whether some input is left pending
 * (fast_vec.c). */
struct ga_fast_thresholds;
bool ga_vec_settle_portable(const struct ga_fast_thresholds *th, const ga_bits *x,
                            ga_bits *rounded, int8_t *direction, size_t n);
bool ga_vec_settle_avx2(const struct ga_fast_thresholds *th, const ga_bits *x, ga_bits *rounded,
                        int8_t *direction, size_t n);

/* The same for the derivatives (GA_VEC_GRAD_*): outside the evaluated
 * range pending, and the tanh form's 1 from above from x = 6.5 on. */
bool ga_vec_grad_settle_portable(bool gelu_tanh, const ga_bits *x, ga_bits *rounded,
                                 int8_t *direction, size_t n);
bool ga_vec_grad_settle_avx2(bool gelu_tanh, const ga_bits *x, ga_bits *rounded,
                             int8_t *direction, size_t n);

/* The derivatives' values themselves, for the backward truth
 * (fast_vec_backward.c): v[i] and r[i] with |v[i] - d(x[i])| <= r[i] for
 * each x[i] in the evaluated range (anything elsewhere), fn GA_GELU_GRAD or
 * GA_GELU_TANH_GRAD. */
void ga_vec_grad_values_portable(int gelu_tanh, const ga_bits *x, double *v, double *r,
                                 size_t n);
void ga_vec_grad_values_avx2(int gelu_tanh, const ga_bits *x, double *v, double *r, size_t n);

/* The backward truth's test of the pairs (x[i], dy[i]) from those values
 * (doc/oracle.md, 'The backward truth on the vector paths'): rounded[i]
 * and direction[i] of RN(dy d(x)) where the product's interval decides,
 * and for the tanh form's x in [6.5, 8), where dy d rounds to dy away from
 * zero; GA_VEC_PENDING for every other pair.  Returns whether some pair is
 * pending. */
bool ga_vec_backward_decide_portable(int gelu_tanh, const ga_bits *x, const ga_bits *dy,
                                     const double *v, const double *r, ga_bits *rounded,
                                     int8_t *direction, size_t n);
bool ga_vec_backward_decide_avx2(int gelu_tanh, const ga_bits *x, const ga_bits *dy,
                                 const double *v, const double *r, ga_bits *rounded,
                                 int8_t *direction, size_t n);
/* RN(dy d) for 1 < d < 1 + 2^-36: dy, and the direction away from zero; 0
 * for a dy it does not cover (zeros, infinities, NaN). */
int ga_vec_beyond_dy(ga_bits dy, ga_bits *rounded);

#define GA_VEC_G_DEGREE 18
#define GA_VEC_EXP_DEGREE 12

/* G's coefficients, highest degree first (tools/vec_oracle_coefficients.py). */
static const double ga_vec_g[GA_VEC_G_DEGREE + 1] = {
    0x1.4f36c0b2cc8a3p-32, -0x1.452ac97eb6465p-31, -0x1.a12ed4a8ac039p-28,
    0x1.3ec6305a5c31bp-26, 0x1.55ae91c21046bp-24, -0x1.04e514dd6ad8dp-21,
    -0x1.2e879eebce848p-22, 0x1.578064957ee31p-17, -0x1.12e410d8ef58bp-15,
    -0x1.20c6c2e0320a6p-14, 0x1.2b72c82881ff3p-10, -0x1.9ad340f48df6ap-8,
    0x1.80d5a04c44709p-6, -0x1.18ccfc85f86fdp-4, 0x1.4ff0437edec9ap-3,
    -0x1.51a9ff0a60787p-2, 0x1.208e0686bd930p-1, -0x1.a4f14f984ceebp-1,
    0x1.05604091f22c9p+0,
};

/* 1/i! rounded to double, i = 12 down to 0. */
static const double ga_vec_exp[GA_VEC_EXP_DEGREE + 1] = {
    0x1.1eed8eff8d898p-29, 0x1.ae64567f544e4p-26, 0x1.27e4fb7789f5cp-22,
    0x1.71de3a556c734p-19, 0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-13,
    0x1.6c16c16c16c17p-10, 0x1.1111111111111p-7, 0x1.5555555555555p-5,
    0x1.5555555555555p-3, 0x1.0p-1, 0x1.0p+0, 0x1.0p+0,
};

/* ln 2 = L1 + L2 to 2^-97; L1 has 44 significant bits, so k L1 is exact
 * for |k| < 512. */
#define GA_VEC_LN2_L1 0x1.62e42fefa3800p-1
#define GA_VEC_LN2_L2 0x1.ef35793c76730p-45
#define GA_VEC_LOG2E 0x1.71547652b82fep+0
/* Adding it rounds to an integer held in the low bits (|k| < 2^51). */
#define GA_VEC_ROUND_MAGIC 0x1.8p52

#endif
