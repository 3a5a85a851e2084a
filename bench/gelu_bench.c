/* make bench: the five figures of the exhaustive float32 sweep, from one run
 * on the same inputs, and one of the exhaustive bfloat16 backward sweep.
 *   (a) wall time of the exhaustive float32 sweep of `erf` against exact
 *       GELU with all statistics (target <= 60 s on 2 cores);
 *   (b) time ratio MPFR-only oracle / fast oracle on every 4096th float32
 *       encoding (target >= 200x);
 *   (c) time ratio sweep / bare loop that only calls the kernel on the same
 *       inputs, with the same threads and chunks (target <= 1.5x, issue 30;
 *       the earlier target was 3x);
 *   (d) time ratio 1 thread / 2 threads on the sweep (target >= 1.8x);
 *   (e) as (c) with 1 thread: the overhead of truth and statistics
 *       alone, without the threads' scheduling (target <= 1.5x);
 *   (f) wall time of the exhaustive bfloat16 backward sweep of
 *       pytorch_gelu_backward over all 2^32 pairs (x, dy), every statistic,
 *       2 threads (target <= 60 s), and its ratio to the bare backward loop
 *       over the same pairs, chunks and threads (target <= 1.5x);
 *   (g) as (e) with the shape too (measure/shape.h), as `gelu-acc sweep`
 *       measures: its own cost, the kernel run again on -x included
 *       (target <= 2x).
 * GELU_ACC_BENCH_STRIDE=K runs (a), (c), (d) and (e) on every Kth encoding
 * instead of all 2^32, and (f) on every Kth x with every dy (for a quick
 * look; the published figures use 1). */
#include <omp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "impls/impl.h"
#include "measure/backward_sweep.h"
#include "measure/sweep.h"
#include "truth/fast.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

/* The sweep of (a) and (d): erf against exact GELU, every statistic (and
 * for (f) the shape). */
static double time_sweep(const struct ga_format *f, const struct ga_domain *d, int threads,
                         bool shape, uint64_t *correct)
{
    struct ga_measurement m = { .impl = ga_catalogue_find("erf"), .reference = GA_GELU,
                                .want_shape = shape };
    struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST, .threads = threads };
    struct ga_summary s;
    ga_bits undecided;
    double t = now();

    if (ga_sweep_run(f, d, &m, 1, &o, &undecided) != GA_SWEEP_OK) {
        fprintf(stderr, "bench: the sweep failed\n");
        exit(1);
    }
    ga_stats_summarize(m.stats, GA_REGION_ALL, &s);
    t = now() - t;
    *correct = s.correctly_rounded;
    ga_measurement_clear(&m);
    return t;
}

/* (f)'s pairs: pairs:all of bfloat16, every stride-th x with every dy. */
static void backward_pairs(long stride, struct ga_pairs *p)
{
    char err[256];

    if (ga_pairs_parse(p, "pairs:all", ga_format_get(GA_BFLOAT16), 0, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    p->x_stride = (unsigned)(stride < 65536 ? stride : 65536);
    p->size = (uint64_t)((65536 + p->x_stride - 1) / p->x_stride) << 16;
}

/* (f): the backward sweep of pytorch_gelu_backward over those pairs. */
static double time_backward(long stride, uint64_t *pairs, uint64_t *correct)
{
    struct ga_pairs p;
    struct ga_backward_stats st;
    char err[256];
    double t;

    backward_pairs(stride, &p);
    struct ga_backward_sweep s = { .name = "pytorch_gelu_backward",
                                   .impl = ga_backward_catalogue_find("pytorch_gelu_backward"),
                                   .reference = GA_GELU_GRAD, .pairs = &p, .threads = 2 };
    t = now();
    if (ga_backward_sweep_run(&s, &st, err, sizeof err) != 0) {
        fprintf(stderr, "bench: the backward sweep failed: %s\n", err);
        exit(1);
    }
    t = now() - t;
    *pairs = st.all.count;
    *correct = st.all.correct;
    ga_pairs_free(&p);
    return t;
}

/* (f)'s bare loop: the same pairs, chunks and threads, filling the pairs
 * and calling only the kernel. */
static double time_backward_bare(long stride)
{
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    const struct ga_backward_impl *impl = ga_backward_catalogue_find("pytorch_gelu_backward");
    struct ga_pairs p;
    uint64_t chunks, sink = 0;
    double t;

    backward_pairs(stride, &p);
    chunks = (p.size + GA_BACKWARD_CHUNK - 1) / GA_BACKWARD_CHUNK;
    t = now();
    omp_set_num_threads(2);
    #pragma omp parallel reduction(^:sink)
    {
        ga_bits *x = malloc(3 * GA_BACKWARD_CHUNK * sizeof *x);
        #pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            uint64_t start = c * GA_BACKWARD_CHUNK;
            size_t n = p.size - start < GA_BACKWARD_CHUNK ? (size_t)(p.size - start)
                                                          : GA_BACKWARD_CHUNK;
            if (!x || ga_pairs_fill(&p, start, n, x, x + GA_BACKWARD_CHUNK) != 0)
                continue;
            ga_backward_run(impl, f, x + GA_BACKWARD_CHUNK, x, x + 2 * GA_BACKWARD_CHUNK, n);
            sink ^= x[2 * GA_BACKWARD_CHUNK + n / 2];
        }
        free(x);
    }
    t = now() - t;
    ga_pairs_free(&p);
    if (sink == 0x12345678)  /* keeps the loop from being optimized away */
        puts("");
    return t;
}

/* (c): the same chunks and threads, calling only the kernel. */
static double time_bare_loop(const struct ga_format *f, const struct ga_domain *d, int threads)
{
    const struct ga_impl *impl = ga_catalogue_find("erf");
    uint64_t chunks = ga_sweep_chunk_count(d->size), sink = 0;
    double t = now();

    omp_set_num_threads(threads);
    #pragma omp parallel reduction(^:sink)
    {
        ga_bits x[GA_SWEEP_CHUNK], y[GA_SWEEP_CHUNK];
        struct ga_run_failure failure;
        #pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            uint64_t start = c * GA_SWEEP_CHUNK;
            size_t n = d->size - start < GA_SWEEP_CHUNK ? (size_t)(d->size - start) : GA_SWEEP_CHUNK;
            ga_domain_fill(d, start, n, x);
            impl->run(impl, f, x, y, n, &failure);
            sink ^= y[n / 2];
        }
    }
    t = now() - t;
    if (sink == 0x12345678)  /* keeps the loop from being optimized away */
        puts("");
    return t;
}

