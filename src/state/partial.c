/* Partial results: identity, running a share of a sweep in slices, merging
 * a set of shards (partial.h).  The file format is in partial_file.c. */
#include "state/partial.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "io/bytes.h"
#include "io/parse_count.h"
#include "isolation/plugin.h"
#include "state/shard.h"

static int copy_text(char *to, size_t cap, const char *from)
{
    if (strlen(from) >= cap)
        return -1;
    strcpy(to, from);
    return 0;
}

/* The listed encodings of d and of its parts into h, each as its format
 * stores it: 4 bytes up to 32 bits, 8 for float64. */
static uint64_t lists_digest(const struct ga_domain *d, uint64_t h)
{
    size_t width = d->format && d->format->bits > 32 ? 8 : 4;

    for (size_t p = 0; p < d->part_count; p++)
        h = lists_digest(&d->parts[p], h);
    for (uint64_t i = 0; d->kind == GA_DOMAIN_LIST && i < d->size; i++) {
        unsigned char le[8];
        for (size_t b = 0; b < width; b++)
            le[b] = (unsigned char)(d->list[i] >> 8 * b);
        h = ga_bytes_fnv1a(le, width, h);
    }
    return h;
}

uint64_t ga_partial_domain_digest(const struct ga_domain *d)
{
    if (d->kind != GA_DOMAIN_LIST && d->kind != GA_DOMAIN_JOIN)
        return 0;
    return lists_digest(d, GA_FNV1A_START);
}

int ga_partial_identity_init(struct ga_partial_identity *id, const char *program,
                             const struct ga_format *f, const char *kernel,
                             const struct ga_measurement *m, const struct ga_domain *d,
                             enum ga_oracle oracle, uint64_t max_failures, double timeout_s)
{
    const struct ga_impl *impl = m->impl;

    memset(id, 0, sizeof *id);
    if (!impl || copy_text(id->program, sizeof id->program, program) != 0
        || copy_text(id->format, sizeof id->format, f->name) != 0
        || copy_text(id->kernel, sizeof id->kernel, kernel) != 0
        || copy_text(id->impl, sizeof id->impl, impl->name) != 0
        || copy_text(id->models, sizeof id->models, impl->models) != 0
        || copy_text(id->formula, sizeof id->formula, impl->formula) != 0
        || copy_text(id->computes, sizeof id->computes, impl->computes) != 0
        || copy_text(id->domain, sizeof id->domain, d->spec) != 0)
        return -1;
    id->approximates = impl->approximates;
    id->real = impl->real;
    id->reference = m->reference;
    id->oracle = oracle;
    id->domain_size = d->size;
    id->domain_digest = ga_partial_domain_digest(d);
    id->max_failures = max_failures;
    id->timeout_s = timeout_s;
    return 0;
}

struct ga_partial *ga_partial_new(const struct ga_partial_identity *id, uint32_t k, uint32_t n)
{
    const struct ga_format *f = ga_format_by_name(id->format);
    struct ga_partial *p;

    if (!f || k < 1 || k > n || !(p = calloc(1, sizeof *p)))
        return NULL;
    p->id = *id;
    p->format = f;
    p->shard = k;
    p->shards = n;
    ga_shard_chunks(ga_sweep_chunk_count(id->domain_size), k, n, &p->first, &p->end);
    p->next = p->first;
    p->impl = (struct ga_impl){ .name = p->id.impl, .approximates = id->approximates,
                                .models = p->id.models, .formula = p->id.formula,
                                .computes = p->id.computes, .real = id->real };
    p->m.impl = &p->impl;
    p->m.reference = id->reference;
    if (!(p->m.stats = ga_stats_new(f))) {
        free(p);
        return NULL;
    }
    return p;
}

void ga_partial_free(struct ga_partial *p)
{
    if (!p)
        return;
    ga_measurement_clear(&p->m);
    free(p);
}

