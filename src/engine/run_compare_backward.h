/* gelu-acc compare --backward: two backward kernels (measure/backward_kernel.h)
 * or backward outputs files over the same pairs (x, dy), swept together
 * (ga_backward_sweep_rows: each pair's truth RN(dy d(x)) computed once) and
 * tallied pair by pair (measure/compare_tally.h).  Called by ga_run_compare
 * (run_compare.h), whose job and statuses it takes. */
#ifndef GA_RUN_COMPARE_BACKWARD_H
#define GA_RUN_COMPARE_BACKWARD_H

#include "engine/compare_job.h"

int ga_run_compare_backward(const struct ga_compare_job *job, struct ga_compare_done *done,
                            char *why, size_t len);

/* What ga_compare_done_free frees of a backward comparison. */
void ga_compare_backward_free(struct ga_compare_done *done);

#endif
