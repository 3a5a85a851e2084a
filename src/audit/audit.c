/* The oracle audit (audit.h): chunks audited in slices, in parallel, with
 * the first disagreements kept in domain order, so that the state does not
 * depend on the thread count or on where the run was cut. */
#include "audit/audit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "state/partial.h"
#include "state/shard.h"
#include "measure/sweep.h"
#include "truth/fast.h"
#include "truth/left_tail_bound.h"
#include "truth/ziv.h"

int ga_audit_init(struct ga_audit *a, const char *program, enum ga_function fn,
                  const struct ga_domain *d, uint32_t k, uint32_t n)
{
    if (!ga_truth_fast_covers(fn, d->format) || strlen(program) >= sizeof a->program
        || strlen(d->spec) >= sizeof a->domain)
        return -1;
    memset(a, 0, sizeof *a);
    strcpy(a->program, program);
    a->fn = fn;
    a->format = d->format;
    strcpy(a->domain, d->spec);
    a->domain_size = d->size;
    a->domain_digest = ga_partial_domain_digest(d);
    a->shard = k;
    a->shards = n;
    ga_shard_chunks(ga_sweep_chunk_count(d->size), k, n, &a->first, &a->end);
    a->next = a->first;
    return 0;
}

int ga_audit_differs(const struct ga_audit *a, const struct ga_audit *b)
{
    if (strcmp(a->program, b->program) != 0)
        return 0;
    if (a->fn != b->fn)
        return 1;
    if (a->format != b->format)
        return 2;
    if (strcmp(a->domain, b->domain) != 0)
        return 3;
    if (a->domain_size != b->domain_size)
        return 4;
    if (a->domain_digest != b->domain_digest)
        return 5;
    return -1;
}

const char *ga_audit_field_name(int field)
{
    static const char *const names[] = { "program", "function", "format", "domain",
                                         "domain size", "domain digest" };
    return field >= 0 && field < 6 ? names[field] : "?";
}

/* Keep d among the first GA_AUDIT_LISTED disagreements by domain index. */
static void keep(struct ga_audit *a, const struct ga_audit_disagreement *d)
{
    size_t at = a->listed;

    while (at > 0 && a->list[at - 1].index > d->index)
        at--;
    if (at >= GA_AUDIT_LISTED)
        return;
    if (a->listed < GA_AUDIT_LISTED)
        a->listed++;
    memmove(&a->list[at + 1], &a->list[at], (a->listed - 1 - at) * sizeof a->list[0]);
    a->list[at] = *d;
}

/* The MPFR side: the Ziv loop, or in gelu's far left tail, where MPFR's
 * erfc is slowest (x in [-28, -14] in float32), the bound of
 * left_tail_bound.h, which proves the same rounding. */
static int mpfr_side(const struct ga_audit *a, ga_bits x, struct ga_truth *out)
{
    if (a->fn == GA_GELU && ga_gelu_left_tail_vanishes(a->format, ga_decode(a->format, x))) {
        ga_truth_vanishing(a->format, true, out);
        return GA_TRUTH_OK;
    }
    return ga_truth_mpfr(a->fn, a->format, x, out);
}

/* Compare the oracles on n inputs from domain index start; the
 * disagreements found go to out[] (their count returned). */
static size_t audit_chunk(const struct ga_audit *a, const ga_bits *x, size_t n, uint64_t start,
                          struct ga_truth *fast, struct ga_audit_disagreement *out)
{
    size_t found = 0;