/* (b): per-input oracle time, single thread. */
static double time_oracle(enum ga_oracle oracle, const struct ga_format *f, const ga_bits *x,
                          size_t n)
{
    struct ga_truth *t = calloc(n, sizeof *t);  /* touched: no page faults in the timing */
    double start;

    if (oracle == GA_ORACLE_FAST)  /* warm the caches and the branch predictors */
        ga_truth_fast_batch(GA_GELU, f, x, t, n);
    start = now();
    if (oracle == GA_ORACLE_FAST)
        ga_truth_fast_batch(GA_GELU, f, x, t, n);
    else
        for (size_t i = 0; i < n; i++)
            ga_truth_mpfr(GA_GELU, f, x[i], &t[i]);
    start = now() - start;
    free(t);
    return start;
}

int main(void)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    const char *env = getenv("GELU_ACC_BENCH_STRIDE");
    long stride = env ? atol(env) : 1;
    char spec[64], err[256];
    struct ga_domain d, slice;
    ga_bits *x;
    size_t n;
    uint64_t c1, c2, pairs, pairs_correct;
    double sweep2, sweep1, bare, bare1, fast, mpfr, backward, backward_bare, shaped1;

    if (stride < 1)
        stride = 1;
    snprintf(spec, sizeof spec, stride == 1 ? "all" : "stride:%ld", stride);
    if (ga_domain_parse(&d, spec, f, err, sizeof err) != 0
        || ga_domain_parse(&slice, "stride:4096", f, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        return 1;
    }
    printf("gelu-acc benchmark: float32, domain %s (%llu inputs), %d threads available\n", spec,
           (unsigned long long)d.size, omp_get_num_procs());
    fflush(stdout);

    n = (size_t)slice.size;
    x = malloc(n * sizeof *x);
    ga_domain_fill(&slice, 0, n, x);
    fast = time_oracle(GA_ORACLE_FAST, f, x, n);
    mpfr = time_oracle(GA_ORACLE_MPFR, f, x, n);
    free(x);

    sweep2 = time_sweep(f, &d, 2, false, &c2);
    bare = time_bare_loop(f, &d, 2);
    sweep1 = time_sweep(f, &d, 1, false, &c1);
    bare1 = time_bare_loop(f, &d, 1);
    shaped1 = time_sweep(f, &d, 1, true, &c1);
    if (c1 != c2) {
        fprintf(stderr, "bench: 1 and 2 threads disagree\n");
        return 1;
    }

    printf("(a) exhaustive sweep of erf vs exact GELU, all statistics, 2 threads: %.1f s "
           "(%.1f ns per input per core; target <= 60 s)\n", sweep2, sweep2 * 2e9 / (double)d.size);
    printf("(b) MPFR oracle / fast oracle on every 4096th encoding: %.0fx "
           "(%.0f ns vs %.1f ns per input; target >= 200x)\n", mpfr / fast, mpfr * 1e9 / (double)n,
           fast * 1e9 / (double)n);
    printf("(c) sweep / bare kernel loop on the same inputs: %.2fx (%.1f s vs %.1f s; target <= 1.5x)\n",
           sweep2 / bare, sweep2, bare);
    printf("(d) 1 thread / 2 threads on the sweep: %.2fx (%.1f s vs %.1f s; target >= 1.8x)\n",
           sweep1 / sweep2, sweep1, sweep2);
    printf("(e) the same as (c) with 1 thread: %.2fx (%.1f s vs %.1f s; target <= 1.5x)\n",
           sweep1 / bare1, sweep1, bare1);
    fflush(stdout);
    backward = time_backward(stride, &pairs, &pairs_correct);
    backward_bare = time_backward_bare(stride);
    printf("(f) bfloat16 backward sweep of pytorch_gelu_backward, %llu pairs (x stride %ld), "
           "every statistic, 2 threads: %.1f s (%.1f ns per pair per core, %.2f %% correctly "
           "rounded; target <= 60 s for all 2^32); / its bare backward loop: %.2fx "
           "(%.1f s; target <= 1.5x)\n", (unsigned long long)pairs, stride, backward,
           backward * 2e9 / (double)pairs, 100.0 * (double)pairs_correct / (double)pairs,
           backward / backward_bare, backward_bare);
    printf("(g) the same as (e) with the shape (monotonicity, minimum, signs, the kernel on -x "
           "for the odd identity): %.2fx (%.1f s; the shape adds %.0f %%; target <= 2x)\n", shaped1 / bare1,
           shaped1, 100 * (shaped1 / sweep1 - 1));
    ga_domain_free(&d);
    ga_domain_free(&slice);
    return 0;
}
