/* Plugin kernels in worker processes.  The test plugins (tests/plugins/NAME.c)
 * are built as shared libraries by the build system; this test finds them
 * through GELU_ACC_PLUGIN_DIR (good.so, regressed.so, crashing.so,
 * hanging.so, future_abi.so, printing.so, exiting.so, overrun.so,
 * position.so, declared.so) and skips the tests that need them when it is
 * unset.  By hand:
 *     for p in good regressed crashing hanging future_abi printing exiting \
 *              overrun position declared; do
 *         gcc -shared -fPIC -Iinclude -o /tmp/io/$p.so tests/plugins/$p.c -lm; done
 *     GELU_ACC_PLUGIN_DIR=/tmp/io ./plugin_test
 *
 * Independent references: the same kernel called directly in this process
 * (so the transport is what is tested), and correctly rounded values of
 * gelu(x) = x Phi(x) computed with mpmath at 300 bits (gelu(1) = 0.841344746
 * 06854294859 -> 0x3f57625f).  Random inputs come from test_random.h (a
 * fixed seed, printed, overridable by GELU_ACC_SEED). */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_helpers.h"

#include <gelu-acc/kernel.h>

#include "formats/format.h"
#include "isolation/bisect.h"
#include "impls/impl.h"
#include "isolation/plugin.h"
#include "io/parse_count.h"
#include "domain/domain.h"
#include "measure/sweep.h"
#include "test_random.h"

static const struct ga_format *f32, *bf16;
static const char *plugin_dir;

static void need_plugins(void)
{
    if (plugin_dir == NULL)
        skip();   /* setup said why */
}

/* "DIR/lib.so:symbol" */
static const char *spec(const char *lib, const char *symbol)
{
    static char text[4][4096];
    static unsigned next;
    char *s = text[next++ % 4];
    snprintf(s, sizeof text[0], "%s/%s:%s", plugin_dir, lib, symbol);
    return s;
}

static struct ga_plugin *open_plugin(const char *lib, const char *symbol,
                                     const struct ga_format *f,
                                     const struct ga_plugin_options *opt)
{
    struct ga_plugin *p;
    struct ga_io_error err;

    if (ga_plugin_open(spec(lib, symbol), f, opt, &p, &err) != GA_IO_OK)
        fail_msg("%s", err.message);
    return p;
}

/* The kernel itself, loaded into this process. */
static void *direct(const char *lib, const char *symbol, void **handle)
{
    char path[4096];
    void *fn;

    snprintf(path, sizeof path, "%s/%s", plugin_dir, lib);
    *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(*handle);
    fn = dlsym(*handle, symbol);
    assert_non_null(fn);
    return fn;
}

/* Whether the library is loaded in this process (RTLD_NOLOAD loads
 * nothing). */
static bool loaded_here(const char *lib)
{
    char path[4096];
    void *handle;

    snprintf(path, sizeof path, "%s/%s", plugin_dir, lib);
    handle = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
    if (handle != NULL)
        dlclose(handle);
    return handle != NULL;
}

static void direct_f32(const char *lib, const char *symbol, const ga_bits *in, ga_bits *out,
                       size_t n)
{
    void *handle;
    gelu_acc_kernel_f32 *k = (gelu_acc_kernel_f32 *)direct(lib, symbol, &handle);
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);

    for (size_t i = 0; i < n; i++) {  /* the float's bits, right-aligned in a ga_bits */
        uint32_t b = (uint32_t)in[i];
        memcpy(&x[i], &b, sizeof b);
    }
    k(x, y, n);
    for (size_t i = 0; i < n; i++) {
        uint32_t b;
        memcpy(&b, &y[i], sizeof b);
        out[i] = b;
    }
    free(x);
    free(y);
    dlclose(handle);
}

static int run(struct ga_plugin *p, const struct ga_format *f, const ga_bits *in, ga_bits *out,
               size_t n, struct ga_run_failure *failure)
{
    const struct ga_impl *impl = ga_plugin_impl(p);
    return impl->run(impl, f, in, out, n, failure);
}

/* Workers reaped (no child of ours left, zombie or not) and no fd leaked. */
static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;
    assert_non_null(d);
    while (readdir(d) != NULL)
        n++;
    closedir(d);
    return n;
}

static void assert_no_children(void)
{
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- specs and loading ---- */

static void test_spec_errors(void **state)
{
    static const struct { const char *spec; const char *part; } bad[] = {
        { "", "empty plugin spec" },
        { "libfoo.so", "no ':' between the library and the symbol" },
        { "./libfoo.so:", "empty symbol after ':'" },
        { ":gelu", "empty library path before ':'" },
    };
    struct ga_plugin *p;
    struct ga_io_error err;
    char *path, *symbol;

    (void)state;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(ga_plugin_open(bad[i].spec, f32, NULL, &p, &err), GA_IO_BAD_SPEC);
        assert_null(p);
        assert_contains(err.message, bad[i].part);
        assert_contains(err.message, "path/to/lib.so:symbol");
    }
    /* The last ':' separates: a path may hold one. */
    assert_int_equal(ga_plugin_parse_spec("dir:x/lib.so:gelu_f32", &path, &symbol, NULL), GA_IO_OK);
    assert_string_equal(path, "dir:x/lib.so");
    assert_string_equal(symbol, "gelu_f32");
    free(path);
    free(symbol);

    assert_int_equal(ga_plugin_open("/nonexistent/lib.so:gelu", f32, NULL, &p, &err), GA_IO_LOAD);
    assert_contains(err.message, "cannot load /nonexistent/lib.so");
    assert_contains(err.message, "No such file");   /* dlerror's text */
    assert_int_equal(ga_plugin_open("nonexistent.so:gelu", f32, NULL, &p, &err), GA_IO_LOAD);
    assert_contains(err.message, "write ./name");
}

