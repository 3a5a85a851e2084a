#include "measure/sweep.h"
#include "measure/kernel_clock.h"
#include "measure/shape_ledger.h"

#include "isolation/plugin.h"
#include "measure/failure_cap.h"
#include "truth/fast.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Per-thread working memory for one chunk. */
struct chunk_buffers {
    ga_bits x[GA_SWEEP_CHUNK];
    const ga_bits *inputs;              /* x, or the chunk's in its group */
    struct ga_truth truth[GA_FUNCTION_COUNT][GA_SWEEP_CHUNK];
    struct ga_stats_extent extent;      /* of the inputs: the same for every measurement */
    double ulp[GA_SWEEP_CHUNK];         /* the statistics' ulp errors, for the profile */
};

/* Chunks a thread takes at once when some kernel runs in worker processes:
 * one round trip then carries the group's batches (ga_plugin_run_many)
 * instead of one per chunk, and one more their mirrors for the odd
 * identity.  Without a failure cap only: the cap decides chunk by chunk,
 * after the chunks before. */
#define GROUP_CHUNKS 16

/* A group's inputs, filled before its chunks are measured one by one, and
 * their mirrors (ga_shape_mirror) when some worker kernel's measurement
 * wants the odd identity. */
struct group_inputs {
    bool filled;                        /* x holds every chunk of the group */
    bool mirrored;                      /* mirrors, at and neg hold every chunk's */
    ga_bits x[GROUP_CHUNKS][GA_SWEEP_CHUNK];
    size_t mirrors[GROUP_CHUNKS];
    uint32_t at[GROUP_CHUNKS][GA_SWEEP_CHUNK];
    ga_bits neg[GROUP_CHUNKS][GA_SWEEP_CHUNK];
};

/* A worker-process kernel's outputs for a group, as run() gives them chunk
 * by chunk; on the mirrors of the chunks it ran without failing, when
 * wanted, as chunk_shape's run() gives them (mirror_status -1: not run). */
struct group_outputs {
    ga_bits y[GROUP_CHUNKS][GA_SWEEP_CHUNK];
    int status[GROUP_CHUNKS];
    struct ga_run_failure failure[GROUP_CHUNKS];
    ga_bits y_neg[GROUP_CHUNKS][GA_SWEEP_CHUNK];
    int mirror_status[GROUP_CHUNKS];
};

/* What one measurement made of the thread's chunk. */
enum chunk_state { CHUNK_SKIPPED, CHUNK_PENDING, CHUNK_MEASURED, CHUNK_FAILED };

struct chunk_output {
    enum chunk_state state;
    ga_bits y[GA_SWEEP_CHUNK];
    const ga_bits *outputs;             /* y, or the chunk's in its group */
    struct ga_run_failure failure;
};

/* The odd identity's inputs -x and outputs k(-x), for the chunk's x >= +0. */
struct mirror_buffers {
    uint32_t at[GA_SWEEP_CHUNK];
    ga_bits neg[GA_SWEEP_CHUNK], y_neg[GA_SWEEP_CHUNK];
};

/* What every thread shares. */
struct sweep_ctx {
    const struct ga_format *f;
    const struct ga_domain *d;
    struct ga_measurement *m;
    size_t count;
    const struct ga_sweep_options *o;
    bool needs[GA_FUNCTION_COUNT];
    uint64_t group;                     /* chunks a thread takes at once */
    /* per measurement: the first one with the same implementation, whose
     * outputs it takes (a tanh form measured against both references runs
     * once per chunk) */
    size_t *runs_as;
    struct ga_failure_cap *cap;         /* NULL: no cap */
    struct ga_shape_ledger **ledger;    /* per measurement with a shape, else NULL */
    uint64_t first_chunk;               /* the cap counts chunks from it */
    int status;
    uint64_t undecided_at;
    ga_bits *undecided_input;
};

