/* The fast oracle's paths side by side, one thread, on the same float32
 * inputs (not a test): ns/input of the scalar path, each vector path this
 * CPU has (gelu, gelu_tanh, then their derivatives), and the catalogue's erf kernel (glibc erff, as library_bench.c
 * writes it), with each path's ratio to the kernel and the share of inputs
 * its kernel leaves to the scalar path.  Inputs: 2^16 uniform in [-8, 8]
 * (where GELU needs real work), repeated 64 times on cache-resident
 * arrays; then every 256th encoding; last, the backward truth of 2^16
 * float32 pairs (x in [-8, 8], dy in [-4, 4]) per derivative and path.
 * Run by 'make bench' (doc/speed.md). */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "truth/fast_vec.h"
#include "truth/fast_vec_internal.h"

#define COUNT ((size_t)1 << 16)
#define REPEAT 64

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float xf[COUNT], yf[COUNT];
static ga_bits x[COUNT], y[COUNT];
static int8_t d[COUNT], d_dir[COUNT];

static double erf_kernel_ns(void)
{
    double t0 = now();
    for (int r = 0; r < REPEAT; r++) {
        for (size_t i = 0; i < COUNT; i++)
            yf[i] = xf[i] * 0.5f * (1 + erff(xf[i] * (float)M_SQRT1_2));
        __asm__ volatile("" : : "r"(yf) : "memory");
    }
    return (now() - t0) * 1e9 / (double)(COUNT * REPEAT);
}

static enum ga_function fn = GA_GELU;

static double path_ns(enum ga_vec_path p)
{
    double t0 = now();
    for (int r = 0; r < REPEAT; r++)
        ga_truth_f32_rounded(fn, p, x, y, d, COUNT);
    return (now() - t0) * 1e9 / (double)(COUNT * REPEAT);
}

/* The share of the inputs in the evaluated range (between the thresholds,
 * rounded inwards here) that the path's kernel leaves pending. */
static double pending(enum ga_vec_path p)
{
    size_t n = 0, m = 0;
    static const float lefts[] = { [GA_GELU] = -14.35f, [GA_GELU_TANH] = -10.77f,
                                   [GA_GELU_GRAD] = -14.0f, [GA_GELU_TANH_GRAD] = -10.5f };
    static const float rights[] = { [GA_GELU] = 5.34f, [GA_GELU_TANH] = 4.99f,
                                    [GA_GELU_GRAD] = 8.0f, [GA_GELU_TANH_GRAD] = 6.5f };
    float left = lefts[fn], right = rights[fn];
    bool avx2 = p == GA_VEC_AVX2;
    if (fn == GA_GELU)
        (avx2 ? ga_vec_gelu_avx2 : ga_vec_gelu_portable)(x, y, d, COUNT);
    else if (fn == GA_GELU_GRAD)
        (avx2 ? ga_vec_gelu_grad_avx2 : ga_vec_gelu_grad_portable)(x, y, d, COUNT);
    else if (fn == GA_GELU_TANH_GRAD)
        (avx2 ? ga_vec_gelu_tanh_grad_avx2 : ga_vec_gelu_tanh_grad_portable)(x, y, d, COUNT);
    else
        (avx2 ? ga_vec_gelu_tanh_avx2 : ga_vec_gelu_tanh_portable)(x, y, d, COUNT);
    for (size_t i = 0; i < COUNT; i++)
        if (xf[i] > left && xf[i] < right && fabsf(xf[i]) > 1e-7f) {
            m++;
            n += d[i] == GA_VEC_PENDING;
        }
    return m ? (double)n / (double)m : 0;
}

