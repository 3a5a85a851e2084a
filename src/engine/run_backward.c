/* Backward sweeps (run_backward.h): shard by shard through the run protocol,
 * or whole. */
#include "engine/run_backward.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "state/ranks.h"

/* Shard k of n of s's pairs with nothing measured, its one row named. */
static struct ga_backward_sweep_file *fresh_file(const struct ga_backward_sweep *s, uint64_t dy,
                                                 double timeout_s, uint32_t k, uint32_t n)
{
    struct ga_backward_sweep_file *file = calloc(1, sizeof *file);

    if (!file)
        return NULL;
    ga_backward_sweep_id_init(&file->id, PACKAGE_NAME " " PACKAGE_VERSION, s, dy, timeout_s);
    file->part = ga_backward_partial_new(s->pairs->format, s->pairs->spec, s->pairs->size, k, n, 1);
    if (!file->part) {
        free(file);
        return NULL;
    }
    snprintf(file->part->row[0].impl, sizeof file->part->row[0].impl, "%s", s->name);
    file->part->row[0].reference = s->reference;
    file->part->next = file->part->first;
    return file;
}

/* The chunks of file's shard not measured yet, slice by slice, the state
 * saved to checkpoint (when given) on time and at the end. */
static int measure_rest(const struct ga_backward_sweep *s, struct ga_backward_sweep_file *file,
                        const char *checkpoint, double interval_s, char *why, size_t len)
{
    struct ga_backward_partial *p = file->part;
    struct ga_run_pace pace;

    ga_run_pace_start(&pace, interval_s, 1);
    while (p->next < p->end) {
        uint64_t from = p->next, stop = checkpoint ? ga_run_pace_slice(&pace, from, p->end) : p->end;
        struct ga_backward_stats run;
        if (ga_backward_sweep_share(s, 1, from, stop, &run, p->sums + (from - p->first), why,
                                    len) != 0)
            return GA_ENGINE_UNDECIDED;
        ga_backward_stats_merge(&p->row[0].stats, &run);  /* slices in chunk order */
        p->next = stop;
        if (checkpoint && (p->next == p->end || ga_run_pace_save_due(&pace, from, stop, p->end))
            && ga_run_save(&ga_backward_sweep_run_kind, checkpoint, file, why, len) != 0)
            return GA_ENGINE_BAD_INPUT;
    }
    return GA_ENGINE_OK;
}

/* The shard of the job's share, through the protocol: resumed, measured,
 * the ranks merged, written or merged into the result. */
static int run_share(const struct ga_backward_job *job, struct ga_backward_done *done, char *why,
                     size_t len)
{
    const struct ga_backward_sweep *s = &done->kernel.sweep;
    double timeout_s = s->plugin && job->kernel.plugin_options ? job->kernel.plugin_options->timeout_s
                                                                : 0;
    void *file = fresh_file(s, done->kernel.dy, timeout_s, job->share.shard, job->share.shards);
    struct ga_backward_sweep_file *merged;
    int status = GA_ENGINE_OK;

    if (!file) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    if (ga_run_resume(&ga_backward_sweep_run_kind, job->share.checkpoint, &file, why, len) != 0)
        status = GA_ENGINE_BAD_INPUT;
    if (status == GA_ENGINE_OK)
        status = measure_rest(s, file, job->share.checkpoint, job->share.interval_s, why, len);
    if (status == GA_ENGINE_OK
        && ga_run_merge_ranks(&ga_backward_sweep_run_kind, &file, why, len) != 0)
        status = GA_ENGINE_UNDECIDED;
    if (status != GA_ENGINE_OK || ga_ranks_rank() != 0) {
        ;  /* rank 0 writes or prints */
    } else if (job->share.partial) {
        if (ga_run_save(&ga_backward_sweep_run_kind, job->share.partial, file, why, len) != 0)
            status = GA_ENGINE_BAD_INPUT;
    } else if (ga_ranks_count() > 1) {  /* merged already */
        done->stats = ((struct ga_backward_sweep_file *)file)->part->row[0].stats;
        done->have_stats = true;
    } else if (ga_backward_sweep_run_kind.merge(&file, (const char *const[]){ "the sweep" }, 1,
                                                (void **)&merged, why, len) != 0) {
        status = GA_ENGINE_UNDECIDED;  /* a finished shard 1/1 always merges */
    } else {
        done->stats = merged->part->row[0].stats;
        done->have_stats = true;
        ga_backward_sweep_run_kind.free(merged);
    }
    ga_backward_sweep_run_kind.free(file);
    return status;
}

/* The whole sweep keeping the pairs and outputs, written to
 * job->save_outputs when the kernel ran on every pair. */
