/* Speed of the fast oracle against the MPFR oracle on float32 (not a test).
 *
 *   truth_fast_bench [STRIDE [MPFR_EVERY]]   single thread; defaults 4096, 16
 *   truth_fast_bench --full                  all 2^32 inputs, OpenMP threads
 *
 * Per function, the derivatives included: (a) every STRIDE-th encoding: fast ns/input (batch calls),
 * MPFR ns/input on every MPFR_EVERY-th of those, their ratio, and how often
 * the fast paths leave an input to MPFR; (b) the same over a dense slice,
 * every 64th encoding in [-10, 10]; (c) the cost per region, weighted by the
 * region's share of the 2^32 encodings: the estimate of a full sweep (the
 * forward functions).
 * Times are the thread's CPU time.  --full times the whole sweep (wall
 * clock, all threads) and counts the fallbacks exactly. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "truth/fast.h"
#include "truth/fast_internal.h"

#define BATCH 4096

/* CPU time of the calling thread: other load on the machine does not count. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static ga_bits float_bits(float v)
{
    uint32_t b;  /* a float's 4 bytes: ga_bits is wider */
    memcpy(&b, &v, sizeof b);
    return b;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct sample { ga_bits *x; size_t n; };

/* Encodings from `first` in steps of `stride`, NaNs included (they are inputs too). */
static struct sample stride_sample(uint64_t first, uint64_t last, uint64_t stride)
{
    struct sample s;
    s.n = (size_t)((last - first) / stride + 1);
    s.x = malloc(s.n * sizeof *s.x);
    for (size_t i = 0; i < s.n; i++)
        s.x[i] = (ga_bits)(first + i * stride);
    return s;
}

/* Every `stride`-th float32 in [-10, 10]: negatives then positives. */
static struct sample slice_sample(uint64_t stride)
{
    ga_bits top = float_bits(10.0f);
    struct sample s;
    size_t k = 0;
    s.n = (size_t)(2 * (top / stride + 1));
    s.x = malloc(s.n * sizeof *s.x);
    for (uint64_t m = 0; m <= top; m += stride) {
        s.x[k++] = (ga_bits)m | 0x80000000u;
        s.x[k++] = (ga_bits)m;
    }
    s.n = k;
    return s;
}

static void measure(enum ga_function fn, const char *label, struct sample s, size_t mpfr_every)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    struct ga_truth *out = malloc(BATCH * sizeof *out);
    size_t fallbacks = 0, undecided = 0, mismatches = 0, n_mpfr = 0;
    double t0, fast_s, mpfr_s;

    t0 = now();
    for (size_t i = 0; i < s.n; i += BATCH) {
        size_t n = s.n - i < BATCH ? s.n - i : BATCH;
        undecided += ga_truth_fast_batch(fn, f, s.x + i, out, n);
    }
    fast_s = now() - t0;

    for (size_t i = 0; i < s.n; i++)
        fallbacks += !ga_truth_fast_only(fn, f, s.x[i], out);

    t0 = now();
    for (size_t i = 0; i < s.n; i += mpfr_every) {
        struct ga_truth m;
        if (ga_truth_mpfr(fn, f, s.x[i], &m) == GA_TRUTH_OK) {
            struct ga_truth q;
            ga_truth_fast(fn, f, s.x[i], &q);
            mismatches += !ga_same_encoding(f, q.rounded, m.rounded);
        }
        n_mpfr++;
    }
    mpfr_s = now() - t0;

    printf("%-9s %-22s n=%-9zu fast %7.2f ns/input  mpfr %9.0f ns/input (n=%zu)"
           "  ratio %7.0f  fallbacks %6.2f per 1e6  undecided %zu  mismatches %zu\n",
           ga_function_name(fn), label, s.n, 1e9 * fast_s / (double)s.n,
           1e9 * mpfr_s / (double)n_mpfr, n_mpfr,
           (mpfr_s / (double)n_mpfr) / (fast_s / (double)s.n),
           1e6 * (double)fallbacks / (double)s.n, undecided, mismatches);
    free(out);
}

/* The float32 encodings by region (specials aside), with the fast oracle's
 * cost in each on 2^16 evenly spread inputs; their sum estimates a full
 * single-threaded sweep. */
