/* The golden next to the kernels it grades: nanoseconds per element of the
 * library's correctly rounded float32 GELU (gelu_acc_truth) and of the
 * libraries' own float32 GELU kernels, side by side in one run, one thread,
 * on the same cache-resident block (16 Ki inputs uniform in [-8, 8], 64 KiB
 * in and 64 KiB out, called 1024 times), so that allocation and the first
 * touch of fresh pages, which cost a fresh tensor more than its GELU, are
 * not counted.
 *
 * The libraries are reached through the real-library modules of src/real/
 * (the plugin ABI of <gelu-acc/kernel.h>), loaded here with dlopen in this
 * process: PyTorch's default float32 GELU (torch_erf, torch_tanh), oneDNN's
 * eltwise GELU (dnnl_erf, dnnl_tanh), SLEEF's vector erf and tanh GELU; a
 * module that is not built is named and skipped.  glibc's erff GELU is the
 * catalogue's formula, compiled here.  Goal (issue 30): the golden faster
 * than the erff kernel and within 4x of the fastest vectorized library.
 *
 * Usage: kernels_bench [MODULE_DIR] (default $GELU_ACC_REAL_DIR, else
 * src/real/.libs).  Run by 'make bench' (doc/speed.md). */
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gelu-acc/gelu-acc.h>

#include "bench/bench_common.h"

#define BLOCK 16384
#define REPEATS 1024

typedef void kernel_fn(const float *in, float *out, size_t n);

struct entry {
    const char *name;      /* as the pages name it */
    const char *module;    /* gelu_real_MODULE.so, or NULL: compiled here */
    const char *symbol;
    int vectorized;        /* a library's vector kernel, for the goal */
};

static const struct entry entries[] = {
    { "glibc erff GELU (the catalogue's erf)", NULL, "erf", 0 },
    { "PyTorch F.gelu (torch_erf)", "torch", "torch_erf_f32", 1 },
    { "PyTorch F.gelu tanh (torch_tanh)", "torch", "torch_tanh_f32", 1 },
    { "oneDNN eltwise gelu_erf (dnnl_erf)", "dnnl", "dnnl_erf_f32", 1 },
    { "oneDNN eltwise gelu_tanh (dnnl_tanh)", "dnnl", "dnnl_tanh_f32", 1 },
    { "SLEEF erff8_u10 GELU (sleef_erf_u10)", "sleef", "sleef_erf_u10_f32", 1 },
    { "SLEEF tanhf8_u10 GELU (sleef_tanh_u10)", "sleef", "sleef_tanh_u10_f32", 1 },
};
#define ENTRIES (sizeof entries / sizeof entries[0])

/* Nanoseconds per element of k on the block, after one call that warms it. */
static double time_kernel(kernel_fn *k, const float *x, float *y)
{
    double t;

    k(x, y, BLOCK);
    t = bench_now();
    for (int r = 0; r < REPEATS; r++)
        k(x, y, BLOCK);
    return (bench_now() - t) * 1e9 / ((double)BLOCK * REPEATS);
}

static int golden_status;
static gelu_acc_function golden_fn;

static void golden(const float *x, float *y, size_t n)
{
    if (gelu_acc_truth(golden_fn, GELU_ACC_FLOAT32, x, y, n) != GELU_ACC_OK)
        golden_status = 1;
}

static double time_golden(gelu_acc_function fn, const float *x, float *y)
{
    double ns;

    golden_fn = fn;
    ns = time_kernel(golden, x, y);
    if (golden_status) {
        fprintf(stderr, "kernels_bench: gelu_acc_truth failed: %s\n", gelu_acc_last_error());
        exit(1);
    }
    return ns;
}

/* The kernel of e, or NULL with *why filled. */
static kernel_fn *load(const struct entry *e, const char *dir, char *why, size_t size)
{
    char path[4096];
    void *handle;
    kernel_fn *k;

    if (!e->module)
        return bench_erf_kernel;
    snprintf(path, sizeof path, "%s/gelu_real_%s.so", dir, e->module);
    if (!(handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
        snprintf(why, size, "not here (%s)", dlerror());
        return NULL;
    }
    *(void **)&k = dlsym(handle, e->symbol);
    if (!k)
        snprintf(why, size, "not here (%s has no %s)", path, e->symbol);
    return k;  /* the module stays loaded until the process ends */
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("GELU_ACC_REAL_DIR");
    float *x = malloc(BLOCK * sizeof *x), *y = malloc(BLOCK * sizeof *y);
    double gold, gold_tanh, erff_ns = 0, fastest = INFINITY;
    const char *fastest_name = NULL;

    if (!x || !y) {
        fprintf(stderr, "kernels_bench: out of memory\n");
        return 1;
    }
    if (!dir || !*dir)
        dir = "src/real/.libs";
    bench_uniform_inputs(x, BLOCK);
    memset(y, 0, BLOCK * sizeof *y);
    gold = time_golden(GELU_ACC_GELU, x, y);
    gold_tanh = time_golden(GELU_ACC_GELU_TANH, x, y);
    printf("float32, one thread, %d inputs uniform in [-8, 8] called %d times "
           "(cache-resident), ns per element:\n", BLOCK, REPEATS);
    printf("  %-42s %8.2f\n", "golden gelu (gelu_acc_truth)", gold);
    printf("  %-42s %8.2f\n", "golden gelu_tanh (gelu_acc_truth)", gold_tanh);
    for (size_t i = 0; i < ENTRIES; i++) {
        const struct entry *e = &entries[i];
        char why[4400];
        kernel_fn *k = load(e, dir, why, sizeof why);
        double ns;

        if (!k) {
            printf("  %-42s %s\n", e->name, why);
            continue;
        }
        ns = time_kernel(k, x, y);
        printf("  %-42s %8.2f   (golden of its function / it: %.2fx)\n", e->name, ns,
               (strstr(e->symbol, "tanh") ? gold_tanh : gold) / ns);
        if (!e->module)
            erff_ns = ns;
        if (e->vectorized && ns < fastest) {
            fastest = ns;
            fastest_name = e->name;
        }
    }
    printf("goal: golden gelu faster than the erff kernel: %s (%.2fx)\n",
           gold < erff_ns ? "met" : "missed", gold / erff_ns);
    if (fastest_name)
        printf("goal: golden gelu within 4x of the fastest vectorized library, %s: %s (%.2fx)\n",
               fastest_name, gold <= 4 * fastest ? "met" : "missed", gold / fastest);
    else
        printf("goal: within 4x of the fastest vectorized library: no library module here\n");
    free(x);
    free(y);
    return 0;
}