/* Each thread's own: statistics merged at the end, and its chunk. */
struct thread_state {
    struct chunk_buffers *buf;
    struct ga_stats **stats;
    struct ga_profile **profile;
    struct ga_shape **shape;
    struct mirror_buffers *mirror;      /* when a measurement wants the odd identity */
    struct chunk_output *out;           /* per measurement */
    bool *failed;                       /* per measurement, for the cap */
    struct group_inputs *group_in;      /* NULL: chunk by chunk */
    struct group_outputs **group_out;   /* per measurement, NULL but for worker kernels */
};

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Truths of one chunk; returns the index of an undecided input, or -1.
 *
 * The exact values that errors are measured against always come from the
 * fast oracle (relative error below GA_FAST_EXACT_REL_ERR; the worst points
 * are recomputed by MPFR when summarized), so every figure is the same
 * whichever oracle certifies the rounding.  With the MPFR oracle each
 * correctly rounded result and its direction (the certified facts every
 * classification is decided from) is recomputed by MPFR alone and must agree
 * with the fast oracle's: a disagreement is reported, never papered over. */
static long chunk_truths(enum ga_oracle oracle, enum ga_function fn, const struct ga_format *f,
                         const ga_bits *x, struct ga_truth *t, size_t n, bool *mismatch)
{
    if (ga_truth_fast_batch(fn, f, x, t, n) != 0) {
        for (size_t i = 0; i < n; i++)  /* find the undecided input */
            if (ga_truth_mpfr(fn, f, x[i], &(struct ga_truth){ 0 }) != GA_TRUTH_OK)
                return (long)i;
    }
    if (oracle == GA_ORACLE_MPFR)
        for (size_t i = 0; i < n; i++) {
            struct ga_truth audit;
            if (ga_truth_mpfr(fn, f, x[i], &audit) != GA_TRUTH_OK)
                return (long)i;
            if (!ga_same_encoding(f, audit.rounded, t[i].rounded)
                || audit.direction != t[i].direction) {
                *mismatch = true;
                return (long)i;
            }
        }
    return -1;
}

/* Keep the first spans in domain order, so the report does not depend on
 * which thread met them first. */
static void record_failure(struct ga_measurement *m, uint64_t start, size_t n,
                           const struct ga_run_failure *failure)
{
    #pragma omp critical(ga_sweep_failure)
    {
        m->failed = true;
        m->failed_inputs += n;
        m->failed_batches++;
        if (failure->span_count == 0)
            ga_measurement_keep_span(m, start, start + failure->first, start + failure->last,
                                     failure->what);
        for (size_t k = 0; k < failure->span_count && k < GA_RUN_SPANS; k++)
            ga_measurement_keep_span(m, start, start + failure->span[k].first,
                                     start + failure->span[k].last, failure->what);
    }
}

/* Inputs and truths of chunk [start, start + n); false on an error (noted
 * in s->status). */
static bool chunk_inputs(struct sweep_ctx *s, struct chunk_buffers *buf,
                         const ga_bits *grouped, uint64_t start, size_t n)
{
    bool ok = true;

    buf->inputs = grouped ? grouped : buf->x;
    if (!grouped && ga_domain_fill(s->d, start, n, buf->x) != 0) {
        #pragma omp atomic write
        s->status = GA_SWEEP_READ_FAILED;
        return false;
    }
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        bool mismatch = false;
        long bad = s->needs[fn] ? chunk_truths(s->o->oracle, fn, s->f, buf->inputs,
                                               buf->truth[fn], n, &mismatch) : -1;
        if (bad >= 0) {
            ok = false;
            #pragma omp critical(ga_sweep_undecided)
            if (start + (uint64_t)bad < s->undecided_at) {
                s->undecided_at = start + (uint64_t)bad;
                *s->undecided_input = buf->inputs[bad];
                s->status = mismatch ? GA_SWEEP_ORACLES_DISAGREE : GA_SWEEP_UNDECIDED;
            }
        }
    }
    return ok;
}

