#include "measure/compare_tally.h"

#include <stdlib.h>
#include <string.h>

#include "truth/backward.h"

/* A run of inputs where B is worse, while it is being built: lead and trail
 * count the inputs not worse before its first worsened input and after its
 * last (an empty run: both its length). */
struct run {
    uint64_t first, last, worsened;
    uint64_t lead, trail;
    ga_bits lo, hi;
};

/* What a chunk leaves for the ranges that cross its ends: the run open at
 * its start (up to its first break) and the one open at its end (after its
 * last), or one run through the whole chunk when nothing breaks it. */
struct ga_compare_chunk {
    bool seen, broken;
    ga_bits first_x, last_x;
    struct run head, tail;
};

/* One chunk's figures, added to the tally's at once. */
struct chunk_tally {
    uint64_t same, tied, improved, worsened;
    uint64_t bucket[2][GA_BUCKET_COUNT];
    size_t regression_count, improvement_count;
    struct ga_compare_point regressions[GA_COMPARE_POINTS], improvements[GA_COMPARE_POINTS];
    struct ga_compare_ranges ranges;
};

int ga_compare_tally_init(struct ga_compare_tally *t, const struct ga_format *f,
                          enum ga_function reference, uint64_t size, bool backward)
{
    memset(t, 0, sizeof *t);
    t->format = f;
    t->reference = reference;
    t->backward = backward;
    ga_format_layout_init(&t->layout, f);
    t->chunk_size = backward ? GA_BACKWARD_CHUNK : GA_SWEEP_CHUNK;
    t->chunk_count = size / t->chunk_size + (size % t->chunk_size != 0);
    t->chunks = calloc(t->chunk_count ? t->chunk_count : 1, sizeof *t->chunks);
    if (!t->chunks)
        return -1;
    if (backward && f->bits <= 16) {
        size_t n = (size_t)ga_encoding_count(f);
        t->by_x.pairs = calloc(n, sizeof *t->by_x.pairs);
        t->by_x.worse = calloc(n, sizeof *t->by_x.worse);
        t->by_x.better = calloc(n, sizeof *t->by_x.better);
        if (!t->by_x.pairs || !t->by_x.worse || !t->by_x.better)
            return -1;
    }
    return 0;
}

void ga_compare_tally_free(struct ga_compare_tally *t)
{
    free(t->chunks);
    free(t->by_x.pairs);
    free(t->by_x.worse);
    free(t->by_x.better);
    t->chunks = NULL;
    t->by_x = (struct ga_compare_by_x){ NULL, NULL, NULL };
}

/* Points ordered by key, greatest first, then by domain index: the same
 * list whatever order the chunks came in. */
static bool point_before(const struct ga_compare_point *p, const struct ga_compare_point *q)
{
    return p->key > q->key || (p->key == q->key && p->index < q->index);
}

static void keep_point(struct ga_compare_point *list, size_t *count, const struct ga_compare_point *p)
{
    size_t i = *count;

    if (i == GA_COMPARE_POINTS && !point_before(p, &list[i - 1]))
        return;
    if (i < GA_COMPARE_POINTS)
        (*count)++;
    else
        i--;
    while (i > 0 && point_before(p, &list[i - 1])) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = *p;
}

/* Ranges ordered by worsened inputs, most first, then by domain index. */
static bool range_before(const struct ga_compare_range *p, const struct ga_compare_range *q)
{
    return p->worsened > q->worsened || (p->worsened == q->worsened && p->first < q->first);
}

static void keep_range(struct ga_compare_ranges *rs, const struct ga_compare_range *r)
{
    struct ga_compare_range *list = rs->list;
    size_t i = rs->count;

    if (i == GA_COMPARE_RANGES && !range_before(r, &list[i - 1]))
        return;
    if (i < GA_COMPARE_RANGES)
        rs->count++;
    else
        i--;
    while (i > 0 && range_before(r, &list[i - 1])) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = *r;
}

