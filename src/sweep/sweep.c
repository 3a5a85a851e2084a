#include "sweep/sweep.h"

#include "truth/fast.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

/* Per-thread working memory for one chunk. */
struct chunk_buffers {
    ga_bits x[GA_SWEEP_CHUNK], y[GA_SWEEP_CHUNK];
    struct ga_truth truth[GA_FUNCTION_COUNT][GA_SWEEP_CHUNK];
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
 * correctly rounded result is recomputed by MPFR alone and must agree with
 * the fast oracle's: a disagreement is reported, never papered over. */
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
            if (!ga_same_encoding(f, audit.rounded, t[i].rounded)) {
                *mismatch = true;
                return (long)i;
            }
        }
    return -1;
}

/* Keep the failure that comes first in domain order, so the report does not
 * depend on which thread met it first. */
static void record_failure(struct ga_measurement *m, uint64_t start, size_t n,
                           const struct ga_run_failure *failure)
{
    #pragma omp critical(ga_sweep_failure)
    {
        m->failed_inputs += n;
        m->failed_batches++;
        if (!m->failed || failure->last > m->failure_last)
            m->failure_last = failure->last;
        if (!m->failed || start < m->failure_start) {
            m->failure_start = start;
            m->failure = *failure;
        }
        m->failed = true;
    }
}

int ga_sweep_run(const struct ga_format *f, const struct ga_domain *d,
                 struct ga_measurement *m, size_t count, const struct ga_sweep_options *o,
                 ga_bits *undecided_input)
{
    uint64_t chunks = ga_sweep_chunk_count(d->size);
    bool needs[GA_FUNCTION_COUNT] = { false };
    int status = GA_SWEEP_OK;
    uint64_t done = 0, undecided_at = UINT64_MAX;
    double last_progress = now_seconds();

    if (d->size > GA_SWEEP_MAX_INPUTS)
        return GA_SWEEP_TOO_LARGE;
    for (size_t j = 0; j < count; j++) {
        if (m[j].impl && !ga_impl_supports(m[j].impl, f))
            return GA_SWEEP_BAD_FORMAT;
        needs[m[j].reference] = true;
        m[j].failed = false;
        m[j].failed_inputs = 0;
        m[j].failed_batches = 0;
        m[j].stats = ga_stats_new(f);
        m[j].profile = m[j].want_profile ? ga_profile_new(f) : NULL;
        if (!m[j].stats || (m[j].want_profile && !m[j].profile))
            return GA_SWEEP_NO_MEMORY;
    }
    if (o->threads > 0) {
#ifdef _OPENMP
        omp_set_num_threads(o->threads);
#endif
    }

    #pragma omp parallel
    {
        struct chunk_buffers *buf = malloc(sizeof *buf);
        struct ga_stats **local = calloc(count + 1, sizeof *local);
        struct ga_profile **local_profile = calloc(count + 1, sizeof *local_profile);
        bool ok = buf && local && local_profile;

        for (size_t j = 0; ok && j < count; j++) {
            ok = (local[j] = ga_stats_new(f)) != NULL;
            if (ok && m[j].want_profile)
                ok = (local_profile[j] = ga_profile_new(f)) != NULL;
        }
        if (!ok) {
            #pragma omp atomic write
            status = GA_SWEEP_NO_MEMORY;
        }

        #pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            uint64_t start = c * GA_SWEEP_CHUNK;
            size_t n = (size_t)(d->size - start < GA_SWEEP_CHUNK ? d->size - start : GA_SWEEP_CHUNK);

            if (!ok)
                continue;
            if (ga_domain_fill(d, start, n, buf->x) != 0) {
                #pragma omp atomic write
                status = GA_SWEEP_READ_FAILED;
                continue;
            }
            for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
                bool mismatch = false;
                long bad = needs[fn] ? chunk_truths(o->oracle, fn, f, buf->x, buf->truth[fn], n,
                                                    &mismatch) : -1;
                if (bad >= 0) {
                    #pragma omp critical(ga_sweep_undecided)
                    if (start + (uint64_t)bad < undecided_at) {
                        undecided_at = start + (uint64_t)bad;
                        *undecided_input = buf->x[bad];
                        status = mismatch ? GA_SWEEP_ORACLES_DISAGREE : GA_SWEEP_UNDECIDED;
                    }
                }
            }
            for (size_t j = 0; j < count; j++) {
                const ga_bits *y = buf->y;
                if (m[j].impl) {
                    struct ga_run_failure failure;
                    if (m[j].impl->run(m[j].impl, f, buf->x, buf->y, n, &failure) != 0) {
                        failure.first += start;
                        failure.last += start;
                        record_failure(&m[j], start, n, &failure);
                        continue;
                    }
                } else if (m[j].outputs.read(m[j].outputs.ctx, start, n, buf->y) != 0) {
                    #pragma omp atomic write
                    status = GA_SWEEP_READ_FAILED;
                    continue;
                }
                if (ga_stats_add_batch(local[j], buf->x, y, buf->truth[m[j].reference], n) != 0) {
                    #pragma omp atomic write
                    status = GA_SWEEP_TOO_LARGE;  /* not reached below the size limit */
                    continue;
                }
                if (local_profile[j])
                    ga_profile_add_batch(local_profile[j], buf->x, y, buf->truth[m[j].reference], n);
            }
            #pragma omp atomic
            done += n;
            if (o->progress
#ifdef _OPENMP
                && omp_get_thread_num() == 0
#endif
                && now_seconds() - last_progress > 0.5) {
                uint64_t seen;
                #pragma omp atomic read
                seen = done;
                o->progress(o->progress_ctx, seen, d->size);
                last_progress = now_seconds();
            }
        }

        #pragma omp critical(ga_sweep_merge)
        for (size_t j = 0; ok && j < count; j++) {
            if (ga_stats_merge(m[j].stats, local[j]) != 0)
                status = GA_SWEEP_TOO_LARGE;
            if (local_profile[j])
                ga_profile_merge(m[j].profile, local_profile[j]);
        }
        for (size_t j = 0; local && local_profile && j < count; j++) {
            ga_stats_free(local[j]);
            ga_profile_free(local_profile[j]);
        }
        free(local);
        free(local_profile);
        free(buf);
    }
    if (o->progress && status == GA_SWEEP_OK)
        o->progress(o->progress_ctx, d->size, d->size);
    return status;
}

void ga_measurement_clear(struct ga_measurement *m)
{
    ga_stats_free(m->stats);
    ga_profile_free(m->profile);
    m->stats = NULL;
    m->profile = NULL;
}

static int mpfr_truth(void *ctx, ga_bits x, struct ga_truth *out)
{
    const struct ga_measurement *m = ((void **)ctx)[0];
    const struct ga_format *f = ((void **)ctx)[1];
    return ga_truth_mpfr(m->reference, f, x, out);
}

int ga_measurement_summary(const struct ga_measurement *m, enum ga_region r,
                           struct ga_summary *out)
{
    const void *ctx[2] = { m, m->stats->format };
    int status = ga_stats_summarize(m->stats, r, out);

    if (status != GA_STATS_OK)
        return status;
    return ga_summary_refine(out, m->stats->format, mpfr_truth, (void *)ctx);
}