/* Measurement j's outputs for the chunk: from its kernel or its source. */
static void chunk_outputs(struct sweep_ctx *s, struct thread_state *t, size_t j, uint64_t start,
                          size_t n, size_t in_group)
{
    const struct ga_measurement *m = &s->m[j];
    struct chunk_output *out = &t->out[j];
    const struct group_outputs *g = t->group_in && t->group_in->filled ? t->group_out[j] : NULL;
    const struct chunk_output *twin = s->runs_as[j] != j ? &t->out[s->runs_as[j]] : NULL;

    out->outputs = out->y;
    if (twin && (twin->state == CHUNK_MEASURED || twin->state == CHUNK_FAILED)) {
        out->outputs = twin->outputs;
        if (twin->state == CHUNK_FAILED)
            out->failure = twin->failure;
        out->state = twin->state;
        t->failed[j] = twin->state == CHUNK_FAILED;
    } else if (g) {
        bool failed = g->status[in_group] != 0;
        out->outputs = g->y[in_group];
        if (failed)
            out->failure = g->failure[in_group];
        out->state = failed ? CHUNK_FAILED : CHUNK_MEASURED;
        t->failed[j] = failed;
    } else if (m->impl) {
        uint64_t clock = ga_kernel_clock_now();
        bool failed = m->impl->run(m->impl, s->f, t->buf->inputs, out->y, n, &out->failure) != 0;
        if (!ga_plugin_runs_many(m->impl))  /* a worker's time is its own CPU time */
            ga_kernel_clock_add(clock);
        out->state = failed ? CHUNK_FAILED : CHUNK_MEASURED;
        t->failed[j] = failed;
    } else if (m->outputs.read(m->outputs.ctx, start, n, out->y) != 0) {
        #pragma omp atomic write
        s->status = GA_SWEEP_READ_FAILED;
        out->state = CHUNK_SKIPPED;
    } else {
        out->state = CHUNK_MEASURED;
    }
}

/* Whether measurement j's odd identity is copied from the measurement whose
 * outputs it takes (ga_shape_copy_odd when the sweep ends). */
static bool shares_odd(const struct sweep_ctx *s, size_t j)
{
    return s->runs_as[j] != j && !s->cap && s->m[j].shape && s->m[j].shape->odd
           && s->m[s->runs_as[j]].shape && s->m[s->runs_as[j]].shape->odd;
}

/* The chunk's shape: its own pairs, and the odd identity from the kernel run
 * again on -x for its x >= +0 (not for graded outputs, nor when that run
 * fails: those inputs go unmeasured), with its group when it has one.  A
 * measurement that takes another's outputs (runs_as) leaves the identity to
 * it and copies it at the end, unless a failure cap decides chunk by chunk
 * per measurement. */
static void chunk_shape(struct sweep_ctx *s, struct thread_state *t, size_t j, size_t n,
                        size_t in_group)
{
    const struct ga_measurement *m = &s->m[j];
    struct ga_shape *shape = t->shape[j];
    const struct group_inputs *g = t->group_in && t->group_in->filled ? t->group_in : NULL;
    const struct group_outputs *o = g ? t->group_out[s->runs_as[j]] : NULL;
    struct mirror_buffers *mb = t->mirror;
    struct ga_run_failure failure;
    uint64_t clock;
    size_t k;
    bool ran;

    ga_shape_add_chunk(shape, t->buf->inputs, t->out[j].outputs, t->buf->truth[m->reference], n);
    if (shares_odd(s, j))
        return;
    if (shape->odd && o) {
        if (o->mirror_status[in_group] == 0)
            ga_shape_add_odd(shape, t->buf->inputs, t->out[j].outputs, g->at[in_group],
                             o->y_neg[in_group], g->mirrors[in_group]);
        return;
    }
    if (!shape->odd || (k = ga_shape_mirror(s->f, t->buf->inputs, n, mb->at, mb->neg)) == 0)
        return;
    clock = ga_kernel_clock_now();
    ran = m->impl->run(m->impl, s->f, mb->neg, mb->y_neg, k, &failure) == 0;
    if (!ga_plugin_runs_many(m->impl))
        ga_kernel_clock_add(clock);
    if (ran)
        ga_shape_add_odd(shape, t->buf->inputs, t->out[j].outputs, mb->at, mb->y_neg, k);
}

/* The chunk's outputs join the thread's statistics, or its failure is
 * recorded. */
static void chunk_account(struct sweep_ctx *s, struct thread_state *t, size_t j, uint64_t start,
                          size_t n, size_t in_group)
{
    struct chunk_output *out = &t->out[j];
    const struct ga_truth *truth = t->buf->truth[s->m[j].reference];

    if (out->state == CHUNK_FAILED) {
        record_failure(&s->m[j], start, n, &out->failure);
    } else if (out->state == CHUNK_MEASURED) {
        double *ulp = t->profile[j] ? t->buf->ulp : NULL;
        if (ga_stats_add_batch_in(t->stats[j], t->buf->inputs, out->outputs, truth, n,
                                  &t->buf->extent, ulp) != 0) {
            #pragma omp atomic write
            s->status = GA_SWEEP_TOO_LARGE;  /* not reached below the size limit */
            return;
        }
        if (t->profile[j])
            ga_profile_add_errors(t->profile[j], t->buf->inputs, ulp, n);
        if (t->shape[j])
            chunk_shape(s, t, j, n, in_group);
    }
}

