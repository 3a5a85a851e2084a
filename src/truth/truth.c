/* Dispatch to the oracles. */
#include "truth/truth.h"

#include "truth/fast.h"
#include "truth/gelu_oracles.h"

#include <mpfr.h>

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

int ga_truth(enum ga_oracle oracle, enum ga_function fn, const struct ga_format *f,
             ga_bits x, struct ga_truth *out)
{
    return oracle == GA_ORACLE_FAST ? ga_truth_fast(fn, f, x, out) : ga_truth_mpfr(fn, f, x, out);
}


void ga_truth_thread_done(void)
{
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}
