/* What the benchmarks that call the public library share: a monotonic
 * clock, the catalogue's erf kernel as written there (glibc erff, the
 * formula of PyTorch's CPU GELU), and a deterministic spread of inputs. */
#ifndef GA_BENCH_COMMON_H
#define GA_BENCH_COMMON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void bench_erf_kernel(const float *x, float *y, size_t n)
{
    for (size_t i = 0; i < n; i++)
        y[i] = x[i] * 0.5f * (1 + erff(x[i] * (float)M_SQRT1_2));
}

/* Uniform in [-8, 8], where GELU needs real work. */
static inline void bench_uniform_inputs(float *x, size_t n)
{
    uint64_t state = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        x[i] = (float)((double)(state >> 11) * 0x1p-53 * 16.0 - 8.0);
    }
}

#endif
