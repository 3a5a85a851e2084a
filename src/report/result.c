#include "report/result.h"

#include <string.h>

/* Failed batches whose failing inputs run on from one to the next, with the
 * same failure, make one span: a crash over [2, 3) is one span, whatever
 * the batches; two regions apart are two. */
static int failure_spans(struct ga_result *r, const struct ga_measurement *m,
                         const struct ga_domain *d)
{
    uint64_t last = 0;

    r->unlisted_spans = m->failure_spans - m->failure_count;
    for (size_t i = 0; i < m->failure_count; i++) {
        const struct ga_failure_record *rec = &m->failures[i];
        struct ga_failure_span *span = r->span_count ? &r->spans[r->span_count - 1] : NULL;

        if (span && rec->first == last + 1 && strcmp(rec->what, span->what) == 0) {
            span->batches += rec->start != m->failures[i - 1].start;
        } else if (r->span_count < GA_RESULT_SPANS) {
            span = &r->spans[r->span_count++];
            span->batches = 1;
            memcpy(span->what, rec->what, sizeof span->what);
            if (ga_domain_fill(d, rec->first, 1, &span->first) != 0)
                return -1;
        } else {
            r->unlisted_spans += m->failure_count - i;
            break;
        }
        last = rec->last;
        if (ga_domain_fill(d, rec->last, 1, &span->last) != 0)
            return -1;
    }
    return 0;
}

int ga_result_from_measurement(struct ga_result *r, const struct ga_measurement *m,
                               const struct ga_domain *d, enum ga_oracle oracle,
                               const char *name)
{
    const struct ga_impl *impl = m->impl;

    memset(r, 0, sizeof *r);
    r->impl = impl ? impl->name : name;
    r->models = impl ? impl->models : "outputs computed elsewhere";
    r->formula = impl ? impl->formula : "-";
    r->computes = impl ? impl->computes : "-";
    r->approximates = impl ? impl->approximates : m->reference;
    r->real = impl ? impl->real : false;
    r->format = m->stats->format;
    r->reference = m->reference;
    snprintf(r->domain, sizeof r->domain, "%s", d->spec);
    r->oracle = oracle;
    r->failed = m->failed;
    r->failed_inputs = m->failed_inputs;
    r->failed_batches = m->failed_batches;
    r->skipped_inputs = m->skipped_inputs;
    r->profile = m->profile;
    r->has_shape = m->shape != NULL;
    if (m->shape)
        r->shape = *m->shape;
    if (failure_spans(r, m, d) != 0)
        return -1;
    for (int i = 0; i <= GA_REGION_COUNT; i++) {
        int status = ga_measurement_summary(m, (enum ga_region)i, &r->region[i]);
        if (status != 0)
            return status;
    }
    return 0;
}

bool ga_real_section_has_lengths(const struct ga_real_section *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].machine.lengths != NULL && rs->r[i].reference == GA_GELU)
            return true;
    return false;
}

bool ga_real_section_has_proofs(const struct ga_real_section *rs)
{
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].machine.proof != NULL && rs->r[i].reference == GA_GELU)
            return true;
    return false;
}

bool ga_real_section_new_domain(const struct ga_real_section *rs, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(rs->r[k].domain, rs->r[i].domain) == 0)
            return false;
    return true;
}