/* A finished run: a range when B is worse somewhere in it. */
static void close_run(struct ga_compare_ranges *rs, const struct run *r)
{
    struct ga_compare_range range = { r->first, r->last, r->worsened, r->lo, r->hi };

    if (r->worsened == 0)
        return;
    rs->total++;
    rs->worsened += r->worsened;
    keep_range(rs, &range);
}

/* Input i (x) of the domain, where B is worse (on `weight` inputs: pairs
 * of one x), joins run r. */
static void extend_run(const struct ga_format *f, struct run *r, uint64_t i, ga_bits x,
                       uint64_t weight)
{
    r->trail = 0;
    if (r->worsened == 0) {
        r->first = i;
        r->lo = r->hi = x;
    } else if (ga_decode(f, x) < ga_decode(f, r->lo)) {
        r->lo = x;
    } else if (ga_decode(f, x) > ga_decode(f, r->hi)) {
        r->hi = x;
    }
    r->worsened += weight;
    r->last = i;
}

/* Runs a and b, b just after a, as one. */
static struct run join_runs(const struct ga_format *f, const struct run *a, const struct run *b)
{
    struct run r = *a;

    if (a->worsened == 0) {
        r = *b;
        r.lead += a->lead;
        if (b->worsened == 0)
            r.trail += a->trail;
        return r;
    }
    if (b->worsened == 0) {
        r.trail += b->lead;
        return r;
    }
    r.last = b->last;
    r.trail = b->trail;
    r.worsened += b->worsened;
    if (ga_decode(f, b->lo) < ga_decode(f, r.lo))
        r.lo = b->lo;
    if (ga_decode(f, b->hi) > ga_decode(f, r.hi))
        r.hi = b->hi;
    return r;
}

/* The open run ends inside the chunk: the chunk's head when it is the
 * first to end, a range otherwise. */
static void break_run(struct ga_compare_ranges *rs, struct ga_compare_chunk *ends,
                      struct run *open)
{
    if (!ends->broken) {
        ends->broken = true;
        ends->head = *open;
    } else {
        close_run(rs, open);
    }
    memset(open, 0, sizeof *open);
}

/* One step of the walk that finds the ranges: input `index` (x) with B's
 * verdict extends, breaks or pads the open run (an improved input, a NaN
 * input, or a change of sign breaks it); weight: its worsened inputs. */
static void walk(const struct ga_format *f, struct ga_compare_ranges *rs,
                 struct ga_compare_chunk *ends, struct run *open, uint64_t index, ga_bits x,
                 enum ga_verdict verdict, bool sign_changes, uint64_t weight)
{
    bool breaks = verdict == GA_VERDICT_BETTER || ga_is_nan(f, x) || sign_changes;

    if (breaks)
        break_run(rs, ends, open);
    if (verdict != GA_VERDICT_WORSE && !breaks) {
        open->trail++;
        if (open->worsened == 0)
            open->lead++;
        else if (open->trail >= GA_COMPARE_GAP)
            break_run(rs, ends, open);
    }
    if (verdict == GA_VERDICT_WORSE && !ga_is_nan(f, x))
        extend_run(f, open, index, x, weight);
}

/* The pairs of one x seen in a row, counted before they go to the tally's
 * table by x (one x per chunk of pairs:all, so rarely). */
struct x_count {
    bool has;
    ga_bits x;
    uint64_t pairs, worse, better;
};

static void flush_x(const struct ga_compare_by_x *bx, struct x_count *xc)
{
    if (!xc->has)
        return;
    #pragma omp atomic
    bx->pairs[xc->x] += xc->pairs;
    #pragma omp atomic
    bx->worse[xc->x] += xc->worse;
    #pragma omp atomic
    bx->better[xc->x] += xc->better;
    memset(xc, 0, sizeof *xc);
}

static void count_x(const struct ga_compare_by_x *bx, struct x_count *xc, ga_bits x,
                    enum ga_verdict verdict)
{
    if (xc->has && xc->x != x)
        flush_x(bx, xc);
    xc->has = true;
    xc->x = x;
    xc->pairs++;
    xc->worse += verdict == GA_VERDICT_WORSE;
    xc->better += verdict == GA_VERDICT_BETTER;
}