    /* the batch path, as every sweep calls it */
    ga_truth_fast_batch(a->fn, a->format, x, fast, n);
    for (size_t i = 0; i < n; i++) {
        struct ga_truth mpfr;
        /* an undecided fast entry is a NaN rounded with exact.exp = 1 */
        bool fast_ok = !(isnan(fast[i].exact.mant) && fast[i].exact.exp == 1);
        int kind = -1;

        if (mpfr_side(a, x[i], &mpfr) != GA_TRUTH_OK)
            kind = GA_AUDIT_MPFR_UNDECIDED;
        else if (!fast_ok)
            kind = GA_AUDIT_FAST_UNDECIDED;
        else if (!ga_same_encoding(a->format, mpfr.rounded, fast[i].rounded)
                 || mpfr.direction != fast[i].direction)
            kind = GA_AUDIT_DIFFERENT;
        if (kind < 0)
            continue;
        out[found++] = (struct ga_audit_disagreement){
            .index = start + i, .x = (uint32_t)x[i], .kind = (uint8_t)kind,
            .mpfr = kind == GA_AUDIT_MPFR_UNDECIDED ? 0 : (uint32_t)mpfr.rounded,
            .mpfr_dir = kind == GA_AUDIT_MPFR_UNDECIDED ? 0 : mpfr.direction,
            .fast = fast_ok ? (uint32_t)fast[i].rounded : 0,
            .fast_dir = fast_ok ? fast[i].direction : 0,
        };
    }
    return found;
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Chunks [a->next, end) into a.  -1 when the domain could not be read. */
static int audit_slice(struct ga_audit *a, const struct ga_domain *d, int threads, uint64_t end)
{
    int status = 0;
    double cpu = cpu_seconds();

    #pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        ga_bits x[GA_SWEEP_CHUNK];
        struct ga_truth *fast = malloc(GA_SWEEP_CHUNK * sizeof *fast);
        struct ga_audit_disagreement *found = malloc(GA_SWEEP_CHUNK * sizeof *found);

        #pragma omp for schedule(dynamic)
        for (uint64_t c = a->next; c < end; c++) {
            uint64_t start = c * GA_SWEEP_CHUNK;
            size_t n = (size_t)ga_sweep_chunk_inputs(d->size, c, c + 1), k;

            if (!fast || !found || ga_domain_fill(d, start, n, x) != 0) {
                #pragma omp atomic write
                status = -1;
                continue;
            }
            k = audit_chunk(a, x, n, start, fast, found);
            #pragma omp critical(ga_audit_keep)
            {
                a->disagreements += k;
                for (size_t i = 0; i < k; i++)
                    keep(a, &found[i]);
            }
        }
        free(fast);
        free(found);
        ga_truth_thread_done();
    }
    if (status == 0) {
        a->inputs += ga_sweep_chunk_inputs(d->size, a->next, end);
        a->next = end;
        a->cpu_s += cpu_seconds() - cpu;
    }
    return status;
}

int ga_audit_run(struct ga_audit *a, const struct ga_domain *d, int threads,
                 ga_audit_save_fn save, void *ctx, double interval_s)
{
    double last_save = wall_seconds();
    /* slices of about a quarter of the interval (at most 2 s), sized from
     * the rate measured */
    double slice_s = interval_s / 4 < 2 ? interval_s / 4 : 2;
    uint64_t slice = 1;
    int status = 0;

    if (!save)
        return a->next < a->end ? audit_slice(a, d, threads, a->end) : 0;
    slice = (uint64_t)(threads > 0 ? threads : omp_get_max_threads());
    while (status == 0 && a->next < a->end) {
        uint64_t end = a->end - a->next < slice ? a->end : a->next + slice;
        double start = wall_seconds(), took;

        status = audit_slice(a, d, threads, end);
        took = wall_seconds() - start;
        if (took > 0) {
            double fit = (double)slice * slice_s / took;
            slice = fit < 1 ? 1 : fit > 4.0 * (double)slice ? 4 * slice : (uint64_t)fit;
        }
        if (status == 0 && a->next < a->end && wall_seconds() - last_save >= interval_s) {
            status = save(ctx, a);
            last_save = wall_seconds();
        }
    }
    if (status == 0)
        status = save(ctx, a);
    return status;
}

size_t ga_audits_missing(const struct ga_audit *const *parts, size_t n, uint32_t *list,
                         size_t max)
{
    uint32_t shards = parts[0]->shards;
    bool *seen = calloc(shards, sizeof *seen);
    size_t count = 0;

    if (!seen)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (parts[i]->shards == shards)
            seen[parts[i]->shard - 1] = true;
    for (uint32_t k = 0; k < shards; k++)
        if (!seen[k] && count++ < max)
            list[count - 1] = k + 1;
    free(seen);
    return count;
}

int ga_audits_merge(const struct ga_audit *const *parts, size_t n, struct ga_audit *out,
                    size_t *bad, const char **why)
{
    uint32_t shards = parts[0]->shards;
    bool *seen = calloc(shards, sizeof *seen);

    *bad = 0;
    *why = "out of memory";
    if (!seen)
        return -1;
    *out = *parts[0];
    out->inputs = out->disagreements = out->cpu_s = 0;
    out->listed = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ga_audit *p = parts[i];
        *bad = i;
        *why = ga_audit_differs(p, parts[0]) >= 0 ? "another audit"
             : p->shards != shards ? "another number of shards"
             : p->next != p->end ? "an unfinished shard (a checkpoint)"
             : seen[p->shard - 1] ? "a shard given twice" : NULL;
        if (*why) {
            free(seen);
            return -1;
        }
        seen[p->shard - 1] = true;
        out->inputs += p->inputs;
        out->disagreements += p->disagreements;
        out->cpu_s += p->cpu_s;
        for (uint32_t k = 0; k < p->listed; k++)
            keep(out, &p->list[k]);
    }
    for (uint32_t k = 0; k < shards; k++)
        if (!seen[k]) {
            *bad = n;
            *why = "a shard is missing";
            free(seen);
            return -1;
        }
    free(seen);
    out->shard = out->shards = 1;
    out->first = 0;
    out->end = out->next = ga_sweep_chunk_count(out->domain_size);
    return 0;
}
