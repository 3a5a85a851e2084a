/* The kernels' time (kernel_clock.h). */
#include "measure/kernel_clock.h"

#include <time.h>

static uint64_t total_ns;

uint64_t ga_kernel_clock_now(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void ga_kernel_clock_add(uint64_t start)
{
    __atomic_fetch_add(&total_ns, ga_kernel_clock_now() - start, __ATOMIC_RELAXED);
}

uint64_t ga_kernel_clock_total(void)
{
    return __atomic_load_n(&total_ns, __ATOMIC_RELAXED);
}