void ga_partial_fields(const struct ga_partial_identity *id,
                       struct ga_partial_field out[GA_PARTIAL_FIELDS])
{
    char timeout[32];
    int i = 0;

#define FIELD(NAME, ...) \
    (out[i].name = NAME, snprintf(out[i].text, sizeof out[i].text, __VA_ARGS__), i++)
    FIELD("program", "%s", id->program);
    FIELD("format", "%s", id->format);
    FIELD("kernel", "%s", id->kernel);
    FIELD("implementation", "%s", id->impl);
    FIELD("models", "%s", id->models);
    FIELD("formula", "%s", id->formula);
    FIELD("computes", "%s", id->computes);
    FIELD("approximates", "%s", ga_function_name(id->approximates));
    FIELD("real", "%s", id->real ? "yes" : "no");
    FIELD("reference", "%s", ga_function_name(id->reference));
    FIELD("oracle", "%s", id->oracle == GA_ORACLE_MPFR ? "mpfr" : "fast");
    FIELD("domain", "%s", id->domain);
    FIELD("domain size", "%" PRIu64, id->domain_size);
    FIELD("domain digest", "%016" PRIx64, id->domain_digest);
    FIELD("max failures", "%" PRIu64, id->max_failures);
    FIELD("timeout", "%s", ga_timeout_text(id->timeout_s, timeout));
#undef FIELD
}

