/* gelu-acc sweep as one library call: a kernel named by a spec over a
 * domain, the whole of it or a shard, resumed from and saved to a
 * checkpoint, over the ranks of mpirun (state/run.h).  The command line
 * parses the options into a job and prints what comes back. */
#ifndef GA_RUN_SWEEP_H
#define GA_RUN_SWEEP_H

#include "engine/engine.h"
#include "measure/kernel_spec.h"
#include "measure/outputs_snapshot.h"
#include "state/partial.h"
#include "state/run.h"

struct ga_sweep_job {
    struct ga_kernel_request kernel;   /* spec, format, reference, domain, plugin options */
    struct ga_sweep_options options;   /* oracle, threads, max_failures, progress */
    struct ga_run_share share;         /* shard, partial, checkpoint (ga_run_share_init) */
    /* called with a warning before the sweep starts (NULL: none wanted) */
    void (*warn)(const char *message);
    /* write the kernel's outputs over the whole domain there
     * (measure/outputs_snapshot.h); one process, no share (NULL: none) */
    const char *save_outputs;
};

struct ga_sweep_done {
    struct ga_kernel kernel;           /* open: its domain prints the result */
    struct ga_partial *state;          /* finished; NULL on ranks other than 0 */
    bool written;                      /* the state went to share.partial */
};

/* Sweep the job: *done filled (free it with ga_sweep_done_free in every
 * case); a GA_ENGINE_* status, with a message when not OK. */
int ga_run_sweep(const struct ga_sweep_job *job, struct ga_sweep_done *done, char *why, size_t len);
void ga_sweep_done_free(struct ga_sweep_done *done);

#endif