static void test_load_errors(void **state)
{
    struct ga_plugin_options opt;
    struct ga_plugin *p;
    struct ga_io_error err;

    (void)state;
    need_plugins();
    assert_int_equal(ga_plugin_open(spec("good.so", "no_such_kernel"), f32, NULL, &p, &err),
                     GA_IO_LOAD);
    assert_contains(err.message, "symbol 'no_such_kernel' not found");
    assert_contains(err.message, "good.so");
    assert_int_equal(ga_plugin_open(spec("future_abi.so", "future_gelu_f32"), f32, NULL, &p, &err),
                     GA_IO_LOAD);
    assert_contains(err.message, "built for kernel ABI 3; this gelu-acc loads ABI 1 to 2");
    ga_plugin_default_options(&opt);
    opt.timeout_s = 0;
    assert_int_equal(ga_plugin_open(spec("good.so", "good_gelu_f32"), f32, &opt, &p, &err),
                     GA_IO_RANGE);

    /* Variables are not kernels: the ABI tag, a table. */
    assert_int_equal(ga_plugin_open(spec("good.so", GELU_ACC_KERNEL_ABI_SYMBOL), f32, NULL, &p,
                                    &err), GA_IO_BAD_SPEC);
    assert_contains(err.message, "is a variable (a data symbol), not a function");
    assert_int_equal(ga_plugin_open(spec("declared.so", "declared_table"), f32, NULL, &p, &err),
                     GA_IO_BAD_SPEC);
    assert_contains(err.message, "'declared_table' in ");

    /* Declared formats: checked; undeclared: loaded, flagged. */
    assert_int_equal(ga_plugin_open(spec("declared.so", "declared_gelu_f32"), bf16, NULL, &p,
                                    &err), GA_IO_UNSUPPORTED);
    assert_contains(err.message, "kernel declared_gelu_f32 is declared float32, but was asked "
                    "for as bfloat16");
    assert_int_equal(ga_plugin_open(spec("declared.so", "declared_gelu_bf16"), f32, NULL, &p,
                                    &err), GA_IO_UNSUPPORTED);
    assert_contains(err.message, "declared bfloat16, but was asked for as float32");
    p = open_plugin("declared.so", "declared_gelu_bf16", bf16, NULL);
    assert_true(ga_plugin_format_declared(p));
    ga_plugin_close(p);
    p = open_plugin("good.so", "good_gelu_bf16", bf16, NULL);
    assert_false(ga_plugin_format_declared(p));
    ga_plugin_close(p);
}

static void test_parse_timeout(void **state)
{
    static const char *bad[] = { "", "0", "0.0", "-1", "+1", "1e3", "inf", "nan", "0x10",
                                 "1.", ".5", " 1", "1 ", "2s", "1e400", "86401" };
    double s = -1;

    (void)state;
    assert_int_equal(ga_parse_timeout("10", &s), 0);
    assert_true(s == 10.0);
    assert_int_equal(ga_parse_timeout("0.25", &s), 0);
    assert_true(s == 0.25);
    assert_int_equal(ga_parse_timeout("007.5", &s), 0);
    assert_true(s == 7.5);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        s = -1;
        if (ga_parse_timeout(bad[i], &s) == 0)
            fail_msg("timeout '%s' accepted as %g", bad[i], s);
    }
}

static void test_impl_fields(void **state)
{
    struct ga_plugin_options opt;
    struct ga_plugin *p;
    const struct ga_impl *impl;

    (void)state;
    need_plugins();
    ga_plugin_default_options(&opt);
    opt.approximates = GA_GELU_TANH;
    p = open_plugin("good.so", "good_gelu_f32", f32, &opt);
    impl = ga_plugin_impl(p);
    assert_string_equal(impl->name, spec("good.so", "good_gelu_f32"));
    assert_true(ga_impl_supports(impl, f32));
    assert_false(ga_impl_supports(impl, bf16));
    assert_int_equal(impl->approximates, GA_GELU_TANH);
    assert_contains(impl->models, "good_gelu_f32");
    ga_plugin_close(p);
    opt.name = "mine";
    p = open_plugin("good.so", "good_gelu_f32", f32, &opt);
    assert_string_equal(ga_plugin_impl(p)->name, "mine");
    ga_plugin_close(p);
}

/* ---- results ---- */