static int sweep_saving(const struct ga_backward_job *job, struct ga_backward_done *done,
                        char *why, size_t len)
{
    struct ga_backward_sweep *s = &done->kernel.sweep;
    struct ga_pairs_snapshot snapshot;
    struct ga_io_error io;
    int status;

    if (ga_ranks_count() > 1) {
        snprintf(why, len, "--save-outputs writes the outputs of every pair from one process: "
                 "not under mpirun");
        return GA_ENGINE_BAD_INPUT;
    }
    if (ga_pairs_snapshot_init(&snapshot, s->pairs->format, s->pairs->size, why, len) != 0)
        return GA_ENGINE_BAD_INPUT;
    s->observe = ga_pairs_snapshot_observe;
    s->observe_ctx = &snapshot;
    status = ga_run_backward_sweep(s, &done->stats, NULL, NULL, why, len);
    s->observe = NULL;
    if (status == GA_ENGINE_OK && done->stats.failed_batches == 0
        && ga_pairs_snapshot_write(&snapshot, job->save_outputs, &io) != GA_IO_OK) {
        snprintf(why, len, "--save-outputs: %s", io.message);
        status = GA_ENGINE_BAD_INPUT;
    }
    ga_pairs_snapshot_free(&snapshot);
    return status;
}

int ga_run_backward(const struct ga_backward_job *job, struct ga_backward_done *done, char *why,
                    size_t len)
{
    const struct ga_format *f = job->kernel.format;
    struct ga_grad_value *table = NULL;
    struct ga_io_error io;
    int status;

    memset(done, 0, sizeof *done);
    if (ga_backward_kernel_open(&done->kernel, &job->kernel, &io) != GA_IO_OK) {
        snprintf(why, len, "%s", io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    if (job->save_outputs && (job->share.partial || job->share.checkpoint)) {
        snprintf(why, len, "--save-outputs writes the outputs of every pair from one process: "
                 "not with --shard, --partial or --checkpoint");
        status = GA_ENGINE_BAD_INPUT;
    } else if (job->save_outputs) {
        status = sweep_saving(job, done, why, len);
        done->have_stats = status == GA_ENGINE_OK;
    } else if (!job->share.partial && !job->share.checkpoint) {
        status = ga_run_backward_sweep(&done->kernel.sweep, &done->stats, NULL, NULL, why, len);
        done->have_stats = status == GA_ENGINE_OK && ga_ranks_rank() == 0;
    } else if (f->bits <= 16
               && !(table = ga_backward_grad_table(done->kernel.sweep.reference, f))) {
        /* d(x) of every 16-bit x once, not once per slice */
        snprintf(why, len, "the derivative was not decided for some %s input, or out of memory",
                 f->name);
        status = GA_ENGINE_UNDECIDED;
    } else {
        done->kernel.sweep.grad_table = table;
        status = run_share(job, done, why, len);
        done->kernel.sweep.grad_table = NULL;
    }
    free(table);
    if (status == GA_ENGINE_OK && done->have_stats && done->stats.failed_batches > 0)
        status = GA_ENGINE_FAILED;
    return status;
}

void ga_backward_done_free(struct ga_backward_done *done)
{
    ga_backward_kernel_close(&done->kernel);
}

/* Under mpirun: this rank's shard of s's pairs, merged on rank 0 into
 * *stats. */
static int sweep_ranks(const struct ga_backward_sweep *s, struct ga_backward_stats *stats,
                       char *why, size_t len)
{
    void *file = fresh_file(s, 0, 0, ga_ranks_rank() + 1, ga_ranks_count());
    int status = GA_ENGINE_UNDECIDED;

    if (!file)
        snprintf(why, len, "out of memory");
    else if (measure_rest(s, file, NULL, 0, why, len) == GA_ENGINE_OK
             && ga_run_merge_ranks(&ga_backward_sweep_run_kind, &file, why, len) == 0)
        status = GA_ENGINE_OK;
    if (status == GA_ENGINE_OK && ga_ranks_rank() == 0)
        *stats = ((struct ga_backward_sweep_file *)file)->part->row[0].stats;
    ga_backward_sweep_run_kind.free(file);
    return status;
}

int ga_run_backward_sweep(const struct ga_backward_sweep *s, struct ga_backward_stats *stats,
                          const char *(*read_error)(const void *ctx), const void *ctx, char *why,
                          size_t len)
{
    int failed = ga_ranks_count() > 1 ? sweep_ranks(s, stats, why, len)
                                      : ga_backward_sweep_run(s, stats, why, len);
    const char *read_why = failed && read_error ? read_error(ctx) : NULL;

    if (!failed)
        return GA_ENGINE_OK;
    if (read_why) {
        snprintf(why, len, "%s", read_why);
        return GA_ENGINE_BAD_INPUT;
    }
    return GA_ENGINE_UNDECIDED;
}