static void regions(enum ga_function fn)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, f);
    ga_bits switch_to_tail = float_bits(fn == GA_GELU ? -36.0f : -20.0f);
    ga_bits clamp = float_bits(fn == GA_GELU ? (float)-GA_FAST_GELU_VANISHING_FROM
                                             : (float)-GA_FAST_TANH_VANISHING_FROM);
    struct { const char *name; ga_bits first, last; } r[] = {
        { "tiny, x > 0", 1, th->tiny_pos },
        { "tiny, x < 0", 0x80000001u, th->tiny_neg },
        { "evaluated, x > 0", th->tiny_pos + 1, th->right - 1 },
        { "evaluated, x < 0", th->tiny_neg + 1, th->left - 1 },
        { "right, x < 40", th->right, float_bits(40.0f) - 1 },
        { "right, x >= 40", float_bits(40.0f), 0x7f7fffffu },
        { "left, double", th->left, switch_to_tail },
        { "left, far tail", switch_to_tail + 1, clamp - 1 },
        { "left, vanishing", clamp, 0xff7fffffu },
    };
    struct ga_truth *out = malloc((1 << 16) * sizeof *out);
    ga_bits *x = malloc((1 << 16) * sizeof *x);
    double total = 0;

    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        uint64_t count = (uint64_t)r[i].last - r[i].first + 1, n = count < (1 << 16) ? count : (1 << 16);
        double t0, ns;
        for (uint64_t k = 0; k < n; k++)
            x[k] = (ga_bits)(r[i].first + k * (count - 1) / (n > 1 ? n - 1 : 1));
        ga_truth_fast_batch(fn, f, x, out, (size_t)n);  /* warm: pages, caches, branches */
        t0 = now();
        for (int rep = 0; rep < 4; rep++)
            ga_truth_fast_batch(fn, f, x, out, (size_t)n);
        ns = 1e9 * (now() - t0) / (4.0 * (double)n);
        total += ns * 1e-9 * (double)count;
        printf("%-9s %-17s %10llu inputs (%5.2f %%)  %6.1f ns/input  %6.2f s\n",
               ga_function_name(fn), r[i].name, (unsigned long long)count,
               100.0 * (double)count / 4294967296.0, ns, ns * 1e-9 * (double)count);
    }
    printf("%-9s estimated full sweep, one thread: %.1f s = %.2f ns/input on average\n",
           ga_function_name(fn), total, 1e9 * total / 4294967296.0);
    free(out);
    free(x);
}

static void full_sweep(enum ga_function fn)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    uint64_t fallbacks = 0, undecided = 0;
    double t0 = wall();

#pragma omp parallel for schedule(dynamic, 1) reduction(+ : fallbacks, undecided)
    for (uint64_t block = 0; block < (1u << 20); block++) {
        ga_bits x[BATCH];
        struct ga_truth out[BATCH];
        for (int i = 0; i < BATCH; i++) {
            x[i] = (ga_bits)(block * BATCH + (uint64_t)i);
            fallbacks += !ga_truth_fast_only(fn, f, x[i], &out[i]);
        }
        undecided += ga_truth_fast_batch(fn, f, x, out, BATCH);
    }
    printf("%-9s all 2^32: %.1f s (fast paths run twice: the count, then the batch)"
           "  fallbacks %llu  undecided %llu\n", ga_function_name(fn), wall() - t0,
           (unsigned long long)fallbacks, (unsigned long long)undecided);
}

static void full_sweep_timed(enum ga_function fn)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    uint64_t undecided = 0;
    double t0 = wall();

#pragma omp parallel for schedule(dynamic, 1) reduction(+ : undecided)
    for (uint64_t block = 0; block < (1u << 20); block++) {
        ga_bits x[BATCH];
        struct ga_truth out[BATCH];
        for (int i = 0; i < BATCH; i++)
            x[i] = (ga_bits)(block * BATCH + (uint64_t)i);
        undecided += ga_truth_fast_batch(fn, f, x, out, BATCH);
    }
    printf("%-9s all 2^32 inputs, batch only: %.1f s  undecided %llu\n",
           ga_function_name(fn), wall() - t0, (unsigned long long)undecided);
}

int main(int argc, char **argv)
{
    uint64_t stride = 4096;
    size_t mpfr_every = 16;

    if (argc > 1 && strcmp(argv[1], "--full") == 0) {
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            full_sweep_timed(fn);
            full_sweep(fn);
        }
        return 0;
    }
    if (argc > 1)
        stride = strtoull(argv[1], NULL, 0);
    if (argc > 2)
        mpfr_every = strtoull(argv[2], NULL, 0);
    if (stride == 0 || mpfr_every == 0) {
        fprintf(stderr, "usage: truth_fast_bench [STRIDE [MPFR_EVERY]] | --full\n");
        return 2;
    }
    for (int fn = 0; fn < GA_ALL_FUNCTION_COUNT; fn++) {
        char label[64];
        struct sample a = stride_sample(0, 0xffffffffu, stride);
        struct sample b = slice_sample(64);
        if (ga_function_is_forward(fn))  /* the derivatives' regions have no table */
            regions(fn);
        snprintf(label, sizeof label, "every %llu-th", (unsigned long long)stride);
        measure(fn, label, a, mpfr_every);
        measure(fn, "every 64th in [-10,10]", b, mpfr_every * 16);
        free(a.x);
        free(b.x);
    }
    return 0;
}