/* The chunk's edges for the pairs that straddle chunks (unmeasured when its
 * outputs were not accounted). */
static void chunk_edges(struct sweep_ctx *s, struct thread_state *t, size_t j, uint64_t c,
                        size_t n)
{
    const struct chunk_output *out = &t->out[j];
    const struct ga_truth *truth = t->buf->truth[s->m[j].reference];
    struct ga_shape_edge first = { .measured = false }, last = { .measured = false };
    int status;

    if (!s->ledger[j])
        return;
    if (out->state == CHUNK_MEASURED) {
        first = ga_shape_edge_of(t->buf->inputs[0], out->outputs[0], &truth[0]);
        last = ga_shape_edge_of(t->buf->inputs[n - 1], out->outputs[n - 1], &truth[n - 1]);
    }
    #pragma omp critical(ga_sweep_shape)
    status = ga_shape_ledger_offer(s->ledger[j], s->m[j].shape, c, &first, &last);
    if (status != 0) {
        #pragma omp atomic write
        s->status = GA_SWEEP_NO_MEMORY;
    }
}

/* The chunk's inputs, truths and outputs to the observer, when every
 * measurement has its outputs. */
static void chunk_observe(struct sweep_ctx *s, const struct thread_state *t, uint64_t start,
                          size_t n)
{
    struct ga_sweep_chunk_view v = { .start = start, .n = n };

    if (!s->o->observe || s->count == 0)
        return;
    for (size_t j = 0; j < s->count; j++)
        if (t->out[j].state != CHUNK_MEASURED)
            return;
    v.count = s->count < GA_SWEEP_OBSERVED ? s->count : GA_SWEEP_OBSERVED;
    v.x = t->buf->inputs;
    v.truth = t->buf->truth[s->m[0].reference];
    for (size_t j = 0; j < v.count; j++)
        v.y[j] = t->out[j].outputs;
    s->o->observe(s->o->observe_ctx, &v);
}

/* One chunk, every measurement.  Without a cap each measurement's outputs
 * are accounted at once (while in cache); with one, after the chunks
 * before have decided whether this one still counts. */
static void sweep_chunk(struct sweep_ctx *s, struct thread_state *t, bool ok, uint64_t c,
                        size_t in_group)
{
    const ga_bits *grouped = t->group_in && t->group_in->filled ? t->group_in->x[in_group] : NULL;
    uint64_t start = c * GA_SWEEP_CHUNK;
    size_t n = (size_t)(s->d->size - start < GA_SWEEP_CHUNK ? s->d->size - start : GA_SWEEP_CHUNK);

    uint64_t k = c - s->first_chunk;    /* the chunk as the cap counts it */
    bool any = false;

    if (!ok) {   /* no memory: noted already; later chunks must not wait for this one */
        if (s->cap)
            ga_failure_cap_ran(s->cap, k, NULL);
        return;
    }
    for (size_t j = 0; j < s->count; j++) {
        t->failed[j] = false;
        t->out[j].state = (s->cap && ga_failure_cap_skips(s->cap, j, k)) ? CHUNK_SKIPPED
                                                                                 : CHUNK_PENDING;
        any |= t->out[j].state == CHUNK_PENDING;
    }
    if (any && !chunk_inputs(s, t->buf, grouped, start, n))
        for (size_t j = 0; j < s->count; j++)
            t->out[j].state = CHUNK_SKIPPED;
    else if (any)
        ga_stats_batch_extent(t->stats[0], t->buf->inputs, n, &t->buf->extent);
    for (size_t j = 0; j < s->count; j++) {
        if (t->out[j].state != CHUNK_PENDING)
            continue;
        chunk_outputs(s, t, j, start, n, in_group);
        if (!s->cap)
            chunk_account(s, t, j, start, n, in_group);
    }
    if (!s->cap) {
        for (size_t j = 0; j < s->count; j++)
            chunk_edges(s, t, j, c, n);
        chunk_observe(s, t, start, n);
        return;
    }
    ga_failure_cap_ran(s->cap, k, t->failed);
    for (size_t j = 0; j < s->count; j++) {
        if (ga_failure_cap_counts(s->cap, j, k)) {
            chunk_account(s, t, j, start, n, in_group);
        } else {
            #pragma omp atomic
            s->m[j].skipped_inputs += n;
            t->out[j].state = CHUNK_SKIPPED;
        }
        chunk_edges(s, t, j, c, n);
    }
    chunk_observe(s, t, start, n);   /* when every measurement still counts it */
}

