/* What gelu-acc compare is asked (a job) and what it leaves (done), forward
 * or backward: shared by the forward engine (run_compare.h, the entry
 * point) and the backward one (run_compare_backward.h). */
#ifndef GA_COMPARE_JOB_H
#define GA_COMPARE_JOB_H

#include "engine/engine.h"
#include "measure/backward_kernel.h"
#include "measure/compare_tally.h"
#include "measure/graded.h"
#include "measure/kernel_spec.h"
#include "report/compare_print.h"
#include "report/result.h"

struct ga_compare_job {
    const char *spec[2];               /* A and B: NAME, plugin:LIB:SYMBOL, outputs:FILE */
    const char *name[2];               /* the sides in reports; NULL: their specs */
    /* format, reference, domain, inputs (x, backward), plugin options */
    struct ga_kernel_request kernel;
    struct ga_sweep_options options;   /* oracle, threads, progress (forward) */
    bool backward;                     /* backward kernels over pairs (x, dy) */
    bool have_reference;               /* backward: kernel.reference given, else the kernels' own */
    const char *dy;                    /* backward: the fixed dy of a forward domain (NULL: 1) */
    const char *dy_inputs;             /* backward outputs: sides: the dy file beside inputs */
    /* called with a warning before the sweep starts (NULL: none wanted) */
    void (*warn)(const char *message);
};

/* A backward side: a kernel, or outputs read beside the pairs' files. */
struct ga_compare_backward_side {
    struct ga_backward_kernel kernel;
    struct ga_graded graded;
    bool has_graded;
    struct ga_backward_stats stats;
};

struct ga_compare_done {
    struct ga_kernel kernel[2];          /* forward */
    struct ga_result *results;           /* forward: A's and B's summaries, as sweep prints them */
    struct ga_compare_backward_side backward[2];
    struct ga_pairs pairs;               /* backward outputs: sides: the pairs files */
    bool has_pairs;
    struct ga_compare_sides sides;       /* what the reports print */
    struct ga_compare_tally tally;
    char domain[GA_DOMAIN_SPEC_LEN];     /* the inputs both sides ran on, in words */
};

#endif