static void note_point(struct chunk_tally *c, enum ga_verdict v, uint64_t i, ga_bits x,
                       ga_bits dy, ga_bits a, ga_bits b, double da, double db)
{
    struct ga_compare_point p = { .index = i, .x = x, .dy = dy, .a = a, .b = b, .ulp_a = da,
                                  .ulp_b = db };

    if (v == GA_VERDICT_WORSE) {
        p.key = db - da;
        keep_point(c->regressions, &c->regression_count, &p);
    } else {
        p.key = da - db;
        keep_point(c->improvements, &c->improvement_count, &p);
    }
}

/* Input i of the chunk: its rows, its verdict, and the runs it extends or
 * breaks, or its x's counts when the ranges go by x (xc). */
static void tally_input(const struct ga_compare_tally *t, struct chunk_tally *c,
                        struct ga_compare_chunk *ends, struct run *open, struct x_count *xc,
                        const struct ga_sweep_chunk_view *v, size_t i)
{
    const struct ga_format *f = t->format;
    const struct ga_truth *truth = &v->truth[i];
    ga_bits x = v->x[i], a = v->y[0][i], b = v->y[1][i];
    struct ga_error ea, eb;
    enum ga_verdict verdict;

    ga_error_compute(&t->layout, a, truth, &ea);
    ga_error_compute(&t->layout, b, truth, &eb);
    c->bucket[0][ga_bucket_of(&ea)]++;
    c->bucket[1][ga_bucket_of(&eb)]++;
    verdict = ga_better_verdict(f, a, &ea, b, &eb, truth);
    if (xc)
        count_x(&t->by_x, xc, x, verdict);
    else
        walk(f, &c->ranges, ends, open, v->start + i, x, verdict,
             i > 0 && ga_sign(f, x) != ga_sign(f, v->x[i - 1]), 1);
    switch (verdict) {
    case GA_VERDICT_SAME: c->same++; return;
    case GA_VERDICT_TIED: c->tied++; return;
    case GA_VERDICT_BETTER: c->improved++; break;
    case GA_VERDICT_WORSE: c->worsened++; break;
    }
    note_point(c, verdict, v->start + i, x, v->dy ? v->dy[i] : 0, a, b,
               ga_better_distance(f, a, &ea, truth), ga_better_distance(f, b, &eb, truth));
}

static void add_chunk(struct ga_compare_tally *t, const struct chunk_tally *c)
{
    t->same += c->same;
    t->tied += c->tied;
    t->improved += c->improved;
    t->worsened += c->worsened;
    t->inputs += c->same + c->tied + c->improved + c->worsened;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < GA_BUCKET_COUNT; k++)
            t->bucket[s][k] += c->bucket[s][k];
    for (size_t i = 0; i < c->regression_count; i++)
        keep_point(t->regressions, &t->regression_count, &c->regressions[i]);
    for (size_t i = 0; i < c->improvement_count; i++)
        keep_point(t->improvements, &t->improvement_count, &c->improvements[i]);
    for (size_t i = 0; i < c->ranges.count; i++)
        keep_range(&t->ranges, &c->ranges.list[i]);
    t->ranges.total += c->ranges.total;
    t->ranges.worsened += c->ranges.worsened;
}

void ga_compare_tally_observe(void *ctx, const struct ga_sweep_chunk_view *v)
{
    struct ga_compare_tally *t = ctx;
    struct ga_compare_chunk ends = { .seen = true };
    struct chunk_tally *c;
    struct run open = { 0 };
    struct x_count xc = { .has = false };
    uint64_t k = v->start / t->chunk_size;

    if (v->count < 2 || v->n == 0 || k >= t->chunk_count || (t->backward && !v->dy)
        || !(c = calloc(1, sizeof *c)))
        return;   /* not reached: the chunk then stays unseen, which ga_compare_tally_finish reports */
    for (size_t i = 0; i < v->n; i++)
        tally_input(t, c, &ends, &open, t->by_x.pairs ? &xc : NULL, v, i);
    flush_x(&t->by_x, &xc);
    if (ends.broken)
        ends.tail = open;
    else
        ends.head = open;
    ends.first_x = v->x[0];
    ends.last_x = v->x[v->n - 1];
    #pragma omp critical(ga_compare_tally)
    {
        add_chunk(t, c);
        t->chunks[k] = ends;
    }
    free(c);
}

