#include "measure/outputs_snapshot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/npy.h"
#include "io/rawfile.h"

int ga_outputs_snapshot_init(struct ga_outputs_snapshot *s, const struct ga_format *f,
                             uint64_t size, char *why, size_t len)
{
    memset(s, 0, sizeof *s);
    s->format = f;
    s->size = size;
    if (size > GA_SNAPSHOT_MAX_INPUTS) {
        snprintf(why, len, "--save-outputs keeps the outputs in memory: at most 2^26 inputs, "
                 "and the domain has %" PRIu64 " (choose a stride: or range: domain)", size);
        return -1;
    }
    if (!(s->y = calloc(size ? size : 1, sizeof *s->y))) {
        snprintf(why, len, "out of memory for --save-outputs");
        return -1;
    }
    return 0;
}

void ga_outputs_snapshot_observe(void *ctx, const struct ga_sweep_chunk_view *v)
{
    struct ga_outputs_snapshot *s = ctx;

    if (v->count < 1 || v->start > s->size || v->n > s->size - v->start)
        return;
    memcpy(s->y + v->start, v->y[0], v->n * sizeof *s->y);
    #pragma omp atomic
    s->filled += v->n;
}

enum ga_io_status ga_outputs_snapshot_write(const struct ga_outputs_snapshot *s, const char *path,
                                            struct ga_io_error *err)
{
    size_t n = strlen(path);
    bool npy = n >= 4 && strcmp(path + n - 4, ".npy") == 0;
    struct ga_array_writer w;
    enum ga_io_status status;

    if (s->filled != s->size)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "%s: not written: %" PRIu64 " of the %" PRIu64
                          " outputs are missing (the kernel failed on them)", path,
                          s->size - s->filled, s->size);
    status = npy ? ga_npy_create(path, s->format, s->size, true, &w, err)
                 : ga_raw_create(path, s->format, s->size, true, &w, err);
    if (status != GA_IO_OK)
        return status;
    for (uint64_t i = 0; i < s->size && status == GA_IO_OK; i += GA_SWEEP_CHUNK) {
        size_t m = (size_t)(s->size - i < GA_SWEEP_CHUNK ? s->size - i : GA_SWEEP_CHUNK);
        status = ga_array_append(&w, s->y + i, m, err);
    }
    if (status != GA_IO_OK) {
        ga_array_abort(&w);
        return status;
    }
    return ga_array_commit(&w, err);
}

void ga_outputs_snapshot_free(struct ga_outputs_snapshot *s)
{
    free(s->y);
    s->y = NULL;
}

int ga_pairs_snapshot_init(struct ga_pairs_snapshot *s, const struct ga_format *f, uint64_t size,
                           char *why, size_t len)
{
    memset(s, 0, sizeof *s);
    if (ga_outputs_snapshot_init(&s->dx, f, size, why, len) != 0
        || ga_outputs_snapshot_init(&s->x, f, size, why, len) != 0
        || ga_outputs_snapshot_init(&s->dy, f, size, why, len) != 0) {
        ga_pairs_snapshot_free(s);
        return -1;
    }
    return 0;
}

void ga_pairs_snapshot_observe(void *ctx, const struct ga_sweep_chunk_view *v)
{
    struct ga_pairs_snapshot *s = ctx;
    struct ga_sweep_chunk_view pick = *v;

    if (v->count < 1 || !v->dy)
        return;
    ga_outputs_snapshot_observe(&s->dx, v);
    pick.y[0] = v->x;
    ga_outputs_snapshot_observe(&s->x, &pick);
    pick.y[0] = v->dy;
    ga_outputs_snapshot_observe(&s->dy, &pick);
}

int ga_pairs_snapshot_paths(const char *path, char *x, char *dy, size_t len)
{
    size_t n = strlen(path);
    int stem = n >= 4 && strcmp(path + n - 4, ".npy") == 0 ? (int)n - 4 : (int)n;
    const char *ext = stem < (int)n ? ".npy" : "";

    if ((size_t)snprintf(x, len, "%.*s.x%s", stem, path, ext) >= len
        || (size_t)snprintf(dy, len, "%.*s.dy%s", stem, path, ext) >= len)
        return -1;
    return 0;
}

enum ga_io_status ga_pairs_snapshot_write(const struct ga_pairs_snapshot *s, const char *path,
                                          struct ga_io_error *err)
{
    char x[4096], dy[4096];
    enum ga_io_status status;

    if (ga_pairs_snapshot_paths(path, x, dy, sizeof x) != 0)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "%.200s...: a name too long", path);
    if (s->dx.filled != s->dx.size)  /* the kernel failed somewhere: no file at all */
        return ga_outputs_snapshot_write(&s->dx, path, err);
    if ((status = ga_outputs_snapshot_write(&s->x, x, err)) != GA_IO_OK
        || (status = ga_outputs_snapshot_write(&s->dy, dy, err)) != GA_IO_OK)
        return status;
    return ga_outputs_snapshot_write(&s->dx, path, err);
}

void ga_pairs_snapshot_free(struct ga_pairs_snapshot *s)
{
    ga_outputs_snapshot_free(&s->x);
    ga_outputs_snapshot_free(&s->dy);
    ga_outputs_snapshot_free(&s->dx);
}
