/* One forward section of a baseline checked (gelu-acc check,
 * doc/baselines.md): its kernel opened and swept, its bounds compared, the
 * inputs each line names found as it runs (measure/class_witness.h), and,
 * with a 'snapshot', the inputs whose class changed since it was recorded.
 * The command line reads the baseline, calls this per section, prints the
 * lines it wrote and rewrites the file for --update-baseline. */
#ifndef GA_RUN_CHECK_H
#define GA_RUN_CHECK_H

#include <stdio.h>

#include "check/baseline.h"
#include "engine/engine.h"
#include "report/result.h"

struct ga_check_job {
    const char *path, *baseline_dir;   /* the baseline, for messages and relative paths */
    struct ga_sweep_options options;   /* oracle, threads, progress */
    double timeout_s;                  /* plugins: 0: the section's or the default */
    uint64_t max_failures;             /* 0: the section's */
    bool update;                       /* measure only: nothing compared */
    void (*warn)(const char *message); /* a plugin that does not declare its format */
};

/* Measure section e into *r and write its lines to out: a failing kernel's
 * inputs, each exceeded bound with the input it names, the inputs whose
 * class changed against the snapshot, then "PASS name ..." or "FAIL name
 * ...".  *exceeded grows by the bounds exceeded, the kernel's failure and a
 * snapshot's worsened classes.  A GA_ENGINE_* status: GA_ENGINE_OK though
 * bounds were exceeded; GA_ENGINE_BAD_INPUT, with a message, for a kernel
 * or snapshot that cannot be opened. */
int ga_run_check_entry(const struct ga_check_job *job, const struct ga_baseline_entry *e,
                       FILE *out, struct ga_result *r, int *exceeded, char *why, size_t len);

#endif