/* MPFR's exact value of a listed point, and the rule's distances from it. */
static int refine_point(const struct ga_compare_tally *t, struct ga_compare_point *p)
{
    struct ga_truth truth = { .tail = 0.0f };  /* the backward truth has no tail (truth/backward.c) */
    struct ga_error ea, eb;

    if ((t->backward ? ga_backward_mpfr(t->reference, t->format, p->x, p->dy, &truth)
                     : ga_truth_mpfr(t->reference, t->format, p->x, &truth)) != GA_TRUTH_OK)
        return -1;
    ga_error_compute(&t->layout, p->a, &truth, &ea);
    ga_error_compute(&t->layout, p->b, &truth, &eb);
    p->exact = truth.exact;
    p->ulp_a = ga_better_distance(t->format, p->a, &ea, &truth);
    p->ulp_b = ga_better_distance(t->format, p->b, &eb, &truth);
    return 0;
}

/* Run b, just after the open run: one run, unless GA_COMPARE_GAP inputs not
 * worse lie between their worsened inputs. */
static void join_into(struct ga_compare_tally *t, struct run *open, const struct run *b)
{
    if (open->worsened > 0 && b->worsened > 0 && open->trail + b->lead >= GA_COMPARE_GAP) {
        close_run(&t->ranges, open);
        *open = *b;
        return;
    }
    *open = join_runs(t->format, open, b);
    if (open->worsened > 0 && open->trail >= GA_COMPARE_GAP) {
        close_run(&t->ranges, open);
        memset(open, 0, sizeof *open);
    }
}

/* The ranges by x: the encodings of x walked in order, as one chunk whose
 * runs all close into ranges. */
static void ranges_by_x(struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;
    const struct ga_compare_by_x *bx = &t->by_x;
    struct ga_compare_chunk ends = { .broken = true };
    struct run open = { 0 };
    bool seen = false;
    ga_bits last = 0;

    for (ga_bits x = 0; x < ga_encoding_count(f); x++) {
        enum ga_verdict v = bx->worse[x] > bx->better[x]   ? GA_VERDICT_WORSE
                            : bx->better[x] > bx->worse[x] ? GA_VERDICT_BETTER
                                                           : GA_VERDICT_SAME;
        if (bx->pairs[x] == 0)
            continue;
        walk(f, &t->ranges, &ends, &open, x, x, v, seen && ga_sign(f, x) != ga_sign(f, last),
             bx->worse[x]);
        seen = true;
        last = x;
    }
    close_run(&t->ranges, &open);
}

int ga_compare_tally_finish(struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;
    struct run open = { 0 };

    for (uint64_t k = 0; k < t->chunk_count; k++) {
        const struct ga_compare_chunk *c = &t->chunks[k];
        if (!c->seen)
            return -1;
        if (k > 0 && ga_sign(f, c->first_x) != ga_sign(f, t->chunks[k - 1].last_x)) {
            close_run(&t->ranges, &open);
            memset(&open, 0, sizeof open);
        }
        join_into(t, &open, &c->head);
        if (c->broken) {
            close_run(&t->ranges, &open);
            open = c->tail;
        }
    }
    close_run(&t->ranges, &open);
    if (t->by_x.pairs)
        ranges_by_x(t);
    for (size_t i = 0; i < t->regression_count; i++)
        if (refine_point(t, &t->regressions[i]) != 0)
            return -1;
    for (size_t i = 0; i < t->improvement_count; i++)
        if (refine_point(t, &t->improvements[i]) != 0)
            return -1;
    return 0;
}
