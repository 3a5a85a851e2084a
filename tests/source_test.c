/* Sweeps over sources (domain/domain.h, measure/sweep.h): inputs and outputs
 * read by index, as graded output files are.  A sweep that reads a kernel's
 * outputs gives the figures of the sweep that runs the kernel, in any input
 * order and for any thread count; a read that fails stops the sweep with
 * GA_SWEEP_READ_FAILED and leaves the source's own message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "impls/impl.h"
#include "measure/sweep.h"

#define N 65536  /* every bfloat16 encoding: 16 chunks */

/* An array behind a source; reads that touch element fail_at fail. */
struct array_source {
    const ga_bits *data;
    uint64_t fail_at;  /* UINT64_MAX: never */
    bool failed;
    char message[64];
};

static int read_array(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    struct array_source *a = ctx;

    if (a->fail_at >= first && a->fail_at - first < n) {
        #pragma omp critical(source_test)
        {
            a->failed = true;
            snprintf(a->message, sizeof a->message, "element %llu unreadable",
                     (unsigned long long)a->fail_at);
        }
        return -1;
    }
    memcpy(out, a->data + first, n * sizeof *out);
    return 0;
}

static const char *array_error(void *ctx)
{
    struct array_source *a = ctx;
    return a->failed ? a->message : NULL;
}

static struct ga_source source_of(struct array_source *a)
{
    return (struct ga_source){ read_array, array_error, a };
}

static ga_bits x[N], y[N];
static const struct ga_format *bf16;
static const struct ga_impl *erf_impl;

/* Every encoding in a scrambled order (an odd multiplier permutes Z/2^16),
 * and erf's outputs for them. */
static int setup(void **state)
{
    (void)state;
    struct ga_run_failure failure;

    bf16 = ga_format_get(GA_BFLOAT16);
    erf_impl = ga_catalogue_find("erf");
    if (!erf_impl)
        return -1;
    for (uint32_t i = 0; i < N; i++)
        x[i] = (ga_bits)((i * 40503u) & 0xffff);
    return erf_impl->run(erf_impl, bf16, x, y, N, &failure);
}

static void assert_same_summary(const struct ga_summary *a, const struct ga_summary *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->correctly_rounded, b->correctly_rounded);
    assert_int_equal(a->faithful, b->faithful);
    assert_int_equal(a->measured, b->measured);
    assert_memory_equal(&a->max_ulp.error, &b->max_ulp.error, sizeof(double));
    assert_int_equal(a->max_ulp.x, b->max_ulp.x);
    assert_int_equal(a->max_rel.x, b->max_rel.x);
    assert_int_equal(a->max_abs.x, b->max_abs.x);
    assert_memory_equal(&a->mean_ulp, &b->mean_ulp, sizeof(double));
    assert_memory_equal(&a->p99, &b->p99, sizeof(double));
    assert_int_equal(a->flushed_to_zero, b->flushed_to_zero);
    assert_int_equal(a->nan, b->nan);
    assert_memory_equal(a->distance, b->distance, sizeof a->distance);
    assert_int_equal(a->faithful_interval.exists, b->faithful_interval.exists);
    assert_int_equal(a->faithful_interval.lo, b->faithful_interval.lo);
    assert_int_equal(a->faithful_interval.hi, b->faithful_interval.hi);
    assert_int_equal(a->zero_below, b->zero_below);
}

static void test_source_sweeps_like_the_kernel(void **state)
{
    (void)state;
    char err[128];
    ga_bits undecided;
    struct ga_domain all, read;
    struct array_source in = { x, UINT64_MAX, false, "" }, out = { y, UINT64_MAX, false, "" };
    struct ga_measurement run = { .impl = erf_impl, .reference = GA_GELU };

    assert_int_equal(ga_domain_parse(&all, "all", bf16, err, sizeof err), 0);
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST, .threads = 2 };
    assert_int_equal(ga_sweep_run(bf16, &all, &run, 1, &so, &undecided), GA_SWEEP_OK);
    ga_domain_from_source(&read, bf16, N, source_of(&in), "scrambled");
    for (int threads = 1; threads <= 2; threads++) {
        struct ga_measurement graded = { .outputs = source_of(&out), .reference = GA_GELU };
        so.threads = threads;
        assert_int_equal(ga_sweep_run(bf16, &read, &graded, 1, &so, &undecided), GA_SWEEP_OK);
        for (int r = 0; r <= GA_REGION_COUNT; r++) {
            struct ga_summary a, b;
            assert_int_equal(ga_measurement_summary(&run, (enum ga_region)r, &a), 0);
            assert_int_equal(ga_measurement_summary(&graded, (enum ga_region)r, &b), 0);
            assert_same_summary(&a, &b);
        }
        ga_measurement_clear(&graded);
    }
    /* erf is not correctly rounded everywhere: the comparison had something to see */
    struct ga_summary all_of;
    assert_int_equal(ga_measurement_summary(&run, GA_REGION_ALL, &all_of), 0);
    assert_true(all_of.correctly_rounded < N && all_of.flushed_to_zero > 0);
    ga_measurement_clear(&run);
    ga_domain_free(&all);
    ga_domain_free(&read);
}

/* A failing read of the inputs, or of the outputs, anywhere in the domain. */
static void test_read_failure_stops_the_sweep(void **state)
{
    (void)state;
    const uint64_t where[] = { 0, 4095, 4096, 30000, N - 1 };
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST, .threads = 2 };
    ga_bits undecided;

    for (size_t k = 0; k < sizeof where / sizeof *where; k++)
        for (int outputs_fail = 0; outputs_fail <= 1; outputs_fail++) {
            struct array_source in = { x, outputs_fail ? UINT64_MAX : where[k], false, "" };
            struct array_source out = { y, outputs_fail ? where[k] : UINT64_MAX, false, "" };
            struct ga_measurement graded = { .outputs = source_of(&out), .reference = GA_GELU };
            struct ga_domain d;
            char expected[64];

            ga_domain_from_source(&d, bf16, N, source_of(&in), "failing");
            assert_int_equal(ga_sweep_run(bf16, &d, &graded, 1, &so, &undecided),
                             GA_SWEEP_READ_FAILED);
            snprintf(expected, sizeof expected, "element %llu unreadable",
                     (unsigned long long)where[k]);
            struct array_source *failed = outputs_fail ? &out : &in;
            assert_true(failed->failed);
            assert_string_equal(array_error(failed), expected);
            assert_null(array_error(outputs_fail ? &in : &out));
            ga_measurement_clear(&graded);
            ga_domain_free(&d);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_sweeps_like_the_kernel),
        cmocka_unit_test(test_read_failure_stops_the_sweep),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
