/* gelu-acc sweep (run_sweep.h): open the kernel, start afresh or resume,
 * run the share saving checkpoints, merge the ranks, write the partial. */
#include "engine/run_sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "state/partial_run.h"
#include "state/ranks.h"

struct checkpoint_ctx {
    const char *path;
    char *why;
    size_t len;
};

static int save_checkpoint(void *ctx, const struct ga_partial *p)
{
    struct checkpoint_ctx *c = ctx;
    char what[GA_RUN_WHY];

    if (ga_run_save(&ga_partial_run_kind, c->path, p, what, sizeof what) != 0) {
        snprintf(c->why, c->len, "checkpoint: %s", what);
        return GA_PARTIAL_SAVE_FAILED;
    }
    return 0;
}

/* The sweep's state, fresh or resumed from its checkpoint. */
static int start(const struct ga_sweep_job *job, struct ga_sweep_done *done, char *why,
                 size_t len)
{
    const struct ga_kernel *k = &done->kernel;
    struct ga_partial_identity *id = malloc(sizeof *id);
    double timeout_s = k->plugin || k->real ? job->kernel.plugin_options->timeout_s : 0;
    int status = GA_ENGINE_BAD_INPUT;

    if (!id) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    if (ga_partial_identity_init(id, PACKAGE_NAME " " PACKAGE_VERSION, job->kernel.format,
                                 job->kernel.spec, &k->measurement, &k->domain,
                                 job->options.oracle, job->options.max_failures,
                                 timeout_s) != 0) {
        snprintf(why, len, "the kernel's description is too long for a partial file");
    } else if (!(done->state = ga_partial_new(id, job->share.shard, job->share.shards))) {
        snprintf(why, len, "out of memory");
        status = GA_ENGINE_UNDECIDED;
    } else if (ga_run_resume(&ga_partial_run_kind, job->share.checkpoint, (void **)&done->state,
                             why, len) == 0) {
        status = GA_ENGINE_OK;
    }
    free(id);
    return status;
}

/* The state's chunks not measured yet. */
static int measure(const struct ga_sweep_job *job, struct ga_sweep_done *done,
                   const struct ga_sweep_options *options, char *why, size_t len)
{
    struct ga_kernel *k = &done->kernel;
    struct checkpoint_ctx ctx = { job->share.checkpoint, why, len };
    ga_bits input = 0;
    int status = ga_partial_run(done->state, &k->domain, &k->measurement, options,
                                ctx.path ? save_checkpoint : NULL, &ctx, job->share.interval_s,
                                &input);

    if (status == GA_PARTIAL_SAVE_FAILED)
        return GA_ENGINE_BAD_INPUT;
    return ga_engine_sweep_status(status, job->kernel.format, &k->domain, &k->measurement, 1,
                                  input, why, len);
}

/* measure() keeping the outputs, written to job->save_outputs when the
 * kernel ran on every input; the whole domain in one process only. */
static int measure_saving(const struct ga_sweep_job *job, struct ga_sweep_done *done, char *why,
                          size_t len)
{
    struct ga_sweep_options options = job->options;
    struct ga_outputs_snapshot snapshot;
    struct ga_io_error io;
    int status = GA_ENGINE_BAD_INPUT;

    if (job->share.shards > 1 || job->share.partial || job->share.checkpoint
        || ga_ranks_count() > 1 || job->options.max_failures > 0) {
        snprintf(why, len, "--save-outputs writes the outputs of the whole domain from one "
                 "process: not with --shard, --partial, --checkpoint, --max-failures or mpirun");
        return GA_ENGINE_BAD_INPUT;
    }
    if (ga_outputs_snapshot_init(&snapshot, job->kernel.format, done->kernel.domain.size, why,
                                 len) != 0)
        return GA_ENGINE_BAD_INPUT;
    options.observe = ga_outputs_snapshot_observe;
    options.observe_ctx = &snapshot;
    status = measure(job, done, &options, why, len);
    if (status == GA_ENGINE_OK && !done->state->m.failed
        && ga_outputs_snapshot_write(&snapshot, job->save_outputs, &io) != GA_IO_OK) {
        snprintf(why, len, "--save-outputs: %s", io.message);
        status = GA_ENGINE_BAD_INPUT;
    }
    ga_outputs_snapshot_free(&snapshot);
    return status;
}

int ga_run_sweep(const struct ga_sweep_job *job, struct ga_sweep_done *done, char *why, size_t len)
{
    struct ga_io_error io;
    int status;

    memset(done, 0, sizeof *done);
    if (ga_kernel_open(&done->kernel, &job->kernel, &io) != GA_IO_OK) {
        snprintf(why, len, "%s", io.message);
        /* a library whose constructors crash or hang fails as its kernel would */
        return io.status == GA_IO_KERNEL_FAULT ? GA_ENGINE_FAILED : GA_ENGINE_BAD_INPUT;
    }
    if (job->warn && done->kernel.plugin && !ga_plugin_format_declared(done->kernel.plugin)) {
        char message[GA_ENGINE_WHY];
        snprintf(message, sizeof message, "%s: the library does not declare the kernel's format "
                 "(GELU_ACC_KERNEL_F32 and kin, <gelu-acc/kernel.h>): it cannot be checked to be "
                 "a %s kernel", done->kernel.measurement.impl->name, job->kernel.format->name);
        job->warn(message);
    }
    done->kernel.measurement.want_shape = true;
    if ((status = start(job, done, why, len)) == GA_ENGINE_OK)
        status = job->save_outputs ? measure_saving(job, done, why, len)
                                   : measure(job, done, &job->options, why, len);
    if (status == GA_ENGINE_OK
        && ga_run_merge_ranks(&ga_partial_run_kind, (void **)&done->state, why, len) != 0)
        status = GA_ENGINE_UNDECIDED;
    if (status == GA_ENGINE_OK && ga_ranks_rank() != 0) {
        ga_partial_free(done->state);  /* rank 0 writes or prints */
        done->state = NULL;
    } else if (status == GA_ENGINE_OK && job->share.partial) {
        if (ga_run_save(&ga_partial_run_kind, job->share.partial, done->state, why, len) != 0)
            status = GA_ENGINE_BAD_INPUT;
        done->written = true;
    }
    return status;
}

void ga_sweep_done_free(struct ga_sweep_done *done)
{
    ga_partial_free(done->state);
    done->state = NULL;
    ga_kernel_close(&done->kernel);
}
