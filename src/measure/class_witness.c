/* The inputs a check line names (class_witness.h). */
#include "measure/class_witness.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/array_open.h"
#include "measure/outputs_snapshot.h"

/* One chunk's share, merged into the witness at once. */
struct chunk_witness {
    struct ga_class_point now[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    struct ga_class_point entered[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    uint64_t changed, changed_worse;
    size_t change_count;
    struct ga_class_point changes[GA_CLASS_CHANGES];
};

static enum ga_io_status read_snapshot(struct ga_class_witness *w, const char *path,
                                       struct ga_io_error *err)
{
    struct ga_array_reader r;
    enum ga_io_status s = ga_file_open(path, GA_FILE_AUTO, w->format, &r, err);
    size_t n;

    if (s != GA_IO_OK)
        return s;
    if (r.length != w->size)
        s = ga_io_fail(err, GA_IO_MISMATCH, "snapshot %s has %" PRIu64 " outputs and the "
                       "domain %" PRIu64 " inputs (record it over the same domain: sweep "
                       "--save-outputs)", path, r.length, w->size);
    else if (r.length > GA_SNAPSHOT_MAX_INPUTS)
        s = ga_io_fail(err, GA_IO_BAD_SPEC, "snapshot %s: more than 2^26 outputs", path);
    else
        s = ga_array_read_all(&r, &w->snapshot, &n, err);
    ga_array_close(&r);
    return s;
}

enum ga_io_status ga_class_witness_init(struct ga_class_witness *w, const struct ga_format *f,
                                        enum ga_function reference, uint64_t size,
                                        const char *snapshot_path, struct ga_io_error *err)
{
    enum ga_io_status s;

    memset(w, 0, sizeof *w);
    w->format = f;
    w->size = size;
    ga_format_layout_init(&w->layout, f);
    ga_region_bounds_init(&w->bounds, f);
    if (!snapshot_path)
        return GA_IO_OK;
    if ((s = read_snapshot(w, snapshot_path, err)) != GA_IO_OK)
        return s;
    if (ga_compare_tally_init(&w->tally, f, reference, size, false) != 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    return GA_IO_OK;
}

/* Keep p at slot *q when it comes first in domain order. */
static void offer(struct ga_class_point *q, const struct ga_class_point *p)
{
    if (p->has && (!q->has || p->index < q->index))
        *q = *p;
}

/* Keep p among the first GA_CLASS_CHANGES in domain order. */
static void keep_change(struct ga_class_point *list, size_t *count, const struct ga_class_point *p)
{
    size_t i = *count;

    if (i == GA_CLASS_CHANGES && p->index > list[i - 1].index)
        return;
    if (i < GA_CLASS_CHANGES)
        (*count)++;
    else
        i--;
    while (i > 0 && p->index < list[i - 1].index) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = *p;
}

static void witness_input(const struct ga_class_witness *w, struct chunk_witness *c,
                          const struct ga_sweep_chunk_view *v, size_t i)
{
    const struct ga_truth *t = &v->truth[i];
    struct ga_class_point p = { .has = true, .index = v->start + i, .x = v->x[i],
                                .y = v->y[0][i] };
    enum ga_region r = ga_region_of(&w->bounds, p.x, t->rounded);
    struct ga_error e, old;

    if (!w->snapshot && p.y == t->rounded)
        return;   /* correctly rounded: of no kind (the common case, kept cheap) */
    ga_error_compute(&w->layout, p.y, t, &e);
    p.class = ga_bucket_of(&e);
    if (w->snapshot) {
        p.old_y = w->snapshot[p.index];
        ga_error_compute(&w->layout, p.old_y, t, &old);
        p.old_class = ga_bucket_of(&old);
    }
    for (int k = 0; k < GA_WITNESS_COUNT; k++) {
        if (!ga_witness_is((enum ga_witness)k, &e))
            continue;
        offer(&c->now[r][k], &p);
        offer(&c->now[GA_REGION_ALL][k], &p);
        if (w->snapshot && !ga_witness_is((enum ga_witness)k, &old)) {
            offer(&c->entered[r][k], &p);
            offer(&c->entered[GA_REGION_ALL][k], &p);
        }
    }
    if (!w->snapshot || p.class == p.old_class)
        return;
    p.worse = ga_better_verdict(w->format, p.old_y, &old, p.y, &e, t) == GA_VERDICT_WORSE;
    c->changed++;
    c->changed_worse += p.worse;
    keep_change(c->changes, &c->change_count, &p);
}

void ga_class_witness_observe(void *ctx, const struct ga_sweep_chunk_view *v)
{
    struct ga_class_witness *w = ctx;
    struct chunk_witness *c;

    if (v->count < 1 || v->n == 0 || v->start > w->size || v->n > w->size - v->start
        || !(c = calloc(1, sizeof *c)))
        return;   /* not reached: with a snapshot the tally then misses the chunk, which
                     ga_class_witness_finish reports */
    for (size_t i = 0; i < v->n; i++)
        witness_input(w, c, v, i);
    if (w->snapshot) {
        struct ga_sweep_chunk_view both = *v;
        both.count = 2;
        both.y[0] = w->snapshot + v->start;
        both.y[1] = v->y[0];
        ga_compare_tally_observe(&w->tally, &both);
    }
    #pragma omp critical(ga_class_witness)
    {
        for (int r = 0; r <= GA_REGION_COUNT; r++)
            for (int k = 0; k < GA_WITNESS_COUNT; k++) {
                offer(&w->now[r][k], &c->now[r][k]);
                offer(&w->entered[r][k], &c->entered[r][k]);
            }
        w->changed += c->changed;
        w->changed_worse += c->changed_worse;
        for (size_t i = 0; i < c->change_count; i++)
            keep_change(w->changes, &w->change_count, &c->changes[i]);
    }
    free(c);
}

int ga_class_witness_finish(struct ga_class_witness *w)
{
    return w->snapshot ? ga_compare_tally_finish(&w->tally) : 0;
}

void ga_class_witness_free(struct ga_class_witness *w)
{
    if (w->snapshot)
        ga_compare_tally_free(&w->tally);
    free(w->snapshot);
    w->snapshot = NULL;
}
