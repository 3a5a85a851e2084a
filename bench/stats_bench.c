/* Cost of the statistics accumulator per input (not a test).
 *
 * Feeds ga_stats_add_batch chunks of 1024 consecutive float32 encodings, as a
 * sweep does, with a stand-in truth (double-precision GELU; a made-up tiny
 * exact value where the double underflows) and outputs mixed like a float32
 * erf-based GELU: mostly correctly rounded, some 1 ulp off, a few far off,
 * flushed or NaN, drawn input by input (the worst case of the batch path,
 * which does best on the stretches of one kind that a sweep has).  Prints
 * ns per input for that mix and for an all-correct one (thread CPU time,
 * best of 5).  Usage: stats_bench [chunks] [passes]. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "grade/stats.h"

enum { CHUNK = 1024 };

static uint64_t rng_state = 20250101;
static uint64_t rng(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double now(void)
{
    struct timespec ts;
    /* thread CPU time: the machine may be shared */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void stand_in_truth(const struct ga_format *f, ga_bits x, struct ga_truth *t)
{
    double xv = ga_decode(f, x);
    double v;
    int e = 0;

    if (isnan(xv)) {
        t->rounded = ga_quiet_nan(f);
        t->exact.mant = NAN;
        t->exact.exp = 0;
        return;
    }
    v = isinf(xv) ? (xv > 0 ? xv : -0.0) : 0.5 * xv * erfc(-xv * M_SQRT1_2);
    if (v == 0 && xv < 0 && !isinf(xv)) {
        /* below the doubles: log2 |gelu(x)| ~ -x^2 / (2 ln 2) */
        t->rounded = ga_zero(f, true);
        t->exact.mant = -0.6;
        t->exact.exp = xv < -1e6 ? GA_EXACT_EXP_MIN : (long)(-xv * xv * 0.7213475204444817);
        return;
    }
    t->rounded = ga_encode(f, v);
    t->exact.mant = isfinite(v) && v != 0 ? frexp(v, &e) : v;
    t->exact.exp = e;
}

static ga_bits mixed_output(const struct ga_format *f, const struct ga_truth *t, int all_correct)
{
    uint64_t r = rng() % 1000;
    if (all_correct || r < 850)
        return t->rounded;
    if (r < 990)
        return r % 2 ? ga_next_up(f, t->rounded) : ga_next_down(f, t->rounded);
    if (r < 995)
        return t->rounded + (ga_bits)(rng() % 64);
    if (r < 998)
        return ga_zero(f, false);
    return ga_quiet_nan(f);
}

int main(int argc, char **argv)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    size_t chunks = argc > 1 ? strtoul(argv[1], NULL, 0) : 64;
    int passes = argc > 2 ? atoi(argv[2]) : 50;
    size_t n = chunks * CHUNK;
    ga_bits *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    struct ga_truth *t = malloc(n * sizeof *t);
    struct ga_stats *s = ga_stats_new(f);

    if (!x || !y || !t || !s)
        return 1;
    printf("# %zu chunks of %d consecutive float32 inputs, %d passes, 1 thread, "
           "sizeof(struct ga_stats) = %zu bytes\n", chunks, CHUNK, passes, sizeof *s);
    for (int all_correct = 0; all_correct <= 1; all_correct++) {
        for (size_t c = 0; c < chunks; c++) {
            ga_bits start = (ga_bits)(rng() & 0xffffffffu) & ~(ga_bits)(CHUNK - 1);
            for (size_t i = 0; i < CHUNK; i++) {
                size_t k = c * CHUNK + i;
                x[k] = start + (ga_bits)i;
                stand_in_truth(f, x[k], &t[k]);
                y[k] = mixed_output(f, &t[k], all_correct);
            }
        }
        /* the best of 5 runs: interference only ever adds time */
        double dt = INFINITY;
        for (int run = 0; run < 5; run++) {
            ga_stats_init(s, f);
            double t0 = now();
            for (int p = 0; p < passes; p++)
                for (size_t c = 0; c < chunks; c++)
                    if (ga_stats_add_batch(s, x + c * CHUNK, y + c * CHUNK, t + c * CHUNK, CHUNK))
                        return 1;
            double t1 = now() - t0;
            dt = t1 < dt ? t1 : dt;
        }
        struct ga_summary all;
        ga_stats_summarize(s, GA_REGION_ALL, &all);
        printf("%-12s %.2f ns/input  (correctly rounded %.1f %%, max ulp %.3g, p99 %.3g)\n",
               all_correct ? "all-correct" : "mixed", 1e9 * dt / ((double)n * passes),
               100.0 * (double)all.correctly_rounded / (double)all.count, all.max_ulp.error,
               all.p99);
    }
    ga_stats_free(s);
    free(x);
    free(y);
    free(t);
    return 0;
}
