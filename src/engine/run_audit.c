/* The audit's run protocol (engine/run_audit.h). */
#include "engine/run_audit.h"

#include <stdio.h>
#include <stdlib.h>

/* Between slices of the audit: the checkpoint saved. */
struct checkpoint_ctx {
    const char *path;
    char why[GA_RUN_WHY];
};

static int save_checkpoint(void *ctx, const struct ga_audit *a)
{
    struct checkpoint_ctx *c = ctx;

    return ga_run_save(&ga_audit_run_kind, c->path, a, c->why, sizeof c->why) == 0 ? 0 : -2;
}

int ga_run_audit(const struct ga_audit_job *job, struct ga_audit **state, char *why,
                 size_t len)
{
    const struct ga_domain *d = job->domain;
    struct checkpoint_ctx ck = { .path = job->share.checkpoint };
    void *a = malloc(sizeof(struct ga_audit));

    *state = a;
    if (!a) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    if (ga_audit_init(a, job->version, job->fn, d, job->share.shard, job->share.shards) != 0) {
        snprintf(why, len, "%s has no fast oracle in %s: there is nothing to audit",
                 ga_function_name(job->fn), d->format->name);
        return GA_ENGINE_BAD_INPUT;
    }
    /* resuming may replace the state */
    if (ga_run_resume(&ga_audit_run_kind, ck.path, &a, ck.why, sizeof ck.why) != 0) {
        *state = a;
        snprintf(why, len, "%s", ck.why);
        return GA_ENGINE_BAD_INPUT;
    }
    *state = a;
    switch (ga_audit_run(a, d, job->threads, ck.path ? save_checkpoint : NULL, &ck,
                         job->share.interval_s)) {
    case 0: break;
    case -1:
        snprintf(why, len, "the domain could not be read (or out of memory)");
        return GA_ENGINE_BAD_INPUT;
    default:
        snprintf(why, len, "checkpoint: %s", ck.why);
        return GA_ENGINE_BAD_INPUT;
    }
    if (ga_run_merge_ranks(&ga_audit_run_kind, (void **)state, ck.why, sizeof ck.why) != 0) {
        snprintf(why, len, "%s", ck.why);
        return GA_ENGINE_UNDECIDED;
    }
    return GA_ENGINE_OK;
}

int ga_run_audit_merge(char **names, size_t n, struct ga_audit **all, char *why, size_t len)
{
    char message[GA_RUN_WHY];

    *all = NULL;
    if (ga_run_merge_files(&ga_audit_run_kind, names, n, (void **)all, message,
                           sizeof message) != 0) {
        snprintf(why, len, "%s", message);
        return GA_ENGINE_BAD_INPUT;
    }
    return GA_ENGINE_OK;
}
