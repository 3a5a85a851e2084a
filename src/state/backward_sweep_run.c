/* A backward sweep's partial file as the run protocol handles it (run.h):
 * how a checkpoint differs from the sweep about to start, and why shards do
 * not merge, in the words the command line prints. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/backward_sweep_file.h"
#include "state/run.h"

static enum ga_io_status encode(const void *state, unsigned char **data, size_t *size,
                                struct ga_io_error *err)
{
    return ga_backward_sweep_file_encode(state, data, size, err);
}

static void free_state(void *state)
{
    if (state) {
        ga_backward_sweep_file_free(state);
        free(state);
    }
}

static enum ga_io_status decode(const unsigned char *data, size_t size, void **state,
                                struct ga_io_error *err)
{
    struct ga_backward_sweep_file *file = calloc(1, sizeof *file);

    *state = file;
    if (!file)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    return ga_backward_sweep_file_decode(data, size, file, err);
}

static int differs(const void *saved, const void *fresh, char *why, size_t len)
{
    static _Thread_local char a[GA_DOMAIN_SPEC_LEN], b[GA_DOMAIN_SPEC_LEN];
    const struct ga_backward_sweep_file *s = saved, *f = fresh;
    const char *field = ga_backward_sweep_id_differs(&f->id, &s->id, a, b, sizeof a);

    if (field) {
        snprintf(why, len, "its %s is '%s', this command's '%s'", field, b, a);
        return 1;
    }
    if (s->part->shard != f->part->shard || s->part->shards != f->part->shards) {
        snprintf(why, len, "it holds shard %u/%u, this command measures shard %u/%u",
                 (unsigned)s->part->shard, (unsigned)s->part->shards, (unsigned)f->part->shard,
                 (unsigned)f->part->shards);
        return 1;
    }
    return 0;
}

static int merge(void *const *parts, const char *const *names, size_t n, void **merged,
                 char *why, size_t len)
{
    static _Thread_local char a[GA_DOMAIN_SPEC_LEN], b[GA_DOMAIN_SPEC_LEN];
    struct ga_backward_sweep_file *const *files = (struct ga_backward_sweep_file *const *)parts;
    struct ga_backward_partial **shards = calloc(n, sizeof *shards);
    struct ga_backward_sweep_file *out = calloc(1, sizeof *out);
    const char *field, *what;
    size_t index;
    int status = -1;

    *merged = out;
    if (!shards || !out) {
        snprintf(why, len, "out of memory");
        free(shards);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if ((field = ga_backward_sweep_id_differs(&files[0]->id, &files[i]->id, a, b, sizeof a))) {
            snprintf(why, len, "%s: not a shard of the same sweep as %s: its %s is '%s', not '%s'",
                     names[i], names[0], field, b, a);
            free(shards);
            return -1;
        }
        shards[i] = files[i]->part;
    }
    if (ga_backward_partials_merge(shards, n, &out->part, &what, &index) != 0) {
        if (strcmp(what, "shards are missing") == 0)
            snprintf(why, len, "%s: %zu of %" PRIu32 " shards given", what, n, shards[0]->shards);
        else
            snprintf(why, len, "%s: %s", names[index], what);
    } else {
        out->id = files[0]->id;
        status = 0;
    }
    free(shards);
    return status;
}

const struct ga_run_kind ga_backward_sweep_run_kind = {
    .name = "backward partial file",
    .max_bytes = GA_BACKWARD_SWEEP_FILE_MAX_BYTES,
    .encode = encode,
    .decode = decode,
    .free = free_state,
    .differs = differs,
    .merge = merge,
};