int ga_partial_identity_differs(const struct ga_partial_identity *a,
                                const struct ga_partial_identity *b)
{
    struct ga_partial_field fa[GA_PARTIAL_FIELDS], fb[GA_PARTIAL_FIELDS];  /* 130 KB */

    ga_partial_fields(a, fa);
    ga_partial_fields(b, fb);
    for (int i = 0; i < GA_PARTIAL_FIELDS; i++)
        if (strcmp(fa[i].text, fb[i].text) != 0)
            return i;
    return -1;
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* Progress over the whole run, not the slice. */
struct run_progress {
    const struct ga_sweep_options *o;
    uint64_t before, total;
};

static void slice_progress(void *ctx, uint64_t done, uint64_t total)
{
    struct run_progress *rp = ctx;
    (void)total;
    rp->o->progress(rp->o->progress_ctx, rp->before + done, rp->total);
}

/* Chunks [p->next, end) into p. */
static int run_slice(struct ga_partial *p, const struct ga_domain *d, struct ga_measurement *m,
                     const struct ga_sweep_options *o, uint64_t end, struct run_progress *rp,
                     ga_bits *undecided_input)
{
    struct ga_sweep_options so = *o;
    uint64_t inputs = ga_sweep_chunk_inputs(d->size, p->next, end);
    int status;

    if (p->next >= end)  /* an empty shard (end 0 would mean every chunk) */
        return GA_SWEEP_OK;
    so.first_chunk = p->next;
    so.end_chunk = end;
    if (o->progress) {
        so.progress = slice_progress;
        so.progress_ctx = rp;
    }
    if (o->max_failures > 0) {
        /* the cap counts the failed batches of the chunks before, here too */
        if (p->m.failed_batches >= o->max_failures) {
            p->m.skipped_inputs += inputs;
            p->next = end;
            rp->before += inputs;
            return GA_SWEEP_OK;
        }
        so.max_failures = o->max_failures - p->m.failed_batches;
    }
    status = ga_sweep_run(p->format, d, m, 1, &so, undecided_input);
    if (status == GA_SWEEP_OK)
        status = ga_measurement_merge(&p->m, m);
    if (m->stats)
        ga_measurement_clear(m);
    if (status == GA_SWEEP_OK) {
        p->next = end;
        rp->before += inputs;
    }
    return status;
}

int ga_partial_run(struct ga_partial *p, const struct ga_domain *d, struct ga_measurement *m,
                   const struct ga_sweep_options *o, ga_partial_save_fn save, void *save_ctx,
                   double interval_s, ga_bits *undecided_input)
{
    struct run_progress rp = { .o = o, .total = ga_sweep_chunk_inputs(d->size, p->next, p->end) };
    double last_save = now_seconds();
    /* a slice short enough to save on time, long enough to keep every
     * thread busy; resized from the rate measured */
    double slice_s = interval_s / 4 < 0.5 ? interval_s / 4 : 0.5;
    uint64_t slice = 1;
    int status = GA_SWEEP_OK;

#ifdef _OPENMP
    slice = 2 * (uint64_t)(o->threads > 0 ? o->threads : omp_get_max_threads());
#endif
    if (!save)
        return run_slice(p, d, m, o, p->end, &rp, undecided_input);
    while (status == GA_SWEEP_OK && p->next < p->end) {
        uint64_t end = p->end - p->next < slice ? p->end : p->next + slice;
        double start = now_seconds(), took;

        status = run_slice(p, d, m, o, end, &rp, undecided_input);
        took = now_seconds() - start;
        if (took > 0) {
            double fit = (double)slice * slice_s / took;
            slice = fit < 1 ? 1 : fit > 4.0 * (double)slice ? 4 * slice : (uint64_t)fit;
        }
        if (status == GA_SWEEP_OK && p->next < p->end && now_seconds() - last_save >= interval_s) {
            status = save(save_ctx, p);
            last_save = now_seconds();
        }
    }
    if (status == GA_SWEEP_OK)
        status = save(save_ctx, p);
    return status;
}

/* Each shard of 1..N once, complete. */
static int check_cover(struct ga_partial *const *parts, size_t n,
                       struct ga_partial_set_problem *why)
{
    uint32_t shards = parts[0]->shards;
    size_t *owner = malloc((size_t)shards * sizeof *owner);

    if (!owner) {
        why->status = GA_PARTIALS_NO_MEMORY;
        return -1;
    }
    for (uint32_t k = 0; k < shards; k++)
        owner[k] = SIZE_MAX;
    for (size_t i = 0; i < n && why->status == GA_PARTIALS_OK; i++) {
        const struct ga_partial *p = parts[i];
        why->index = i;
        if (p->shards != shards) {
            why->status = GA_PARTIALS_SHARD_COUNT;
        } else if (p->next != p->end) {
            why->status = GA_PARTIALS_INCOMPLETE;
        } else if (owner[p->shard - 1] != SIZE_MAX) {
            why->status = GA_PARTIALS_DUPLICATE;
            why->other = owner[p->shard - 1];
        } else {
            owner[p->shard - 1] = i;
        }
    }
    for (uint32_t k = 0; k < shards && why->status == GA_PARTIALS_OK; k++)
        if (owner[k] == SIZE_MAX) {
            if (why->missing_count < GA_PARTIALS_MISSING_LISTED)
                why->missing[why->missing_count] = k + 1;
            why->missing_count++;
        }
    if (why->status == GA_PARTIALS_OK && why->missing_count > 0)
        why->status = GA_PARTIALS_MISSING;
    free(owner);
    return why->status == GA_PARTIALS_OK ? 0 : -1;
}

int ga_partials_merge(struct ga_partial *const *parts, size_t n, struct ga_partial **out,
                      struct ga_partial_set_problem *why)
{
    struct ga_partial *all;

    memset(why, 0, sizeof *why);
    *out = NULL;
    for (size_t i = 1; i < n; i++)
        if ((why->field = ga_partial_identity_differs(&parts[0]->id, &parts[i]->id)) >= 0) {
            why->status = GA_PARTIALS_DIFFERENT;
            why->index = i;
            return why->status;
        }
    if (check_cover(parts, n, why) != 0)
        return why->status;
    if (!(all = ga_partial_new(&parts[0]->id, 1, 1))) {
        why->status = GA_PARTIALS_NO_MEMORY;
        return why->status;
    }
    /* in shard order, the domain's (shard.h), so that each shard's shape
     * joins the one before; check_cover made each shard appear once */
    for (uint32_t k = 1; k <= parts[0]->shards; k++) {
        size_t i = 0;
        while (i < n && parts[i]->shard != k)
            i++;
        if (ga_measurement_merge(&all->m, &parts[i]->m) != GA_SWEEP_OK) {
            ga_partial_free(all);
            why->status = GA_PARTIALS_TOO_LARGE;
            why->index = i;
            return why->status;
        }
    }
    all->next = all->end;
    *out = all;
    return GA_PARTIALS_OK;
}
