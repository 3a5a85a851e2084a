/* The time spent inside the kernels under measure that run in this process
 * (the catalogue's models), summed over its threads: with the CPU time of
 * the worker processes, which run nothing but the libraries and plugins
 * they hold, the kernels' own evaluation that a report's cost weighs
 * (engine/report_cost.h).  Each place that calls an in-process kernel reads
 * the clock before the call and adds the time after it. */
#ifndef GA_KERNEL_CLOCK_H
#define GA_KERNEL_CLOCK_H

#include <stdint.h>

/* Now, in nanoseconds of the monotonic clock. */
uint64_t ga_kernel_clock_now(void);

/* Add the time since `start` (a ga_kernel_clock_now) to the total; from
 * any thread. */
void ga_kernel_clock_add(uint64_t start);

/* The total since the process started, in nanoseconds. */
uint64_t ga_kernel_clock_total(void);

#endif
