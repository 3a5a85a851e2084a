/* What the library's golden costs a unit test: gelu_acc_truth over 2^24
 * float32 inputs, one thread, next to the catalogue's erf kernel (glibc
 * erff, the formula of PyTorch's CPU GELU) on the same inputs; and the
 * rate of the 16-bit goldens, which are table lookups.  Uses only the
 * public header, as a test would.  Run by 'make bench' (doc/speed.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gelu-acc/gelu-acc.h>

#include "bench/bench_common.h"

#define COUNT ((size_t)1 << 24)

/* The other inputs (bench_uniform_inputs: uniform in [-8, 8], where GELU
 * needs real work): every 256th encoding, where most inputs are decided
 * by a threshold. */
static void encoding_inputs(float *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = (uint32_t)i << 8;
        memcpy(&x[i], &bits, sizeof bits);
    }
}

static int golden_ns(gelu_acc_format format, const void *x, void *y, size_t n, double *ns)
{
    double t0 = bench_now();
    if (gelu_acc_truth(GELU_ACC_GELU, format, x, y, n) != GELU_ACC_OK) {
        fprintf(stderr, "library_bench: %s\n", gelu_acc_last_error());
        return -1;
    }
    *ns = (bench_now() - t0) * 1e9 / (double)n;
    return 0;
}

static int float32_row(const char *what, const float *x, float *y)
{
    double golden, t0, kernel;
    volatile float sink;

    bench_erf_kernel(x, y, COUNT);  /* warm: pages and caches */
    t0 = bench_now();
    bench_erf_kernel(x, y, COUNT);
    kernel = (bench_now() - t0) * 1e9 / (double)COUNT;
    sink = y[COUNT / 2];
    (void)sink;
    if (golden_ns(GELU_ACC_FLOAT32, x, y, COUNT, &golden) != 0)
        return -1;
    printf("float32 %-26s golden %6.1f ns/elt   erf kernel %5.1f ns/elt   golden/kernel %.2fx\n",
           what, golden, kernel, golden / kernel);
    return 0;
}

int main(void)
{
    float *x = malloc(COUNT * sizeof *x), *y = malloc(COUNT * sizeof *y);
    uint16_t *h = malloc(COUNT * sizeof *h), *hy = malloc(COUNT * sizeof *hy);
    double ns;
    int status = 1;

    if (!x || !y || !h || !hy) {
        fprintf(stderr, "library_bench: out of memory\n");
        goto done;
    }
    printf("libgelu-acc %s, one thread, 2^24 inputs each\n", gelu_acc_version());
    bench_uniform_inputs(x, COUNT);
    if (float32_row("uniform in [-8, 8]", x, y) != 0)
        goto done;
    encoding_inputs(x, COUNT);
    if (float32_row("every 256th encoding", x, y) != 0)
        goto done;
    for (size_t i = 0; i < COUNT; i++)
        h[i] = (uint16_t)(i * 40503u);  /* every encoding, in a scattered order */
    memset(hy, 0, COUNT * sizeof *hy);  /* its pages mapped before the clock starts */
    /* the first call builds the table; the rate is that of later calls */
    if (golden_ns(GELU_ACC_BFLOAT16, h, hy, 1, &ns) != 0 || golden_ns(GELU_ACC_FLOAT16, h, hy, 1, &ns))
        goto done;
    if (golden_ns(GELU_ACC_BFLOAT16, h, hy, COUNT, &ns) != 0)
        goto done;
    printf("bfloat16 golden: %.2f ns/elt, %.0f M elements/s (target >= 200)\n", ns, 1e3 / ns);
    if (golden_ns(GELU_ACC_FLOAT16, h, hy, COUNT, &ns) != 0)
        goto done;
    printf("float16 golden:  %.2f ns/elt, %.0f M elements/s (target >= 200)\n", ns, 1e3 / ns);
    status = 0;
done:
    free(x);
    free(y);
    free(h);
    free(hy);
    return status;
}