/* Whether a measurement that takes kernel j's outputs wants the odd
 * identity. */
static bool wants_mirrors(const struct sweep_ctx *s, size_t j)
{
    for (size_t i = j; i < s->count; i++)
        if (s->runs_as[i] == j && s->m[i].shape && s->m[i].shape->odd)
            return true;
    return false;
}

/* Kernel j on the mirrors of the group's chunks it ran without failing, in
 * one round trip: the runs chunk_shape would make chunk by chunk, with
 * their statuses. */
static void group_mirrors(struct sweep_ctx *s, struct group_inputs *g, struct group_outputs *o,
                          size_t j, const size_t *n, size_t chunks)
{
    const ga_bits *in[GROUP_CHUNKS];
    ga_bits *out[GROUP_CHUNKS];
    size_t count[GROUP_CHUNKS], which[GROUP_CHUNKS], runs = 0;
    int status[GROUP_CHUNKS];
    struct ga_run_failure failure[GROUP_CHUNKS];

    for (size_t i = 0; !g->mirrored && i < chunks; i++)
        g->mirrors[i] = ga_shape_mirror(s->f, g->x[i], n[i], g->at[i], g->neg[i]);
    g->mirrored = true;
    for (size_t i = 0; i < chunks; i++) {
        o->mirror_status[i] = -1;
        if (o->status[i] == 0 && g->mirrors[i] > 0) {
            which[runs] = i;
            in[runs] = g->neg[i];
            out[runs] = o->y_neg[i];
            count[runs++] = g->mirrors[i];
        }
    }
    if (runs > 0)
        ga_plugin_run_many(s->m[j].impl, s->f, in, out, count, runs, status, failure);
    for (size_t r = 0; r < runs; r++)
        o->mirror_status[which[r]] = status[r];
}

/* Inputs of chunks [c, end) and the outputs of the worker kernels on
 * them, one round trip per kernel (and one on the mirrors).  A chunk whose
 * inputs cannot be read leaves the group unfilled: its chunks then go one
 * by one, as without groups, and report the error. */
static void group_prepare(struct sweep_ctx *s, struct thread_state *t, uint64_t c, uint64_t end)
{
    struct group_inputs *g = t->group_in;
    const ga_bits *in[GROUP_CHUNKS];
    ga_bits *out[GROUP_CHUNKS];
    size_t n[GROUP_CHUNKS], chunks = (size_t)(end - c);

    g->filled = g->mirrored = false;
    for (size_t i = 0; i < chunks; i++) {
        uint64_t start = (c + i) * GA_SWEEP_CHUNK;
        n[i] = (size_t)(s->d->size - start < GA_SWEEP_CHUNK ? s->d->size - start : GA_SWEEP_CHUNK);
        in[i] = g->x[i];
        if (ga_domain_fill(s->d, start, n[i], g->x[i]) != 0)
            return;
    }
    g->filled = true;
    for (size_t j = 0; j < s->count; j++) {
        struct group_outputs *o = t->group_out[j];
        if (!o || s->runs_as[j] != j)
            continue;
        for (size_t i = 0; i < chunks; i++)
            out[i] = o->y[i];
        ga_plugin_run_many(s->m[j].impl, s->f, in, out, n, chunks, o->status, o->failure);
        if (wants_mirrors(s, j))
            group_mirrors(s, g, o, j, n, chunks);
    }
}

static void free_ledgers(struct sweep_ctx *s)
{
    for (size_t j = 0; s->ledger && j < s->count; j++)
        ga_shape_ledger_free(s->ledger[j]);
    free(s->ledger);
    s->ledger = NULL;
}

