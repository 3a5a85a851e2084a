/* The two functions in double, each with a bound on its relative error.
 *
 * u = 2^-53 (one rounding to nearest), L = GA_FAST_LIBM_REL_ERR.  x is a
 * value of a format with at most 24 significant bits, so x*x is exact.
 * In the tails erfc and exp magnify the rounding error of their argument
 * (erfc's condition number is x^2 = 1296 at x = -36: 2600u for an argument
 * rounded twice); where that matters both evaluations carry the
 * argument's residual and remove its first-order effect, leaving a bound
 * near L + 20u for every x in range.
 *
 * GELU, x >= -36: gelu(x) = (x/2) erfc(z), z = -x/sqrt(2).
 *   t = RN(-x S_hi) and tau = (-x S_hi - t) - x S_lo (the bracket exact), with
 *   S_hi + S_lo = 1/sqrt(2) to 2^-107: z = t + tau* with
 *   |tau* - tau| <= 2u |tau| + 2^-106 |x|, |tau*| <= 2.3u |t|.
 *   erfc(z) = erfc(t) exp(-G(s) tau*) for some s between t and z, where
 *   G = -d ln erfc/ds.  By A&S 7.1.13, for s >= 0
 *   s + sqrt(s^2 + 4/pi) <= G(s) <= s + sqrt(s^2 + 2), so
 *   0 < G(s) - 2s <= min(sqrt 2, 1/s), and for s < 0, G(s) <= 1.13 e^(-s^2).
 *   Replacing exp(-G tau*) by 1 - 2t tau for t > 0, and by 1 for t <= 0,
 *   therefore errs by at most 2.3u (s >= 0) or 1.13 * 0.43 * 2.3u (s < 0),
 *   plus second-order terms below 2^-80 (|G tau| < 2^-41 for t <= 25.5).
 *   With erfc (L), applying the correction (u), the product by x (u) and the
 *   exact halving (v > 2^-950 is normal):  |v/gelu(x) - 1| <= 4.4u + 1.01 L.
 *
 * Tanh form, x >= -20: gelu_tanh(x) = x / (1 + e^(-2w)),
 *   w = beta (x + kappa x^3).  Plainly, w_hi = RN(B_hi RN(x + RN(RN(K_hi x^2) x)))
 *   with B_hi, K_hi the constants rounded: the roundings of K_hi, of the two
 *   products (3.01u, weighted by kappa x^2/(1 + kappa x^2) < 1 in the sum of
 *   same-signed terms), of the sum, of B_hi and of the last product leave
 *   |w_hi/w - 1| <= 6.02u, which exp magnifies by 2|w|: 12.05 |w| u.  For
 *   |w_hi| > 1 the residual w_lo is formed as well (exact products and sum,
 *   double-double constants): w_hi + w_lo errs by less than 2^-100
 *   relatively, 2^-90 after exp (2|w| < 604), and e = exp(-2 w_hi)(1 - 2 w_lo)
 *   since exp(-2 w_lo) = 1 - 2 w_lo to (2 w_lo)^2 < 2^-86.  Then exp (L) and
 *   the correction (u), 1 + e, which adds positive terms (u), and the quotient
 *   (u): |v/gelu_tanh(x) - 1| <= 3.1u + 1.01 L for |w_hi| > 1, and
 *   (12.05 + 3.1)u + 1.01 L otherwise.  For x >= -20, e < 2^872 and
 *   |v| > 2^-866: no overflow, no subnormal.
 *
 * The bounds returned add 4u for computing the bound, dividing by |v| rather
 * than |f(x)|, and the caller forming v -/+ rel_err |v| (one rounding each).
 * Step by step: doc/oracle.md, 'The double evaluation of GELU' and of the
 * tanh form. */
/* Error-free transformations below need every product and sum rounded
 * separately: no contraction into fused multiply-adds (GCC contracts by
 * default in GNU C mode wherever the target has an FMA). */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#include <math.h>
#include <stdbool.h>

#include "truth/fast_internal.h"

#define U 0x1p-53

/* Double-double constants hi + lo, from MPFR at 400 bits. */
static const double SQRT1_2_HI = 0x1.6a09e667f3bcdp-1;   /* 1/sqrt(2) */
static const double SQRT1_2_LO = -0x1.bdd3413b26456p-55;
static const double BETA_HI = 0x1.9884533d43651p-1;      /* sqrt(2/pi) */
static const double BETA_LO = -0x1.cbc0d30ebfd15p-55;
static const double KAPPA_HI = 0x1.6e4e26d4801f7p-5;     /* 0.044715 */
static const double KAPPA_LO = 0x1.441355475a31ap-59;

double ga_fast_gelu_double(double x, double *rel_err)
{
    double t_lo, t = ga_fast_two_prod(-x, SQRT1_2_HI, &t_lo);
    double e = erfc(t);

    if (t > 0) {  /* erfc(t + tau) to first order; G(t) = 2t to min(sqrt 2, 1/t) */
        double tau = t_lo - x * SQRT1_2_LO;
        e -= e * (2 * t * tau);
    }
    *rel_err = 8.4 * U + 1.01 * GA_FAST_LIBM_REL_ERR;
    return x * e * 0.5;
}

