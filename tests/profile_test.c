/* Error profiles (src/sweep/profile.c): bins of width 1/64 over [-16, 16),
 * every 16-bit input's own error, means exact in units of 2^-32 ulp, and a
 * merge that gives what one profile of all the inputs gives.  Truths are
 * chosen values, so each ulp error is known exactly: an output k encodings
 * above a representable truth inside its binade is k ulp off. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/format.h"
#include "sweep/profile.h"
#include "test_random.h"

static const struct ga_format *f16, *f32;

/* The truth "f = v exactly", rounded to f. */
static struct ga_truth exact_truth(const struct ga_format *f, double v)
{
    struct ga_truth t = { 0 };
    int e = 0;
    t.rounded = ga_encode(f, v);
    t.exact.mant = isfinite(v) && v != 0 ? frexp(v, &e) : v;
    t.exact.exp = e;
    return t;
}

static void test_bins(void **state)
{
    (void)state;
    assert_int_equal(ga_profile_bin(-16.0), 0);
    assert_int_equal(ga_profile_bin(-16.0 + 0x1p-7), 0);
    assert_int_equal(ga_profile_bin(-16.0 + 0x1p-6), 1);
    assert_int_equal(ga_profile_bin(-0x1p-6), 1023);
    assert_int_equal(ga_profile_bin(-0.0), 1024);
    assert_int_equal(ga_profile_bin(0.0), 1024);
    assert_int_equal(ga_profile_bin(1.0), 1088);          /* (1 + 16) * 64 */
    assert_int_equal(ga_profile_bin(1.0 - 0x1p-30), 1087);
    assert_int_equal(ga_profile_bin(16.0 - 0x1p-20), 2047);   /* float32's largest below 16 */
    assert_int_equal(ga_profile_bin(-0x1p-40), 1023);
    /* values whose sum with 16 would round: still in the bin that holds them */
    assert_int_equal(ga_profile_bin(-0x1p-50), 1023);
    assert_int_equal(ga_profile_bin(-0x1p-149), 1023);
    assert_int_equal(ga_profile_bin(16.0 - 0x1p-49), 2047);
    assert_int_equal(ga_profile_bin(16.0), -1);
    assert_int_equal(ga_profile_bin(-16.0 - 0x1p-40), -1);
    assert_int_equal(ga_profile_bin(INFINITY), -1);
    assert_int_equal(ga_profile_bin(-INFINITY), -1);
    assert_int_equal(ga_profile_bin(NAN), -1);
    assert_true(ga_profile_bin_center(0) == -16.0 + 0x1p-7);
    assert_true(ga_profile_bin_center(1088) == 1.0 + 0x1p-7);
    assert_true(ga_profile_bin_center(2047) == 16.0 - 0x1p-7);
    /* every bin holds its centre */
    for (int b = 0; b < GA_PROFILE_BINS; b++)
        assert_int_equal(ga_profile_bin(ga_profile_bin_center(b)), b);
}

static void test_float16_points_and_bins(void **state)
{
    struct ga_profile *p = ga_profile_new(f16);
    ga_bits x[8], y[8];
    struct ga_truth t[8];
    (void)state;
    assert_non_null(p);
    assert_non_null(p->point);
    for (uint32_t i = 0; i <= 0xffff; i++)
        assert_true(p->point[i] == -1);       /* not visited */
    for (int b = 0; b < GA_PROFILE_BINS; b++) {
        assert_true(p->bin_max[b] == -1);     /* empty */
        assert_true(isnan(ga_profile_bin_mean(p, b)));
    }
    /* bin 1088 ([1, 1 + 1/64)): errors 2, 1 and 1/4 ulp (ulp 2^-11 on [0.5, 1)) */
    x[0] = 0x3c00; t[0] = exact_truth(f16, 0.5);  y[0] = t[0].rounded + 2;
    x[1] = 0x3c01; t[1] = exact_truth(f16, 0.75); y[1] = t[1].rounded + 1;
    x[2] = 0x3c02; t[2] = exact_truth(f16, 0.5 + 0x1p-13); y[2] = ga_encode(f16, 0.5);
    /* a NaN output: kept as NaN, not binned */
    x[3] = 0x4000; t[3] = exact_truth(f16, 1.5); y[3] = ga_quiet_nan(f16);
    /* an infinite output: +inf, binned; its sum adds 2^90 */
    x[4] = 0x4200; t[4] = exact_truth(f16, 2.5); y[4] = ga_infinity(f16, false);
    /* outside [-16, 16): kept, not binned */
    x[5] = ga_encode(f16, 20.0); t[5] = exact_truth(f16, 20.0); y[5] = t[5].rounded + 3;
    x[6] = ga_infinity(f16, true); t[6] = exact_truth(f16, -0.0); y[6] = ga_zero(f16, true);
    /* a zero input, exactly right */
    x[7] = 0x0000; t[7] = exact_truth(f16, 0.0); y[7] = 0x0000;
    ga_profile_add_batch(p, x, y, t, 8);

    assert_true(p->point[0x3c00] == 2);
    assert_true(p->point[0x3c01] == 1);
    assert_true(p->point[0x3c02] == 0.25);
    assert_true(isnan(p->point[0x4000]));
    assert_true(isinf(p->point[0x4200]) && p->point[0x4200] > 0);
    assert_true(p->point[x[5]] == 3);
    assert_true(p->point[x[6]] == 0);
    assert_true(p->point[0x0000] == 0);
    assert_true(p->point[0x3c03] == -1);
    int b1 = ga_profile_bin(1.0), b2 = ga_profile_bin(2.0), b3 = ga_profile_bin(3.0);
    assert_true(p->bin_max[b1] == 2);
    assert_int_equal(p->bin_count[b1], 3);
    /* the mean in units of 2^-32 ulp, truncated: never above, less than a unit below */
    double mean = ga_profile_bin_mean(p, b1);
    assert_true(mean <= 3.25 / 3 && 3.25 / 3 - mean < 0x1p-32);
    assert_int_equal(p->bin_count[b2], 0);
    assert_true(p->bin_max[b2] == -1);
    assert_true(isinf(p->bin_max[b3]));
    assert_true(ga_profile_bin_mean(p, b3) == 0x1p90);
    assert_int_equal(p->bin_count[ga_profile_bin(0.0)], 1);
    assert_true(p->bin_max[ga_profile_bin(0.0)] == 0);
    uint64_t total = 0;
    for (int b = 0; b < GA_PROFILE_BINS; b++)
        total += p->bin_count[b];
    assert_int_equal(total, 5);   /* 3 + inf + zero: NaN and |x| >= 16 are not binned */
    ga_profile_free(p);
    ga_profile_free(NULL);
}