static bool thread_state_init(struct thread_state *t, const struct sweep_ctx *s)
{
    size_t count = s->count;

    t->buf = malloc(sizeof *t->buf);
    t->stats = calloc(count + 1, sizeof *t->stats);
    t->profile = calloc(count + 1, sizeof *t->profile);
    t->shape = calloc(count + 1, sizeof *t->shape);
    t->out = malloc((count + 1) * sizeof *t->out);
    t->failed = calloc(count + 1, sizeof *t->failed);
    if (!t->buf || !t->stats || !t->profile || !t->shape || !t->out || !t->failed)
        return false;
    for (size_t j = 0; j < count; j++) {
        const struct ga_shape *shape = s->m[j].shape;
        if (!(t->stats[j] = ga_stats_new(s->f)))
            return false;
        if (s->m[j].want_profile && !(t->profile[j] = ga_profile_new(s->f)))
            return false;
        if (shape && !(t->shape[j] = malloc(sizeof *t->shape[j])))
            return false;
        if (shape)
            ga_shape_init(t->shape[j], s->f, shape->reference, shape->monotone, shape->odd);
        if (shape && shape->odd && !t->mirror && !(t->mirror = malloc(sizeof *t->mirror)))
            return false;
    }
    if (s->group == 1)
        return true;
    t->group_out = calloc(count + 1, sizeof *t->group_out);
    if (!t->group_out || !(t->group_in = malloc(sizeof *t->group_in)))
        return false;
    t->group_in->filled = false;
    for (size_t j = 0; j < count; j++)
        if (s->m[j].impl && ga_plugin_runs_many(s->m[j].impl) && s->runs_as[j] == j
            && !(t->group_out[j] = malloc(sizeof *t->group_out[j])))
            return false;
    return true;
}

static void thread_state_free(struct thread_state *t, size_t count)
{
    for (size_t j = 0; t->stats && t->profile && t->shape && j < count; j++) {
        ga_stats_free(t->stats[j]);
        ga_profile_free(t->profile[j]);
        free(t->shape[j]);
    }
    for (size_t j = 0; t->group_out && j < count; j++)
        free(t->group_out[j]);
    free(t->group_out);
    free(t->group_in);
    free(t->stats);
    free(t->profile);
    free(t->shape);
    free(t->mirror);
    free(t->out);
    free(t->failed);
    free(t->buf);
}

/* Every measurement reset, its statistics (and profile, shape) allocated;
 * which references the truths are needed for. */
static int start_measurements(struct sweep_ctx *s)
{
    const struct ga_format *f = s->f;
    struct ga_measurement *m = s->m;

    for (size_t j = 0; j < s->count; j++) {
        if (m[j].impl && !ga_impl_supports(m[j].impl, f))
            return GA_SWEEP_BAD_FORMAT;
        s->needs[m[j].reference] = true;
        m[j].failed = false;
        m[j].failed_inputs = 0;
        m[j].failed_batches = 0;
        m[j].skipped_inputs = 0;
        m[j].failure_count = 0;
        m[j].failure_spans = 0;
        m[j].stats = ga_stats_new(f);
        m[j].profile = m[j].want_profile ? ga_profile_new(f) : NULL;
        m[j].shape = m[j].want_shape ? malloc(sizeof *m[j].shape) : NULL;
        if (!m[j].stats || (m[j].want_profile && !m[j].profile) || (m[j].want_shape && !m[j].shape))
            return GA_SWEEP_NO_MEMORY;
        if (m[j].shape)
            ga_shape_init(m[j].shape, f, m[j].reference, ga_shape_ordered(s->d), m[j].impl != NULL);
    }
    return GA_SWEEP_OK;
}

/* Which measurements share another's kernel runs, the shape ledgers, the
 * failure cap, and how many chunks a plugin kernel is given at once. */
static int prepare_context(struct sweep_ctx *s, uint64_t chunks)
{
    const struct ga_measurement *m = s->m;
    const size_t count = s->count;

    if (!(s->runs_as = malloc((count + 1) * sizeof *s->runs_as)))
        return GA_SWEEP_NO_MEMORY;
    for (size_t j = 0; j < count; j++) {
        s->runs_as[j] = j;
        for (size_t k = 0; k < j && m[j].impl && s->runs_as[j] == j; k++)
            if (m[k].impl == m[j].impl)
                s->runs_as[j] = k;
    }
    if (!(s->ledger = calloc(count + 1, sizeof *s->ledger))) {
        free(s->runs_as);
        return GA_SWEEP_NO_MEMORY;
    }
    for (size_t j = 0; j < count; j++)
        if (m[j].shape && m[j].shape->monotone && !(s->ledger[j] = ga_shape_ledger_new())) {
            free_ledgers(s);
            free(s->runs_as);
            return GA_SWEEP_NO_MEMORY;
        }
    if (s->o->max_failures > 0
        && !(s->cap = ga_failure_cap_new(chunks, count, s->o->max_failures))) {
        free_ledgers(s);
        free(s->runs_as);
        return GA_SWEEP_NO_MEMORY;
    }
    s->group = 1;
    for (size_t j = 0; j < count && !s->cap; j++)
        if (m[j].impl && ga_plugin_runs_many(m[j].impl))
            s->group = GROUP_CHUNKS;
    return GA_SWEEP_OK;
}

