/* GELU in double for float64 inputs, with glibc's double functions; each
 * result is the double the formula gives, no further rounding:
 *   erf form:   x*0.5*(1 + erf(x*M_SQRT1_2))
 *     PyTorch 1.13 exact GELU on float64 tensors, scalar loop (strided
 *     tensors: GeluKernel.cpp, kAlpha = M_SQRT1_2, std::erf); SciPy users'
 *     0.5*x*(1 + erf(x/sqrt(2))) differs only in x/sqrt(2) vs x*(1/sqrt(2)).
 *     1 + erf cancels for x < 0: erf(u) -> -1, and the relative error grows
 *     like the ratio 1/erfc(-u) (about 2^40 at x = -10).
 *   erfc form:  0.5*x*erfc(-x*sqrt(0.5))
 *     JAX exact GELU with jax_enable_x64 (jax/_src/nn/functions.py gelu,
 *     approximate=False); no cancellation, erfc's own condition number
 *     (about 2z^2, z = -x/sqrt2) in the left tail.
 *   tanh form:  0.5*x*(1 + tanh(beta*(x + kappa*x*x*x))),
 *     beta = M_SQRT2*M_2_SQRTPI*0.5, kappa = 0.044715
 *     PyTorch 1.13 tanh GELU (approximate='tanh') on float64 tensors, scalar
 *     loop (GeluKernel.cpp's kBeta and kKappa); 1 + tanh cancels for x < 0.
 * Specials follow the formulas: erf and tanh forms give NaN at -inf
 * (-inf * 0), the erfc form too; +inf gives +inf. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"
#include "impls/proven.h"

/* The erf form's constants, proven equal to libtorch (impls/proven.h). */
enum { SQRT1_2, HALF, ONE };
static const struct ga_proven_table erf_table = { { M_SQRT1_2, 0.5, 1 }, 0 };
static const char *const erf_constants[] = { "M_SQRT1_2", "0.5 in x*0.5", "1 in 1 + erf", NULL };
static const char *const no_steps[] = { NULL };

static inline double erf_f64(const struct ga_proven_table *c, double x)
{
    return x * c->k[HALF] * (c->k[ONE] + erf(x * c->k[SQRT1_2]));
}

double ga_gelu_erf_f64(double x)
{
    return erf_f64(&erf_table, x);
}

static double erf_form(const struct ga_proven_table *c, const struct ga_format *f, double x)
{
    (void)f;
    return erf_f64(c, x);
}

const struct ga_proven_model ga_proven_erf_f64 = { "erf_f64", &erf_table, erf_constants,
                                                   no_steps, GA_PROVEN_ULP_FLOAT64, erf_form };

double ga_gelu_erfc_f64(double x)
{
    return 0.5 * x * erfc(-x * sqrt(0.5));
}

double ga_gelu_tanh_f64(double x)
{
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    return 0.5 * x * (1 + tanh(beta * (x + kappa * x * x * x)));
}
