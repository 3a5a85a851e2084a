/* The MPFR oracles alone, by function: what the fast oracle falls back to
 * (its own file, so that the fast oracle does not depend on the dispatch
 * that calls it). */
#include "truth/truth.h"

#include "truth/gelu_oracles.h"

int ga_truth_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits x,
                  struct ga_truth *out)
{
    switch (fn) {
    case GA_GELU_TANH: return ga_gelu_tanh_mpfr(f, x, out);
    case GA_GELU_GRAD:
    case GA_GELU_TANH_GRAD: return ga_grad_mpfr(fn, f, x, out);
    default: return ga_gelu_mpfr(f, x, out);
    }
}
