/* What a report measures (plan.h). */
#include "report/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU, .want_profile = true,
                                          .want_shape = true };
        if (impl->approximates == GA_GELU_TANH)
            m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU_TANH,
                                              .want_profile = true, .want_shape = true };
    }
    return n;
}

size_t ga_report_plan_real_max(void)
{
    return 2 * ga_real_count();
}

static void append(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf);
    if (used < size)
        snprintf(buf + used, size - used, "%s", text);
}

size_t ga_report_plan_real(const struct ga_format *f, struct ga_measurement *m,
                           struct ga_report_real *rr)
{
    char model[128], isa[128], line[768], seen[512] = "";
    size_t n = 0;

    memset(rr, 0, sizeof *rr);
    if (ga_is_small_format(f))
        return 0;
    rr->kernels = calloc(ga_real_count(), sizeof *rr->kernels);
    ga_real_cpu(model, sizeof model, isa, sizeof isa);
    for (size_t i = 0; i < ga_real_count(); i++) {
        const struct ga_real *r = ga_real_at(i);
        struct ga_real_kernel *k = NULL;
        struct ga_io_error err;
        const struct ga_impl *impl;
        char version[160];
        enum ga_io_status st = rr->kernels ? ga_real_open(r, f, NULL, &k, &err) : GA_IO_SYSTEM;

        if (st != GA_IO_OK) {
            /* No paths in a report: it must not depend on where it was made. */
            if (st == GA_IO_LOAD)
                snprintf(line, sizeof line, "`%s`: the %s module was not built\n", r->desc.name,
                         r->desc.library);
            else
                snprintf(line, sizeof line, "`%s`: %s\n", r->desc.name,
                         rr->kernels ? err.message : "out of memory");
            append(rr->not_measured, sizeof rr->not_measured, line);
            continue;
        }
        rr->kernels[rr->count++] = k;
        impl = ga_real_impl(k);
        snprintf(version, sizeof version, "%s %s", r->desc.library,
                 ga_real_kernel_about(k)->version);
        if (strstr(seen, version) == NULL) {  /* each library once, in table order */
            append(seen, sizeof seen, seen[0] ? ", " : "");
            append(seen, sizeof seen, version);
        }
        m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU, .want_shape = true };
        if (impl->approximates == GA_GELU_TANH)
            m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU_TANH,
                                              .want_shape = true };
    }
    if (snprintf(rr->machine, sizeof rr->machine, "%s (%s); %s; glibc %s", model, isa,
                 seen[0] ? seen : "no real library", ga_real_libc_version())
        >= (int)sizeof rr->machine)
        memcpy(rr->machine + sizeof rr->machine - 4, "...", 4);  /* cut, and says so */
    return n;
}

void ga_report_real_close(struct ga_report_real *rr)
{
    for (size_t i = 0; i < rr->count; i++)
        ga_real_close(rr->kernels[i]);
    free(rr->kernels);
    memset(rr, 0, sizeof *rr);
}