/* Correctly rounded gelu at a few points (mpmath, 300 bits). */
static void test_good_known_values(void **state)
{
    static const struct { ga_bits x, y; } known[] = {
        { 0x00000000, 0x00000000 },   /* gelu(+0) = +0 */
        { 0x80000000, 0x80000000 },   /* gelu(-0) = -0 */
        { 0x7f800000, 0x7f800000 },   /* gelu(+inf) = +inf */
        { 0xff800000, 0x80000000 },   /* gelu(-inf) = -0 */
        { 0x3f800000, 0x3f57625f },   /* gelu(1) = 0.84134474606854294859 */
        { 0xbf800000, 0xbe227686 },   /* gelu(-1) = -0.15865525393145705141 */
        { 0x40000000, 0x3ffa2d0c },   /* gelu(2) = 1.9544997361036415856 */
        { 0x3f000000, 0x3eb103af },   /* gelu(0.5) = 0.34573123063700655182 */
        { 0xc0400000, 0xbb84b34c },   /* gelu(-3) = -0.00404969409489028358 */
    };
    enum { N = sizeof known / sizeof known[0] };
    ga_bits in[N], out[N];
    struct ga_run_failure failure;
    struct ga_plugin *p;

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)
        in[i] = known[i].x;
    assert_false(loaded_here("good.so"));
    p = open_plugin("good.so", "good_gelu_f32", f32, NULL);
    assert_int_equal(run(p, f32, in, out, N, &failure), 0);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(out[i], known[i].y);
    /* checked and run, and never loaded in this process: the probe and the
     * workers loaded it */
    assert_false(loaded_here("good.so"));
    ga_plugin_close(p);
    assert_no_children();
}

/* Through the workers = called directly, bit for bit, for batches split
 * over several kernel calls. */
static void test_good_matches_direct(void **state)
{
    enum { N = 100000 };
    ga_bits *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    ga_bits *ref = malloc(N * sizeof *ref);
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;
    struct test_rng rng = test_rng(0);
    int fds = count_fds();

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)
        in[i] = test_rng_encoding(&rng, f32);
    direct_f32("good.so", "good_gelu_f32", in, ref, N);
    ga_plugin_default_options(&opt);
    opt.max_call = 4096;   /* 25 kernel calls per batch */
    p = open_plugin("good.so", "good_gelu_f32", f32, &opt);
    for (int repeat = 0; repeat < 3; repeat++) {
        memset(out, 0, N * sizeof *out);
        assert_int_equal(run(p, f32, in, out, N, &failure), 0);
        assert_memory_equal(out, ref, N * sizeof *out);
    }
    assert_int_equal(run(p, f32, in, out, 0, &failure), 0);
    ga_plugin_close(p);
    assert_int_equal(count_fds(), fds);
    assert_no_children();
    free(in);
    free(out);
    free(ref);
}

/* 16-bit kernels: every bfloat16 encoding. */
static void test_good_bfloat16(void **state)
{
    enum { N = 65536 };
    ga_bits *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    uint16_t *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    struct ga_run_failure failure;
    struct ga_plugin *p;
    void *handle;
    gelu_acc_kernel_bf16 *k;

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++) {
        in[i] = (ga_bits)i;
        x[i] = (uint16_t)i;
    }
    k = (gelu_acc_kernel_bf16 *)direct("good.so", "good_gelu_bf16", &handle);
    k(x, y, N);
    dlclose(handle);
    p = open_plugin("good.so", "good_gelu_bf16", bf16, NULL);
    assert_int_equal(run(p, bf16, in, out, N, &failure), 0);
    for (size_t i = 0; i < N; i++)
        assert_int_equal(out[i], y[i]);
    /* gelu(1) = 0.84134...: between 0x3f57 = 0.83984375 and 0x3f58 = 0.84375, nearer the first. */
    assert_int_equal(out[0x3f80], 0x3f57);
    /* The plugin is for bfloat16 only. */
    assert_int_equal(run(p, f32, in, out, 4, &failure), -1);
    assert_contains(failure.what, "the kernel is for bfloat16, not float32");
    ga_plugin_close(p);
    assert_no_children();
    free(in);
    free(out);
    free(x);
    free(y);
}

/* The regressed plugin differs from the good one at x = 1 only, by one ulp. */
static void test_regressed_one_ulp(void **state)
{
    enum { N = 4096 };
    ga_bits in[N], good[N], bad[N];
    struct ga_run_failure failure;
    struct ga_plugin *pg, *pr;
    struct test_rng rng = test_rng(1);
    size_t one = 1234, differ = 0;

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)   /* random floats in [-8, 8) */
        in[i] = float_bits((float)test_rng_between(&rng, -8.0, 8.0));
    in[one] = float_bits(1.0f);
    pg = open_plugin("good.so", "good_gelu_f32", f32, NULL);
    pr = open_plugin("regressed.so", "regressed_gelu_f32", f32, NULL);
    assert_int_equal(run(pg, f32, in, good, N, &failure), 0);
    assert_int_equal(run(pr, f32, in, bad, N, &failure), 0);
    for (size_t i = 0; i < N; i++)
        if (!ga_same_encoding(f32, good[i], bad[i])) {
            assert_int_equal(in[i], float_bits(1.0f));
            assert_int_equal(ga_distance(f32, good[i], bad[i]), 1);
            differ++;
        }
    assert_int_equal(differ, 1);
    assert_int_equal(bad[one], 0x3f576260);
    ga_plugin_close(pg);
    ga_plugin_close(pr);
    assert_no_children();
}

/* ---- crashes and hangs ---- */

static bool crashes(ga_bits x)   /* crashing.c: x in [2, 3) */
{
    uint32_t b = (uint32_t)x;
    float v;
    memcpy(&v, &b, sizeof v);
    return v >= 2.0f && v < 3.0f;
}

