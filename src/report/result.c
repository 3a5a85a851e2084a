#include "report/result.h"

#include <string.h>

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
    r->failure = m->failure;
    r->profile = m->profile;
    if (m->failed && (ga_domain_fill(d, m->failure.first, 1, &r->failure_first) != 0
                      || ga_domain_fill(d, m->failure_last, 1, &r->failure_last) != 0))
        return -1;
    for (int i = 0; i <= GA_REGION_COUNT; i++) {
        int status = ga_measurement_summary(m, (enum ga_region)i, &r->region[i]);
        if (status != 0)
            return status;
    }
    return 0;
}
