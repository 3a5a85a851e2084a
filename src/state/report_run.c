/* A report shard's partial as the run protocol handles it (run.h): its
 * file, and why shards do not merge, in the words the command line prints.
 * A report has no checkpoint: differs is never asked. */
#include <stdio.h>
#include <stdlib.h>

#include "state/report_partial.h"
#include "state/run.h"

static enum ga_io_status encode(const void *state, unsigned char **data, size_t *size,
                                struct ga_io_error *err)
{
    return ga_report_partial_encode(state, data, size, err);
}

static void free_state(void *state)
{
    if (state) {
        ga_report_partial_free(state);
        free(state);
    }
}

static enum ga_io_status decode(const unsigned char *data, size_t size, void **state,
                                struct ga_io_error *err)
{
    struct ga_report_partial *rp = calloc(1, sizeof *rp);

    *state = rp;
    if (!rp)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    return ga_report_partial_decode(data, size, rp, err);
}

static int differs(const void *saved, const void *fresh, char *why, size_t len)
{
    const struct ga_report_partial *s = saved, *f = fresh;

    if (s->shard == f->shard && s->shards == f->shards)
        return 0;
    snprintf(why, len, "it holds shard %u/%u, this command measures shard %u/%u",
             (unsigned)s->shard, (unsigned)s->shards, (unsigned)f->shard, (unsigned)f->shards);
    return 1;
}

static int merge(void *const *parts, const char *const *names, size_t n, void **merged,
                 char *why, size_t len)
{
    struct ga_report_partial *all = calloc(n, sizeof *all), *out = calloc(1, sizeof *out);
    struct ga_report_merge_problem problem;
    int status = -1;

    *merged = out;
    if (!all || !out) {
        snprintf(why, len, "out of memory");
        free(all);
        return -1;
    }
    for (size_t i = 0; i < n; i++)  /* the merge takes an array of partials */
        all[i] = *(struct ga_report_partial *)parts[i];
    if (ga_report_partials_merge(all, n, out, &problem) == 0)
        status = 0;
    else if (problem.no_memory)
        snprintf(why, len, "out of memory");
    else if (problem.missing)
        snprintf(why, len, "%s", problem.detail);
    else if (problem.impl)
        snprintf(why, len, "%s: %s in %s: %s", names[problem.index], problem.impl,
                 problem.format, problem.what);
    else
        snprintf(why, len, "%s: %s %s", names[problem.index], problem.what, names[0]);
    free(all);
    return status;
}

const struct ga_run_kind ga_report_run_kind = {
    .name = "report partial file",
    .max_bytes = GA_REPORT_PARTIAL_MAX_BYTES,
    .encode = encode,
    .decode = decode,
    .free = free_state,
    .differs = differs,
    .merge = merge,
};