int ga_sweep_run(const struct ga_format *f, const struct ga_domain *d,
                 struct ga_measurement *m, size_t count, const struct ga_sweep_options *o,
                 ga_bits *undecided_input)
{
    uint64_t all = ga_sweep_chunk_count(d->size);
    uint64_t end = o->end_chunk == 0 || o->end_chunk > all ? all : o->end_chunk;
    uint64_t first = o->first_chunk < end ? o->first_chunk : end;
    uint64_t chunks = end - first;
    uint64_t total = ga_sweep_chunk_inputs(d->size, first, end);
    struct sweep_ctx s = { .f = f, .d = d, .m = m, .count = count, .o = o,
                           .first_chunk = first, .status = GA_SWEEP_OK,
                           .undecided_at = UINT64_MAX, .undecided_input = undecided_input };
    uint64_t done = 0;
    double last_progress = now_seconds();

    if (d->size > GA_SWEEP_MAX_INPUTS)
        return GA_SWEEP_TOO_LARGE;
    int status = start_measurements(&s);
    if (status != GA_SWEEP_OK || (status = prepare_context(&s, chunks)) != GA_SWEEP_OK)
        return status;
    if (o->threads > 0) {
#ifdef _OPENMP
        omp_set_num_threads(o->threads);
#endif
    }

    #pragma omp parallel
    {
        struct thread_state t = { 0 };
        bool ok = thread_state_init(&t, &s);

        if (!ok) {
            #pragma omp atomic write
            s.status = GA_SWEEP_NO_MEMORY;
        }

        /* In order, one chunk (or group) at a time: the failure cap relies
         * on every chunk before a thread's being taken already. */
        #pragma omp for schedule(dynamic, 1)
        for (uint64_t g = 0; g < (chunks + s.group - 1) / s.group; g++) {
            uint64_t c = first + g * s.group, group_end = end - c < s.group ? end : c + s.group;
            if (ok && t.group_in)
                group_prepare(&s, &t, c, group_end);
            for (; c < group_end; c++) {
                uint64_t left = d->size - c * GA_SWEEP_CHUNK;
                sweep_chunk(&s, &t, ok, c, (size_t)(c - first - g * s.group));
                #pragma omp atomic
                done += left < GA_SWEEP_CHUNK ? left : GA_SWEEP_CHUNK;
                if (o->progress
#ifdef _OPENMP
                    && omp_get_thread_num() == 0
#endif
                    && now_seconds() - last_progress > 0.5) {
                    uint64_t seen;
                    #pragma omp atomic read
                    seen = done;
                    o->progress(o->progress_ctx, seen, total);
                    last_progress = now_seconds();
                }
            }
        }

        #pragma omp critical(ga_sweep_merge)
        for (size_t j = 0; ok && j < count; j++) {
            if (ga_stats_merge(m[j].stats, t.stats[j]) != 0)
                s.status = GA_SWEEP_TOO_LARGE;
            if (t.profile[j])
                ga_profile_merge(m[j].profile, t.profile[j]);
            if (t.shape[j])
                ga_shape_merge(m[j].shape, t.shape[j]);
        }
        thread_state_free(&t, count);
        ga_truth_thread_done();
    }
    for (size_t j = 0; j < count; j++) {
        if (s.ledger[j])
            ga_shape_ledger_finish(s.ledger[j], m[j].shape, first, end, d->size);
        if (shares_odd(&s, j))
            ga_shape_copy_odd(m[j].shape, m[s.runs_as[j]].shape);
    }
    free_ledgers(&s);
    ga_failure_cap_free(s.cap);
    free(s.runs_as);
    if (o->progress && s.status == GA_SWEEP_OK)
        o->progress(o->progress_ctx, total, total);
    return s.status;
}