/* The spans of a crash in [first, last]: in order, each from a crashing
 * input to a crashing input, with a safe input between two spans, and
 * covering every crashing input.  When no two crashing inputs are next to
 * each other the spans are exactly the crashing inputs, the last span
 * allowed taking the rest. */
static void check_spans(const struct ga_run_failure *failure, const ga_bits *in, size_t first,
                        size_t last)
{
    size_t k = 0, count = failure->span_count, crashing = 0;
    bool adjacent = false;

    assert_true(count >= 1 && count <= GA_RUN_SPANS);
    assert_int_equal(failure->span[0].first, first);
    assert_int_equal(failure->span[count - 1].last, last);
    for (size_t s = 0; s < count; s++) {
        assert_true(crashes(in[failure->span[s].first]) && crashes(in[failure->span[s].last]));
        assert_true(failure->span[s].first <= failure->span[s].last);
        if (s > 0)
            assert_true(failure->span[s].first > failure->span[s - 1].last + 1);
    }
    for (size_t i = first; i <= last; i++) {
        adjacent |= i > first && crashes(in[i]) && crashes(in[i - 1]);
        if (!crashes(in[i]))
            continue;
        crashing++;
        while (failure->span[k].last < i)
            k++;
        assert_true(failure->span[k].first <= i);
    }
    if (adjacent)
        return;
    assert_int_equal(count, crashing < GA_RUN_SPANS ? crashing : GA_RUN_SPANS);
    k = 0;
    for (size_t i = first; i <= last && k < count; i++) {
        if (!crashes(in[i]))
            continue;
        assert_int_equal(failure->span[k].first, i);
        if (k + 1 < count)   /* the last span runs to `last` */
            assert_int_equal(failure->span[k].last, i);
        k++;
    }
    assert_int_equal(k, count);
}

static void test_crash_reported(void **state)
{
    enum { N = 17 };
    ga_bits in[N], out[N], ref[N];
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;
    int fds = count_fds();

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)   /* 0, 0.25, ..., 4: [2, 3) is indices 8..11 */
        in[i] = float_bits(0.25f * (float)i);
    p = open_plugin("crashing.so", "crashing_gelu_f32", f32, NULL);
    assert_int_equal(run(p, f32, in, out, N, &failure), -1);
    assert_int_equal(failure.first, 8);
    assert_int_equal(failure.last, 11);
    assert_contains(failure.what, "killed by signal 11 (Segmentation fault)");

    /* The next batch runs in a fresh worker. */
    assert_int_equal(run(p, f32, in, out, 8, &failure), 0);
    direct_f32("good.so", "good_gelu_f32", in, ref, 8);
    assert_memory_equal(out, ref, 8 * sizeof *out);
    assert_int_equal(run(p, f32, in + 12, out, 5, &failure), 0);

    /* Failing inputs not next to each other: two spans, from the first to
     * the last failing input. */
    {
        ga_bits mixed[6] = { float_bits(1.0f), float_bits(2.5f), float_bits(0.0f),
                             float_bits(-2.5f), float_bits(2.0f), float_bits(3.0f) };
        assert_int_equal(run(p, f32, mixed, out, 6, &failure), -1);
        assert_int_equal(failure.first, 1);
        assert_int_equal(failure.last, 4);
        assert_int_equal(failure.span_count, 2);
        assert_int_equal(failure.span[0].first, 1);
        assert_int_equal(failure.span[0].last, 1);
        assert_int_equal(failure.span[1].first, 4);
        assert_int_equal(failure.span[1].last, 4);
    }
    ga_plugin_close(p);

    /* Without narrowing: the whole kernel call; with small calls, the call
     * that failed, as indices into the batch. */
    ga_plugin_default_options(&opt);
    opt.narrow = false;
    opt.max_call = 5;
    p = open_plugin("crashing.so", "crashing_gelu_f32", f32, &opt);
    assert_int_equal(run(p, f32, in, out, N, &failure), -1);
    assert_int_equal(failure.first, 5);
    assert_int_equal(failure.last, 9);
    ga_plugin_close(p);
    assert_int_equal(count_fds(), fds);
    assert_no_children();
}

/* Random batches: the reported span is exactly from the first to the last
 * input in [2, 3), whatever the batch and kernel-call sizes. */
static void test_crash_random(void **state)
{
    enum { N = 3000 };
    ga_bits in[N], out[N];
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;
    struct test_rng rng = test_rng(0xc4a54);

    (void)state;
    need_plugins();
    ga_plugin_default_options(&opt);
    opt.max_call = 1024;
    p = open_plugin("crashing.so", "crashing_gelu_f32", f32, &opt);
    for (int trial = 0; trial < 8; trial++) {
        size_t n = 1 + test_rng_below(&rng, N), first = SIZE_MAX, last = 0, call;
        /* Mostly safe inputs in [-4, 2); a few crashing ones. */
        for (size_t i = 0; i < n; i++) {
            double u = test_rng_uniform(&rng);
            in[i] = float_bits((float)(test_rng_below(&rng, 200) == 0 ? 2.0 + u : -4.0 + 6.0 * u));
        }
        for (size_t i = 0; i < n; i++)
            if (crashes(in[i])) {
                if (first == SIZE_MAX)
                    first = i;
                last = i;
            }
        if (first == SIZE_MAX) {
            assert_int_equal(run(p, f32, in, out, n, &failure), 0);
            continue;
        }
        /* Only the first failing kernel call is reported. */
        call = first / opt.max_call;
        last = first;
        for (size_t i = first; i < n && i / opt.max_call == call; i++)
            if (crashes(in[i]))
                last = i;
        assert_int_equal(run(p, f32, in, out, n, &failure), -1);
        assert_int_equal(failure.first, first);
        assert_int_equal(failure.last, last);
        check_spans(&failure, in, first, last);
    }
    ga_plugin_close(p);
    assert_no_children();
}