/* *err = a + b - s exactly for s = RN(a + b) (Knuth's two-sum). */
static void two_sum_error(double a, double b, double s, double *err)
{
    double bb = s - a;

    *err = (a - (s - bb)) + (b - bb);
}

/* e^(-2w), w = beta (x + kappa x^3), for x >= GA_FAST_TANH_DOUBLE_MIN, and
 * *wide: whether |w| > 1 (relative error 1.1u + 1.01 L, else
 * 12.05u + 1.01 L: above). */
static double tanh_exp(double x, bool *wide)
{
    double x2 = x * x;                                    /* exact */
    double p = KAPPA_HI * x2, q = p * x;                  /* kappa x^2, kappa x^3 */
    double a = x + q;
    double w = BETA_HI * a, e;

    *wide = fabs(w) > 1;
    if (!*wide) {
        e = exp(-2 * w);
    } else {
        double p_lo, q_lo, a_lo, w_lo;
        ga_fast_two_prod(KAPPA_HI, x2, &p_lo);            /* the residuals */
        p_lo += KAPPA_LO * x2;
        ga_fast_two_prod(p, x, &q_lo);
        q_lo += p_lo * x;
        two_sum_error(x, q, a, &a_lo);
        a_lo += q_lo;
        ga_fast_two_prod(BETA_HI, a, &w_lo);
        w_lo += BETA_LO * a + BETA_HI * a_lo;
        e = exp(-2 * w);
        e -= e * (2 * w_lo);
    }
    return e;
}

double ga_fast_gelu_tanh_double(double x, double *rel_err)
{
    bool wide;
    double e = tanh_exp(x, &wide);

    *rel_err = (wide ? 7.1 : 19.2) * U + 1.01 * GA_FAST_LIBM_REL_ERR;
    return x / (1 + e);
}

/* ---- The derivatives (doc/oracle.md, 'The fast derivatives') ----
 *
 * Each is the sum of a positive term and a term of x's sign, which cancel
 * next to the root x0 ~ -0.75: the bound is absolute, term by term, as in
 * the MPFR oracle.  The term bounds (relative, first order, u and L as
 * above):
 *
 * gelu'(x) = A + B, A = erfc(z)/2 (= Phi(x)), B = x exp(-x^2/2)/sqrt(2 pi):
 *   A as in ga_fast_gelu_double without the product by x: 3.3u + L;
 *   B: x^2 and its halving exact, exp (L), the product by x (u), the
 *   constant (u) and its product (u): 3u + L.
 * Tanh form, g = T1 + T2, T1 = 1/(1 + e), T2 = 2P e/(1 + e)^2,
 *   P = x beta (1 + 3 kappa x^2), e as in ga_fast_gelu_tanh_double (error
 *   eps_e = 12.05u + L for |w| <= 1, 1.1u + L beyond).  The relative
 *   condition numbers of T1 and T2 in e are e/(1 + e) and
 *   |1 - e|/(1 + e), both at most 1, so e's error passes to each once:
 *   T1: eps_e, 1 + e (u), the quotient (u): eps_e + 2u;
 *   P: 3 kappa and beta rounded (2u), four roundings (4u): 6u;
 *   T2: eps_e, 1 + e twice (2u), two quotients and a product (3u), P (6u):
 *   eps_e + 11u.
 * Then the sum (u) and the caller forming v -/+ err (u each): 3u |v|.  The
 * constants below carry about 1.5u of margin per term, and 2% of L, for
 * second-order terms and for computing err itself. */
static const double INV_SQRT_2PI = 0x1.9884533d43651p-2;  /* 1/sqrt(2 pi) = BETA_HI/2 */

double ga_fast_gelu_grad_double(double x, double *abs_err)
{
    double t_lo, t = ga_fast_two_prod(-x, SQRT1_2_HI, &t_lo);
    double e = erfc(t), a, b, s;

    if (t > 0) {  /* the first-order correction of ga_fast_gelu_double */
        double tau = t_lo - x * SQRT1_2_LO;
        e -= e * (2 * t * tau);
    }
    a = 0.5 * e;                                  /* exact: e > 2^-950 */
    b = x * exp(-0.5 * (x * x)) * INV_SQRT_2PI;
    s = a + b;
    *abs_err = ((5 * U + 1.02 * GA_FAST_LIBM_REL_ERR) * fabs(a)
                + (4.5 * U + 1.02 * GA_FAST_LIBM_REL_ERR) * fabs(b)) + 3 * U * fabs(s);
    return s;
}

double ga_fast_gelu_tanh_grad_double(double x, double *abs_err)
{
    bool wide;
    double e = tanh_exp(x, &wide);
    double d = 1 + e, t1 = 1 / d;
    double p = (BETA_HI * x) * (1 + GA_FAST_THREE_KAPPA * (x * x));
    double t2 = 2 * (p * ((e / d) / d));
    double s = t1 + t2;
    double eps_e = (wide ? 1.1 : 12.05) * U + 1.02 * GA_FAST_LIBM_REL_ERR;

    *abs_err = ((eps_e + 3.5 * U) * fabs(t1) + (eps_e + 12.5 * U) * fabs(t2)) + 3 * U * fabs(s);
    return s;
}