static void run(const char *label)
{
    double kernel = erf_kernel_ns();
    printf("%s %s\n  erf kernel (glibc erff)  %6.2f ns/input\n", ga_function_name(fn), label,
           kernel);
    for (int p = 0; p < GA_VEC_PATH_COUNT; p++) {
        double ns;
        if (!ga_vec_path_available(p)) {
            printf("  %-24s (this CPU lacks it)\n", ga_vec_path_name(p));
            continue;
        }
        ns = path_ns(p);
        printf("  oracle, %-15s  %6.2f ns/input  %5.2fx the kernel", ga_vec_path_name(p), ns,
               ns / kernel);
        if (p != GA_VEC_SCALAR)
            printf("  (kernel leaves %.4f%% of the evaluated to scalar)", 100 * pending(p));
        printf("\n");
    }
}

/* ns a pair of ga_backward_f32_rounded on the pairs (x[i], dy[i]): the
 * scalar path once (it asks MPFR for most x), the others 16 times. */
static void backward_pairs(const ga_bits *dy)
{
    static ga_bits dx[COUNT];

    for (int g = 0; g < 2; g++) {
        enum ga_function grad = g ? GA_GELU_TANH_GRAD : GA_GELU_GRAD;
        printf("backward truth of %s, float32, 2^16 pairs x in [-8, 8], dy in [-4, 4], "
               "one thread:\n", ga_function_name(grad));
        for (int p = 0; p < GA_VEC_PATH_COUNT; p++) {
            int repeat = p == GA_VEC_SCALAR ? 1 : 16;
            double t0;
            if (!ga_vec_path_available(p))
                continue;
            t0 = now();
            for (int r = 0; r < repeat; r++)
                ga_backward_f32_rounded(grad, p, x, dy, dx, d_dir, COUNT);
            printf("  %-15s %9.1f ns/pair\n", ga_vec_path_name(p),
                   (now() - t0) * 1e9 / (double)(COUNT * (size_t)repeat));
        }
    }
}

int main(void)
{
    uint64_t state = 0x9e3779b97f4a7c15u;

    for (size_t i = 0; i < COUNT; i++) {
        uint32_t b;
        state = state * 6364136223846793005u + 1442695040888963407u;
        xf[i] = (float)((double)(state >> 11) * 0x1p-53 * 16.0 - 8.0);
        memcpy(&b, &xf[i], sizeof b);
        x[i] = b;
    }
    run("float32, 2^16 inputs uniform in [-8, 8], 64 times, one thread:");
    fn = GA_GELU_TANH;
    run("float32, 2^16 inputs uniform in [-8, 8], 64 times, one thread:");
    fn = GA_GELU_GRAD;
    run("float32, 2^16 inputs uniform in [-8, 8], 64 times, one thread:");
    fn = GA_GELU_TANH_GRAD;
    run("float32, 2^16 inputs uniform in [-8, 8], 64 times, one thread:");
    fn = GA_GELU;
    for (size_t i = 0; i < COUNT; i++) {
        uint32_t b = (uint32_t)i << 16 | (uint32_t)(i * 40503u & 0xffff);
        memcpy(&xf[i], &b, sizeof b);
        x[i] = b;
    }
    run("float32, 2^16 encodings spread over all 2^32, 64 times, one thread:");
    fn = GA_GELU_TANH;
    run("float32, 2^16 encodings spread over all 2^32, 64 times, one thread:");
    fn = GA_GELU_GRAD;
    run("float32, 2^16 encodings spread over all 2^32, 64 times, one thread:");
    fn = GA_GELU_TANH_GRAD;
    run("float32, 2^16 encodings spread over all 2^32, 64 times, one thread:");
    for (size_t i = 0; i < COUNT; i++) {
        uint32_t b;
        float v;
        state = state * 6364136223846793005u + 1442695040888963407u;
        v = (float)((double)(state >> 11) * 0x1p-53 * 16.0 - 8.0);
        memcpy(&b, &v, sizeof b);
        x[i] = b;
        state = state * 6364136223846793005u + 1442695040888963407u;
        v = (float)((double)(state >> 11) * 0x1p-53 * 8.0 - 4.0);
        memcpy(&b, &v, sizeof b);
        y[i] = b;   /* dy */
    }
    backward_pairs(y);
    return 0;
}
