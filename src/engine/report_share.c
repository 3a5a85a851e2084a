/* A report's share of the work (engine/report_share.h). */
#include "engine/report_share.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "state/shard.h"

void ga_report_say(const struct ga_report_share *share, const char *fmt, ...)
                   {
                   va_list ap;

    va_start(ap, fmt);
    vsnprintf(share->why, share->why_len, fmt, ap);
    va_end(ap);
}

/* Sweep shard k of n of domain d for m[0..count): the sweep's chunks of the
 * shard (none: nothing measured, the statistics stay empty). */
int ga_report_sweep_share(const struct ga_format *f, const struct ga_domain *d,
                          struct ga_measurement *m, size_t count, struct ga_sweep_options so,
                          const struct ga_report_share *share, const char *label)
{
    uint64_t first, end;
    char why[GA_ENGINE_WHY];
    ga_bits input = 0;
    int status;

    ga_shard_chunks(ga_sweep_chunk_count(d->size), share->shard, share->shards, &first, &end);
    if (count == 0 || first >= end)
        return GA_ENGINE_OK;
    so.first_chunk = first;
    so.end_chunk = end;
    if (share->progress)
        share->progress(&so, label);
    status = ga_sweep_run(f, d, m, count, &so, &input);
    status = ga_engine_sweep_status(status, f, d, m, count, input, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_report_say(share, "report: %s", why);
    return status;
}

/* Measurement m of the shard, identified by id, as part j of e: a finished
 * partial of shard K of N. */
int ga_report_store_partial(struct ga_report_partial_format *e, size_t j,
                            const struct ga_partial_identity *id,
                            const struct ga_measurement *m,
                            const struct ga_report_share *share)
{
    struct ga_partial *p = ga_partial_new(id, share->shard, share->shards);

    if (!p) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    e->parts[j] = p;
    p->next = p->end;
    if (m->stats && ga_measurement_merge(&p->m, m) != GA_SWEEP_OK) {
        ga_report_say(share, "report: one region would count 2^32 inputs");
        return GA_ENGINE_BAD_INPUT;
    }
    return GA_ENGINE_OK;
}

/* The state of the shard: each measurement as a partial of its domain, with
 * its profile, and room for `graded` rows graded from files after them. */
int ga_report_save_share(const struct ga_format *f, struct ga_measurement *m, size_t n,
                         size_t nreal, size_t graded, const struct ga_domain *domain,
                         const struct ga_domain *real_domain,
                         const struct ga_sweep_options *base,
                         const struct ga_report_share *share)
{
    struct ga_report_partial *rp = share->save;
    struct ga_report_partial_format *e = &rp->format[rp->nformats];
    struct ga_partial_identity *id = malloc(sizeof *id);
    int status = GA_ENGINE_OK;

    if (!id || ga_report_partial_add_format(rp, f, n + nreal + graded) != 0) {
        free(id);
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    e->graded = graded;
    for (size_t j = 0; j < n + nreal && status == GA_ENGINE_OK; j++) {
        const struct ga_domain *d = j < n ? domain : real_domain;
        if (ga_partial_identity_init(id, PACKAGE_NAME " " PACKAGE_VERSION, f, m[j].impl->name,
                                     &m[j], d, base->oracle, 0, 0) != 0) {
            ga_report_say(share, "report: out of memory");
            status = GA_ENGINE_UNDECIDED;
            break;
        }
        status = ga_report_store_partial(e, j, id, &m[j], share);
        if (status == GA_ENGINE_OK && m[j].want_profile) {
            e->profiles[j] = m[j].profile ? m[j].profile : ga_profile_new(f);
            m[j].profile = NULL;
            if (!e->profiles[j])
                status = GA_ENGINE_UNDECIDED;
        }
    }
    free(id);
    return status;
}

/* The measurements of merged shards into the plan's m[0..count): their
 * kernels must be the plan's (the same catalogue and real libraries). */
int ga_report_take_merged(const struct ga_format *f, struct ga_measurement *m, size_t count,
                          size_t n, const struct ga_domain *domain,
                          const struct ga_domain *real_domain, struct ga_report_share *share)
{
    struct ga_report_partial_format *e = &share->merged->format[share->format];

    if (e->format != f || e->count - e->graded != count) {
        ga_report_say(share, "report: the shards measured %zu implementations in %s, this gelu-acc "
                      "plans %zu (merge where the same real libraries run)",
                      e->count - e->graded, f->name, count);
        return GA_ENGINE_BAD_INPUT;
    }
    for (size_t j = 0; j < count; j++) {
        struct ga_partial *p = e->parts[j];
        const struct ga_domain *d = j < n ? domain : real_domain;
        struct ga_measurement *mj = &m[j];
        if (strcmp(p->id.impl, mj->impl->name) != 0 || p->id.reference != mj->reference
            || p->id.domain_size != d->size) {
            ga_report_say(share, "report: the shards' measurement %zu of %s is %s, this "
                          "gelu-acc plans %s (merge where the same real libraries run)", j + 1,
                          f->name, p->id.impl, mj->impl->name);
            return GA_ENGINE_BAD_INPUT;
        }
        mj->stats = p->m.stats;
        p->m.stats = NULL;
        mj->profile = e->profiles[j];
        e->profiles[j] = NULL;
        mj->shape = p->m.shape;
        p->m.shape = NULL;
        mj->failed = p->m.failed;
        mj->failed_inputs = p->m.failed_inputs;
        mj->failed_batches = p->m.failed_batches;
        mj->skipped_inputs = p->m.skipped_inputs;
        mj->failure_spans = p->m.failure_spans;
        mj->failure_count = p->m.failure_count;
        memcpy(mj->failures, p->m.failures, sizeof mj->failures);
    }
    return GA_ENGINE_OK;
}
