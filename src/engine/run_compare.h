/* gelu-acc compare as one library call: two kernels named by specs
 * (measure/kernel_spec.h) run over the same inputs in one sweep, which
 * computes the truth once, summarizes each side as sweep does, and tallies
 * them input by input (measure/compare_tally.h).  The command line parses
 * the options into a job and prints what comes back (report/compare_print.h). */
#ifndef GA_RUN_COMPARE_H
#define GA_RUN_COMPARE_H

#include "engine/engine.h"
#include "measure/compare_tally.h"
#include "measure/kernel_spec.h"
#include "report/result.h"

struct ga_compare_job {
    const char *spec[2];               /* A and B: NAME, plugin:LIB:SYMBOL, outputs:FILE */
    const char *name[2];               /* the sides in reports; NULL: their specs */
    struct ga_kernel_request kernel;   /* format, reference, domain, inputs, plugin options */
    struct ga_sweep_options options;   /* oracle, threads, progress */
    /* called with a warning before the sweep starts (NULL: none wanted) */
    void (*warn)(const char *message);
};

struct ga_compare_done {
    struct ga_kernel kernel[2];
    struct ga_result *results;          /* A's and B's summaries, as sweep prints them */
    struct ga_compare_tally tally;
    char domain[GA_DOMAIN_SPEC_LEN];   /* the inputs both sides ran on, in words */
};

/* Compare the job's sides: *done filled (free it with ga_compare_done_free
 * in every case); a GA_ENGINE_* status, with a message when not OK:
 * GA_ENGINE_FAILED when a side failed (a plugin that crashed or hung, with
 * its inputs), GA_ENGINE_BAD_INPUT for a side that does not open or sides
 * over different inputs. */
int ga_run_compare(const struct ga_compare_job *job, struct ga_compare_done *done, char *why,
                   size_t len);
void ga_compare_done_free(struct ga_compare_done *done);

#endif