static void test_hang_times_out(void **state)
{
    enum { N = 8 };
    ga_bits in[N], out[N], ref[N];
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;
    double start;

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)   /* 0, 0.3, ..., 2.1; 1.5f at index 5 */
        in[i] = float_bits(0.3f * (float)i);
    in[5] = float_bits(1.5f);
    ga_plugin_default_options(&opt);
    opt.timeout_s = 1.0;
    opt.narrow_timeout_s = 0.2;
    p = open_plugin("hanging.so", "hanging_gelu_f32", f32, &opt);
    start = now_s();
    assert_int_equal(run(p, f32, in, out, N, &failure), -1);
    /* The call times out (1 s), then bisection probes [0,4) [4,6) [4,5) [5]:
     * two of them hang, 0.2 s each: about 1.4 s; 3 s or more had the probes
     * used the full timeout. */
    assert_true(now_s() - start < 2.8);
    assert_int_equal(failure.first, 5);
    assert_int_equal(failure.last, 5);
    assert_contains(failure.what, "timed out after 1 s");
    /* The run goes on. */
    assert_int_equal(run(p, f32, in, out, 5, &failure), 0);
    direct_f32("good.so", "good_gelu_f32", in, ref, 5);
    assert_memory_equal(out, ref, 5 * sizeof *out);
    ga_plugin_close(p);
    assert_no_children();
}

/* ---- containment ---- */

/* Stores past the end hit the guard page for every n, including a call that
 * fills the worker's arrays; the report names the element. */
static void test_guard_pages(void **state)
{
    static const size_t sizes[] = { 1, 2, 3, 1023, 1024, 4096 };
    ga_bits *in = malloc(4096 * sizeof *in), *out = malloc(4096 * sizeof *out);
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;

    (void)state;
    need_plugins();
    for (size_t i = 0; i < 4096; i++)
        in[i] = float_bits(0.001f * (float)i);
    ga_plugin_default_options(&opt);
    opt.max_call = 1024;   /* 4096: several calls, the first one full */
    p = open_plugin("overrun.so", "overrun_gelu_f32", f32, &opt);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        assert_int_equal(run(p, f32, in, out, n, &failure), -1);
        assert_contains(failure.what, "killed by signal 11 (Segmentation fault) touching "
                        "out[n + 0], past the end of its output array");
        assert_int_equal(failure.first, 0);
        assert_int_equal(failure.last, (n < opt.max_call ? n : opt.max_call) - 1);
    }
    ga_plugin_close(p);

    /* A store past the end on some inputs only: narrowed like a crash, to
     * the first and last input in [2, 3) (indices 8..11 of 0, 0.25, ..., 4). */
    p = open_plugin("overrun.so", "overrun_some_gelu_f32", f32, NULL);
    for (size_t i = 0; i < 17; i++)
        in[i] = float_bits(0.25f * (float)i);
    assert_int_equal(run(p, f32, in, out, 17, &failure), -1);
    assert_contains(failure.what, "touching out[n + 0], past the end of its output array");
    assert_null(strstr(failure.what, "one element too"));
    assert_int_equal(failure.first, 8);
    assert_int_equal(failure.last, 11);
    ga_plugin_close(p);

    /* A float32 kernel given bfloat16 arrays reads past in first: at in[n]
     * (byte 2n) for an even n. */
    p = open_plugin("good.so", "good_gelu_f32", bf16, NULL);
    for (size_t i = 0; i < 4096; i++)
        in[i] = 0x3f80;
    assert_int_equal(run(p, bf16, in, out, 4096, &failure), -1);
    assert_contains(failure.what, "touching in[n + 0], past the end of its input array");
    ga_plugin_close(p);
    assert_no_children();
    free(in);
    free(out);
}

/* The position plugin's last n % 4 outputs of a call are one ulp high: with
 * batches of 4096 only the re-runs see it.  The input reported must really
 * give two outputs, by direct calls. */
static void test_position_check(void **state)
{
    enum { N = 4096 };
    ga_bits *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    ga_bits *whole = malloc(N * sizeof *whole), alone;
    struct ga_plugin_options opt;
    struct ga_run_failure failure;
    struct ga_plugin *p;
    struct test_rng rng = test_rng(0x90);

    (void)state;
    need_plugins();
    for (size_t i = 0; i < N; i++)
        in[i] = float_bits((float)test_rng_between(&rng, -4.0, 4.0));
    p = open_plugin("position.so", "position_gelu_f32", f32, NULL);
    assert_int_equal(run(p, f32, in, out, N, &failure), -1);
    assert_contains(failure.what, "depends on its position in the batch");
    assert_int_equal(failure.first, failure.last);
    assert_true(failure.first < N);
    direct_f32("position.so", "position_gelu_f32", in, whole, N);
    direct_f32("position.so", "position_gelu_f32", &in[failure.first], &alone, 1);
    assert_false(ga_same_encoding(f32, whole[failure.first], alone));
    ga_plugin_close(p);

    /* Without the check the batch passes: the check is what catches it. */
    ga_plugin_default_options(&opt);
    opt.check_position = false;
    p = open_plugin("position.so", "position_gelu_f32", f32, &opt);
    assert_int_equal(run(p, f32, in, out, N, &failure), 0);
    assert_memory_equal(out, whole, N * sizeof *out);
    ga_plugin_close(p);
    assert_no_children();
    free(in);
    free(out);
    free(whole);
}

