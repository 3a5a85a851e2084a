/* gelu-acc sweep --backward (and grade --backward) as one library call: a
 * backward kernel over its pairs, the whole of them or a shard, resumed
 * from and saved to a checkpoint, over the ranks of mpirun (state/run.h). */
#ifndef GA_RUN_BACKWARD_H
#define GA_RUN_BACKWARD_H

#include "engine/engine.h"
#include "measure/backward_kernel.h"
#include "measure/outputs_snapshot.h"
#include "state/backward_sweep_file.h"
#include "state/run.h"

struct ga_backward_job {
    struct ga_backward_request kernel;
    struct ga_run_share share;        /* ga_run_share_init */
    /* the pairs and dx written there and beside it (measure/outputs_snapshot.h,
     * ga_pairs_snapshot); one process, no share (NULL: none) */
    const char *save_outputs;
};

struct ga_backward_done {
    struct ga_backward_kernel kernel; /* open: its sweep prints the result */
    struct ga_backward_stats stats;   /* the result, when have_stats */
    bool have_stats;                  /* rank 0, not written to share.partial */
};

/* Sweep the job: *done filled (ga_backward_done_free in every case); a
 * GA_ENGINE_* status (GA_ENGINE_FAILED when a batch of the kernel failed),
 * with a message when not OK. */
int ga_run_backward(const struct ga_backward_job *job, struct ga_backward_done *done, char *why,
                    size_t len);
void ga_backward_done_free(struct ga_backward_done *done);

/* A backward sweep set up by the caller (graded outputs: grade --backward),
 * run whole or, under mpirun, one shard per rank merged on rank 0: *stats
 * valid on rank 0.  GA_ENGINE_OK, or a status and a message (read_error,
 * when given, tells a file that failed to read: bad input). */
int ga_run_backward_sweep(const struct ga_backward_sweep *s, struct ga_backward_stats *stats,
                          const char *(*read_error)(const void *ctx), const void *ctx, char *why,
                          size_t len);

#endif
