/* A report page's cost (report_cost.h). */
#include "engine/report_cost.h"

#include <sys/resource.h>

#include "measure/kernel_clock.h"

static double cpu_seconds(int who)
{
    struct rusage u;

    if (getrusage(who, &u) != 0)
        return 0;
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec
           + (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

struct ga_report_cost ga_report_cost_mark(void)
{
    return (struct ga_report_cost){ cpu_seconds(RUSAGE_SELF), cpu_seconds(RUSAGE_CHILDREN),
                                    1e-9 * (double)ga_kernel_clock_total() };
}

struct ga_report_cost ga_report_cost_since(const struct ga_report_cost *mark)
{
    struct ga_report_cost now = ga_report_cost_mark();

    return (struct ga_report_cost){ now.self_s - mark->self_s, now.workers_s - mark->workers_s,
                                    now.models_s - mark->models_s };
}