/* Read a whole small file into text (NUL-terminated). */
static void slurp(int fd, char *text, size_t size)
{
    ssize_t got = pread(fd, text, size - 1, 0);
    assert_true(got >= 0);
    text[got] = '\0';
}

/* What this process had buffered on stdout is written once, by us: a kernel
 * that exits does not flush our buffer again, and a kernel's prints go to
 * stderr. */
static void test_stdio_contained(void **state)
{
    ga_bits in[3] = { float_bits(1.0f), float_bits(2.5f), float_bits(0.5f) }, out[3];
    struct ga_run_failure failure;
    struct ga_plugin *p;
    char path_out[] = "/tmp/plugin_test_stdout_XXXXXX";
    char path_err[] = "/tmp/plugin_test_stderr_XXXXXX";
    char text[4096], errors[4096];
    int fd_out, fd_err, saved_out, saved_err, rc_exit, rc_print;

    (void)state;
    need_plugins();
    fd_out = mkstemp(path_out);
    fd_err = mkstemp(path_err);
    assert_true(fd_out >= 0 && fd_err >= 0);
    fflush(stdout);
    fflush(stderr);
    saved_out = dup(STDOUT_FILENO);
    saved_err = dup(STDERR_FILENO);
    dup2(fd_out, STDOUT_FILENO);
    dup2(fd_err, STDERR_FILENO);

    fputs("buffered before the workers", stdout);   /* no newline: stays in the buffer */
    p = open_plugin("exiting.so", "exiting_gelu_f32", f32, NULL);
    rc_exit = run(p, f32, in, out, 3, &failure);
    ga_plugin_close(p);
    p = open_plugin("printing.so", "printing_gelu_f32", f32, NULL);
    rc_print = run(p, f32, in, out, 3, &failure);
    ga_plugin_close(p);

    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    slurp(fd_out, text, sizeof text);
    slurp(fd_err, errors, sizeof errors);
    close(fd_out);
    close(fd_err);
    unlink(path_out);
    unlink(path_err);

    assert_int_equal(rc_exit, -1);
    assert_int_equal(rc_print, 0);
    assert_string_equal(text, "buffered before the workers");
    assert_contains(errors, "printing_gelu_f32: a call of ");
    assert_no_children();
}

/* ---- threads ---- */

/* Two OpenMP threads share one plugin: one keeps crashing it, the other's
 * batches are all answered correctly; then both run good batches. */
static void test_two_threads(void **state)
{
    enum { N = 2000, ROUNDS = 20 };
    ga_bits *in = malloc(2 * N * sizeof *in), *ref = malloc(2 * N * sizeof *ref);
    struct ga_plugin *crashing, *good;
    struct test_rng rng = test_rng(2);
    int failures[2] = { 0, 0 }, fds = count_fds();

    (void)state;
    need_plugins();
    for (size_t i = 0; i < 2 * N; i++) {   /* inputs in [-4, 2), safe for crashing.so */
        in[i] = float_bits((float)test_rng_between(&rng, -4.0, 2.0));
    }
    direct_f32("good.so", "good_gelu_f32", in, ref, 2 * N);
    crashing = open_plugin("crashing.so", "crashing_gelu_f32", f32, NULL);
    good = open_plugin("good.so", "good_gelu_f32", f32, NULL);

    #pragma omp parallel num_threads(2)
    {
        int t = omp_get_thread_num();
        ga_bits *mine = malloc(N * sizeof *mine), *out = malloc(N * sizeof *out);
        struct ga_run_failure failure;

        memcpy(mine, in + (size_t)t * N, N * sizeof *mine);
        if (t == 0)
            mine[777] = float_bits(2.5f);   /* thread 0 crashes at index 777 */
        for (int r = 0; r < ROUNDS; r++) {
            int rc = run(crashing, f32, mine, out, N, &failure);
            if (t == 0 && !(rc == -1 && failure.first == 777 && failure.last == 777))
                failures[t]++;
            if (t == 1 && (rc != 0 || memcmp(out, ref + N, N * sizeof *out) != 0))
                failures[t]++;
            rc = run(good, f32, in + (size_t)t * N, out, N, &failure);
            if (rc != 0 || memcmp(out, ref + (size_t)t * N, N * sizeof *out) != 0)
                failures[t]++;
        }
        free(mine);
        free(out);
    }
    assert_int_equal(failures[0], 0);
    assert_int_equal(failures[1], 0);
    ga_plugin_close(crashing);
    ga_plugin_close(good);
    assert_int_equal(count_fds(), fds);
    assert_no_children();
    free(in);
    free(ref);
}

/* ---- bisection logic, with a fake kernel ---- */

struct fake {
    const bool *fails;   /* per input */
    int probes;
    bool stateful;       /* fails only on ranges of 3 or more */
};

