/* gelu-acc compare as one library call: two kernels named by specs
 * (measure/kernel_spec.h) run over the same inputs in one sweep, which
 * computes the truth once, summarizes each side as sweep does, and tallies
 * them input by input (measure/compare_tally.h); backward kernels over
 * pairs when job->backward (run_compare_backward.h).  The command line parses
 * the options into a job and prints what comes back (report/compare_print.h). */
#ifndef GA_RUN_COMPARE_H
#define GA_RUN_COMPARE_H

#include "engine/compare_job.h"

/* Compare the job's sides: *done filled (free it with ga_compare_done_free
 * in every case); a GA_ENGINE_* status, with a message when not OK:
 * GA_ENGINE_FAILED when a side failed (a plugin that crashed or hung, with
 * its inputs), GA_ENGINE_BAD_INPUT for a side that does not open, a side
 * of the other direction (a forward kernel with job->backward, a backward
 * one without) or sides over different inputs. */
int ga_run_compare(const struct ga_compare_job *job, struct ga_compare_done *done, char *why,
                   size_t len);
void ga_compare_done_free(struct ga_compare_done *done);

#endif
