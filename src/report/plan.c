/* What a report measures (plan.h). */
#include "report/plan.h"

#include "impls/impl.h"

size_t ga_report_plan_max(void)
{
    return 2 * ga_catalogue_count();
}

size_t ga_report_plan(const struct ga_format *f, struct ga_measurement *m)
{
    size_t n = 0;

    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *impl = ga_catalogue_at(i);
        if (!ga_impl_supports(impl, f))
            continue;
        m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU, .want_profile = true };
        if (impl->approximates == GA_GELU_TANH)
            m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU_TANH,
                                              .want_profile = true };
    }
    return n;
}
