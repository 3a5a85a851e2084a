/* What one format of a report cost (gelu-acc report prints it after each
 * page, never into the pages, which stay byte-reproducible): the CPU time
 * of the process and of the worker processes it ran kernels in, and how
 * much of it the kernels under measure took themselves: the time inside
 * the in-process kernels (measure/kernel_clock.h) and all of the workers'
 * (they run nothing but the libraries and plugins they hold, with their
 * calling overhead: a one-element tensor, a thread pool's wait).  The
 * ratio of the two is the figure the speed targets weigh: a page costs so
 * many times its kernels' own evaluation. */
#ifndef GA_ENGINE_REPORT_COST_H
#define GA_ENGINE_REPORT_COST_H

#include <stdint.h>

struct ga_report_cost {
    double self_s;      /* this process's CPU time, user and system */
    double workers_s;   /* the worker processes' CPU time (those ended meanwhile) */
    double models_s;    /* time inside the in-process kernels, summed over threads */
};

/* The kernels' own time, and the total. */
static inline double ga_report_cost_kernels(const struct ga_report_cost *c)
{
    return c->models_s + c->workers_s;
}
static inline double ga_report_cost_cpu(const struct ga_report_cost *c)
{
    return c->self_s + c->workers_s;
}

/* The counters now: pass to ga_report_cost_since later. */
struct ga_report_cost ga_report_cost_mark(void);

/* What was spent since mark. */
struct ga_report_cost ga_report_cost_since(const struct ga_report_cost *mark);

#endif
