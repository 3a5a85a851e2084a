/* The backward truth's dispatch: special cases (backward_special.c), the
 * fast path, MPFR. */
#include "truth/backward.h"

int ga_backward_truth(enum ga_function fn, const struct ga_format *f, const struct ga_grad_value *g,
                      ga_bits x, ga_bits dy, struct ga_truth *out)
{
    /* No float tail beyond the 53-bit exact value (truth.h): the backward
     * formats have 24 bits at most.  Left unset, the error measure read it. */
    out->tail = 0.0f;
    if (ga_backward_special(f, g, dy, out) || ga_backward_fast(f, g, dy, out))
        return GA_TRUTH_OK;
    return ga_backward_mpfr(fn, f, x, dy, out);
}
