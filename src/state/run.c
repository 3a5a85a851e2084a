/* The run protocol (run.h): resume, save, merge the ranks and the files. */
#include "state/run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "state/ranks.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return -1;
}

void ga_run_share_init(struct ga_run_share *s)
{
    memset(s, 0, sizeof *s);
    s->shard = s->shards = 1;
    s->interval_s = 10;
}

void ga_run_share_ranks(struct ga_run_share *s)
{
    if (ga_ranks_count() <= 1)
        return;
    s->shard = ga_ranks_rank() + 1;
    s->shards = ga_ranks_count();
    if (s->checkpoint) {
        snprintf(s->rank_checkpoint, sizeof s->rank_checkpoint, "%s.%u-of-%u", s->checkpoint,
                 s->shard, s->shards);
        s->checkpoint = s->rank_checkpoint;
    }
}

int ga_run_load(const struct ga_run_kind *k, const char *path, void **state, char *why,
                size_t len)
{
    unsigned char *data;
    size_t size;
    struct ga_io_error err;
    enum ga_io_status s = ga_whole_file_read(path, k->max_bytes, k->name, &data, &size, &err);

    *state = NULL;
    if (s != GA_IO_OK)
        return fail(why, len, "%s", err.message);
    s = k->decode(data, size, state, &err);
    free(data);
    if (s != GA_IO_OK) {
        k->free(*state);
        *state = NULL;
        return fail(why, len, "%s: %s", path, err.message);
    }
    return 0;
}

int ga_run_save(const struct ga_run_kind *k, const char *path, const void *state, char *why,
                size_t len)
{
    struct ga_io_error err;

    if (ga_whole_file_save(path, k->encode, state, &err) != GA_IO_OK)
        return fail(why, len, "%s", err.message);
    return 0;
}

int ga_run_resume(const struct ga_run_kind *k, const char *checkpoint, void **state, char *why,
                  size_t len)
{
    char what[GA_RUN_WHY];
    struct stat st;
    void *saved;

    if (!checkpoint || (stat(checkpoint, &st) != 0 && errno == ENOENT))
        return 0;
    if (ga_run_load(k, checkpoint, &saved, what, sizeof what) != 0)
        return fail(why, len, "checkpoint %s", what);
    if (k->differs(saved, *state, what, sizeof what)) {
        k->free(saved);
        return fail(why, len, "checkpoint %s belongs to another command: %s (remove the file to "
                    "start afresh)", checkpoint, what);
    }
    k->free(*state);
    *state = saved;
    return 0;
}

int ga_run_merge_ranks(const struct ga_run_kind *k, void **state, char *why, size_t len)
{
    unsigned char *data = NULL, **all = NULL;
    size_t size = 0, *sizes = NULL;
    unsigned ranks = ga_ranks_count(), got = 0;
    void **parts, *merged = NULL;
    char (*names)[16];
    const char **name_of;
    struct ga_io_error err;
    int status = -1;

    if (ranks <= 1)
        return 0;
    if (k->encode(*state, &data, &size, &err) != GA_IO_OK)
        return fail(why, len, "%s", err.message);
    status = ga_ranks_gather(data, size, &all, &sizes, why, len);
    free(data);
    if (status != 0 || ga_ranks_rank() != 0)
        return status;
    status = -1;
    parts = calloc(ranks, sizeof *parts);
    names = calloc(ranks, sizeof *names);
    name_of = calloc(ranks, sizeof *name_of);
    if (!parts || !names || !name_of) {
        fail(why, len, "out of memory");
    } else {
        for (; got < ranks; got++) {
            snprintf(names[got], sizeof names[got], "rank %u", got);
            name_of[got] = names[got];
            if (k->decode(all[got], sizes[got], &parts[got], &err) != GA_IO_OK) {
                fail(why, len, "the %s of rank %u: %s", k->name, got, err.message);
                got++;
                break;
            }
        }
        if (got == ranks)
            status = k->merge(parts, name_of, ranks, &merged, why, len);
    }
    for (unsigned i = 0; parts && i < got; i++)
        k->free(parts[i]);
    free(parts);
    free(names);
    free(name_of);
    ga_ranks_gather_free(all, sizes);
    if (status == 0) {
        k->free(*state);
        *state = merged;
    }
    return status;
}

int ga_run_merge_files(const struct ga_run_kind *k, char *const *paths, size_t n, void **merged,
                       char *why, size_t len)
{
    void **parts = calloc(n ? n : 1, sizeof *parts);
    size_t got = 0;
    int status = -1;

    *merged = NULL;
    if (!parts)
        return fail(why, len, "out of memory");
    for (; got < n; got++)
        if (ga_run_load(k, paths[got], &parts[got], why, len) != 0)
            break;
    if (got == n)
        status = k->merge(parts, (const char *const *)paths, n, merged, why, len);
    for (size_t i = 0; i < got; i++)
        k->free(parts[i]);
    free(parts);
    return status;
}

static double now_seconds(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void ga_run_pace_start(struct ga_run_pace *p, double interval_s, uint64_t first_slice)
{
    p->interval_s = interval_s;
    /* a slice short enough to save on time, long enough to keep every
     * thread busy */
    p->slice_s = interval_s / 4 < 0.5 ? interval_s / 4 : 0.5;
    p->slice = first_slice ? first_slice : 1;
    p->last_save = p->slice_start = now_seconds();
}

uint64_t ga_run_pace_slice(struct ga_run_pace *p, uint64_t next, uint64_t end)
{
    p->slice_start = now_seconds();
    return end - next < p->slice ? end : next + p->slice;
}

bool ga_run_pace_save_due(struct ga_run_pace *p, uint64_t from, uint64_t to, uint64_t end)
{
    double now = now_seconds(), took = now - p->slice_start;

    if (took > 0 && to > from) {  /* the slice that fits slice_s at the rate measured */
        double fit = (double)(to - from) * p->slice_s / took;
        uint64_t most = 4 * p->slice;
        p->slice = fit < 1 ? 1 : fit > (double)most ? most : (uint64_t)fit;
    }
    if (to >= end || now - p->last_save < p->interval_s)
        return false;
    p->last_save = now;
    return true;
}