static enum ga_probe_result fake_probe(void *ctx, size_t first, size_t count)
{
    struct fake *f = ctx;
    f->probes++;
    if (f->stateful)
        return count >= 3 ? GA_PROBE_FAIL : GA_PROBE_PASS;
    for (size_t i = first; i < first + count; i++)
        if (f->fails[i])
            return GA_PROBE_FAIL;
    return GA_PROBE_PASS;
}

static int ceil_log2(size_t n)
{
    int k = 0;
    while (((size_t)1 << k) < n)
        k++;
    return k;
}

/* Every n up to 80 and every pair of failing inputs a <= b: first and last
 * found, within the probe bounds of narrow.h. */
static void test_narrow_logic(void **state)
{
    bool fails[80];

    (void)state;
    for (size_t n = 1; n <= 80; n++)
        for (size_t a = 0; a < n; a++)
            for (size_t b = a; b < n; b++) {
                struct fake f = { .fails = fails };
                size_t first = SIZE_MAX, last = SIZE_MAX;
                memset(fails, 0, sizeof fails);
                fails[a] = fails[b] = true;
                assert_true(ga_bisect_first(fake_probe, &f, n, &first));
                assert_int_equal(first, a);
                assert_true(f.probes <= ceil_log2(n) + 1);
                f.probes = 0;
                assert_true(ga_bisect_last(fake_probe, &f, first, n, &last));
                assert_int_equal(last, b);
                assert_true(f.probes <= ceil_log2(n - first));
            }
    /* A kernel whose failure needs the company of other inputs. */
    {
        struct fake f = { .fails = fails, .stateful = true };
        size_t first;
        assert_false(ga_bisect_first(fake_probe, &f, 64, &first));
    }
}

static int setup(void **state)
{
    (void)state;
    f32 = ga_format_get(GA_FLOAT32);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    plugin_dir = getenv("GELU_ACC_PLUGIN_DIR");
    if (plugin_dir == NULL || plugin_dir[0] == '\0') {
        plugin_dir = NULL;
        printf("# GELU_ACC_PLUGIN_DIR is unset: the tests that load plugins are skipped "
               "(build tests/plugins/NAME.c as DIR/NAME.so and set it to DIR)\n");
    }
    return 0;
}

/* Batches in one round trip (ga_plugin_run_many) give what run() gives
 * each: the outputs of the kernel called directly, and a batch that crashes
 * or breaks the position contract reported as run() reports it alone, the
 * batches around it measured. */
static void test_run_many(void **state)
{
    enum { B = 6, N = 4096 };
    static const size_t sizes[B] = { 17, 0, 1, N, 300, 8 };
    ga_bits *in[B], *out[B], *ref = malloc(N * sizeof *ref);
    size_t n[B];
    int status[B];
    struct ga_run_failure failure[B];
    struct ga_plugin *p;
    struct test_rng rng = test_rng(0x3a7);
    int fds = count_fds();

    (void)state;
    need_plugins();
    assert_non_null(ref);
    for (size_t k = 0; k < B; k++) {
        n[k] = sizes[k];
        in[k] = malloc(N * sizeof *in[k]);
        out[k] = malloc(N * sizeof *out[k]);
        assert_true(in[k] && out[k]);
        for (size_t i = 0; i < N; i++)   /* [-4, 2): where crashing.so computes */
            in[k][i] = float_bits((float)test_rng_between(&rng, -4.0, 2.0));
    }
    p = open_plugin("good.so", "good_gelu_f32", f32, NULL);
    assert_true(ga_plugin_runs_many(ga_plugin_impl(p)));
    assert_true(ga_plugin_run_many(ga_plugin_impl(p), f32, (const ga_bits *const *)in, out, n,
                                   B, status, failure));   /* in one round trip */
    for (size_t k = 0; k < B; k++) {
        assert_int_equal(status[k], 0);
        direct_f32("good.so", "good_gelu_f32", in[k], ref, n[k]);
        assert_memory_equal(out[k], ref, n[k] * sizeof *ref);
    }
    ga_plugin_close(p);

    /* Batch 4 crashes at its input 123, batch 0 at 5 and 6. */
    in[4][123] = float_bits(2.5f);
    in[0][5] = float_bits(2.25f);
    in[0][6] = float_bits(2.75f);
    p = open_plugin("crashing.so", "crashing_gelu_f32", f32, NULL);
    assert_false(ga_plugin_run_many(ga_plugin_impl(p), f32, (const ga_bits *const *)in, out, n,
                                    B, status, failure));   /* again one by one */
    for (size_t k = 0; k < B; k++) {
        if (k == 0 || k == 4) {
            assert_int_equal(status[k], -1);
            assert_contains(failure[k].what, "killed by signal 11 (Segmentation fault)");
            assert_int_equal(failure[k].first, k == 0 ? 5 : 123);
            assert_int_equal(failure[k].last, k == 0 ? 6 : 123);
            continue;
        }
        assert_int_equal(status[k], 0);
        direct_f32("good.so", "good_gelu_f32", in[k], ref, n[k]);
        assert_memory_equal(out[k], ref, n[k] * sizeof *ref);
    }
    ga_plugin_close(p);

    /* A kernel whose outputs depend on their position: caught in the
     * batch of 4096, as run() catches it (test_position_check). */
    p = open_plugin("position.so", "position_gelu_f32", f32, NULL);
    assert_false(ga_plugin_run_many(ga_plugin_impl(p), f32, (const ga_bits *const *)in, out, n,
                                    B, status, failure));
    assert_int_equal(status[3], -1);
    assert_contains(failure[3].what, "depends on its position in the batch");
    ga_plugin_close(p);
    assert_no_children();
    assert_int_equal(count_fds(), fds);
    for (size_t k = 0; k < B; k++) {
        free(in[k]);
        free(out[k]);
    }
    free(ref);
}

