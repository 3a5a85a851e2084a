/* Dispatch to the oracles. */
#include "truth/truth.h"

#include "truth/fast.h"

#include <mpfr.h>

int ga_truth(enum ga_oracle oracle, enum ga_function fn, const struct ga_format *f,
             ga_bits x, struct ga_truth *out)
{
    return oracle == GA_ORACLE_FAST ? ga_truth_fast(fn, f, x, out) : ga_truth_mpfr(fn, f, x, out);
}


void ga_truth_thread_done(void)
{
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
}