/* Exact means: errors with at most 32 fraction bits average exactly. */
static void test_exact_mean(void **state)
{
    struct ga_profile *p = ga_profile_new(f32);
    ga_bits x[4], y[4];
    struct ga_truth t[4];
    (void)state;
    assert_null(p->point);   /* float32 keeps bins only */
    for (int i = 0; i < 4; i++) {
        x[i] = ga_encode(f32, -2.0 + i * 0x1p-20);   /* one bin */
        t[i] = exact_truth(f32, 0.5 + 0x1p-26 * (i + 1));   /* (i+1)/4 ulp above 0.5 */
        y[i] = ga_encode(f32, 0.5);
    }
    ga_profile_add_batch(p, x, y, t, 4);
    int b = ga_profile_bin(-2.0);
    assert_int_equal(p->bin_count[b], 4);
    assert_true(p->bin_max[b] == 1.0);
    assert_true(ga_profile_bin_mean(p, b) == 0.625);   /* (1/4 + 2/4 + 3/4 + 1) / 4 */
    /* NaN and infinite inputs, and inputs past 16, leave the bins alone */
    x[0] = ga_quiet_nan(f32); x[1] = ga_infinity(f32, false); x[2] = ga_encode(f32, 1e30);
    x[3] = ga_encode(f32, -16.5);
    ga_profile_add_batch(p, x, y, t, 4);
    assert_int_equal(p->bin_count[b], 4);
    uint64_t total = 0;
    for (int k = 0; k < GA_PROFILE_BINS; k++)
        total += p->bin_count[k];
    assert_int_equal(total, 4);
    ga_profile_free(p);
}

/* Any split of the inputs, merged in either order, gives the profile of
 * all of them. */
static void test_merge(void **state)
{
    enum { N = 20000 };
    static ga_bits x[N], y[N];
    static struct ga_truth t[N];
    struct test_rng rng = test_rng(0);
    (void)state;
    for (size_t i = 0; i < N; i++) {
        x[i] = test_rng_encoding(&rng, f16);
        double v = ga_decode(f16, test_rng_encoding_in(&rng, 0x0400, 0x7bff));
        t[i] = exact_truth(f16, v * (1 + 0x1p-14 * (double)test_rng_below(&rng, 8)));
        y[i] = test_rng_below(&rng, 4) ? t[i].rounded + (ga_bits)test_rng_below(&rng, 3)
                                       : test_rng_encoding(&rng, f16);
    }
    struct ga_profile *all = ga_profile_new(f16);
    ga_profile_add_batch(all, x, y, t, N);
    for (int round = 0; round < 5; round++) {
        size_t cut = (size_t)test_rng_below(&rng, N + 1);
        struct ga_profile *a = ga_profile_new(f16), *b = ga_profile_new(f16);
        ga_profile_add_batch(a, x, y, t, cut);
        ga_profile_add_batch(b, x + cut, y + cut, t + cut, N - cut);
        if (round % 2)
            ga_profile_merge(a, b);
        else {
            ga_profile_merge(b, a);
            struct ga_profile *swap = a;
            a = b;
            b = swap;
        }
        assert_memory_equal(a->bin_max, all->bin_max, sizeof all->bin_max);
        assert_memory_equal(a->bin_count, all->bin_count, sizeof all->bin_count);
        assert_memory_equal(a->bin_sum, all->bin_sum, sizeof all->bin_sum);
        for (uint32_t k = 0; k <= 0xffff; k++) {
            /* a repeated input keeps its last error: compare where unique */
            bool same = (isnan(a->point[k]) && isnan(all->point[k]))
                        || a->point[k] == all->point[k];
            if (!same) {
                size_t seen = 0;
                for (size_t i = 0; i < N; i++)
                    seen += x[i] == k;
                assert_true(seen > 1);
            }
        }
        ga_profile_free(a);
        ga_profile_free(b);
    }
    ga_profile_free(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_float16_points_and_bins),
        cmocka_unit_test(test_exact_mean),
        cmocka_unit_test(test_merge),
    };
    f16 = ga_format_get(GA_FLOAT16);
    f32 = ga_format_get(GA_FLOAT32);
    test_random_init();
    return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