/* A sweep with worker kernels takes 16 chunks per round trip (and one on
 * their mirrors for the odd identity), and runs a kernel measured against
 * both references once per chunk: each measurement must come out as a
 * sweep of it alone, chunk by chunk (a failure cap that never stops it
 * keeps the sweep to one chunk at a time), failures and shape included.
 * The domain has 256 chunks; crashing.so fails in [2, 3), its negative
 * kernel in (-3, -2], so on the mirrors of [2, 3). */
static void test_sweep_groups(void **state)
{
    enum { M = 6 };
    struct ga_plugin *good, *crashing, *crashing_negative;
    struct ga_measurement m[M];
    struct ga_domain d;
    char err[256];
    ga_bits where;
    struct ga_sweep_options grouped = { .oracle = GA_ORACLE_FAST, .threads = 2 };
    struct ga_sweep_options alone = { .oracle = GA_ORACLE_FAST, .threads = 1,
                                      .max_failures = (uint64_t)1 << 40 };

    (void)state;
    need_plugins();
    good = open_plugin("good.so", "good_gelu_f32", f32, NULL);
    crashing = open_plugin("crashing.so", "crashing_gelu_f32", f32, NULL);
    crashing_negative = open_plugin("crashing.so", "crashing_negative_gelu_f32", f32, NULL);
    assert_int_equal(ga_domain_parse(&d, "stride:4096", f32, err, sizeof err), 0);
    m[0] = (struct ga_measurement){ .impl = ga_plugin_impl(good), .reference = GA_GELU };
    m[1] = (struct ga_measurement){ .impl = ga_plugin_impl(good), .reference = GA_GELU_TANH };
    m[2] = (struct ga_measurement){ .impl = ga_plugin_impl(crashing), .reference = GA_GELU };
    m[3] = (struct ga_measurement){ .impl = ga_catalogue_find("tanh"), .reference = GA_GELU };
    m[4] = (struct ga_measurement){ .impl = ga_catalogue_find("tanh"),
                                    .reference = GA_GELU_TANH };
    m[5] = (struct ga_measurement){ .impl = ga_plugin_impl(crashing_negative),
                                    .reference = GA_GELU };
    for (size_t j = 0; j < M; j++)
        m[j].want_shape = true;
    assert_int_equal(ga_sweep_run(f32, &d, m, M, &grouped, &where), GA_SWEEP_OK);
    assert_true(m[2].failed && m[2].failed_batches > 0);
    /* its runs on -x failed where x is in [2, 3): those x are not paired */
    assert_true(m[5].shape->odd_pairs < m[0].shape->odd_pairs);
    for (size_t j = 0; j < M; j++) {
        struct ga_measurement one = { .impl = m[j].impl, .reference = m[j].reference,
                                      .want_shape = true };
        assert_int_equal(ga_sweep_run(f32, &d, &one, 1, &alone, &where), GA_SWEEP_OK);
        assert_int_equal(m[j].stats->extent_min, one.stats->extent_min);
        assert_int_equal(m[j].stats->extent_max, one.stats->extent_max);
        assert_memory_equal(m[j].stats->region, one.stats->region, sizeof one.stats->region);
        assert_int_equal(m[j].failed, one.failed);
        assert_int_equal(m[j].failed_inputs, one.failed_inputs);
        assert_int_equal(m[j].failed_batches, one.failed_batches);
        assert_int_equal(m[j].failure_count, one.failure_count);
        assert_memory_equal(m[j].failures, one.failures,
                            one.failure_count * sizeof one.failures[0]);
        assert_int_equal(m[j].shape->odd_pairs, one.shape->odd_pairs);
        assert_int_equal(m[j].shape->odd_breaks, one.shape->odd_breaks);
        assert_int_equal(m[j].shape->first_odd_break.x, one.shape->first_odd_break.x);
        assert_int_equal(m[j].shape->first_odd_break_neg, one.shape->first_odd_break_neg);
        ga_measurement_clear(&one);
        ga_measurement_clear(&m[j]);
    }
    ga_domain_free(&d);
    ga_plugin_close(good);
    ga_plugin_close(crashing);
    ga_plugin_close(crashing_negative);
    assert_no_children();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_errors),
        cmocka_unit_test(test_narrow_logic),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_impl_fields),
        cmocka_unit_test(test_good_known_values),
        cmocka_unit_test(test_good_matches_direct),
        cmocka_unit_test(test_good_bfloat16),
        cmocka_unit_test(test_regressed_one_ulp),
        cmocka_unit_test(test_crash_reported),
        cmocka_unit_test(test_crash_random),
        cmocka_unit_test(test_hang_times_out),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_parse_timeout),
        cmocka_unit_test(test_guard_pages),
        cmocka_unit_test(test_position_check),
        cmocka_unit_test(test_run_many),
        cmocka_unit_test(test_sweep_groups),
        cmocka_unit_test(test_stdio_contained),
    };
    return cmocka_run_group_tests_name("plugin", tests, setup, NULL);
}
