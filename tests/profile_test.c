/* Error profiles (src/measure/profile.c): bins of width 1/64 over [-16, 16),
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
#include "measure/profile.h"
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

/* ga_profile_bin_of, the bin an encoding's value falls in, agrees with
 * ga_profile_bin of the value for every encoding of the formats of 16 bits
 * or fewer, and for float32 and float64 around 1/64 (where its integer
 * shortcut ends), around 16 and on random encodings. */
static void test_bin_of_encodings(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        struct ga_profile *p = ga_profile_new(f);
        assert_non_null(p);
        ga_bits sm = ga_sign_mask(f), inf = ga_finite_end(f);
        if (f->bits <= 16) {
            for (uint32_t x = 0; x < ga_encoding_count(f); x++) {
                bool finite = (x & ~sm) < inf;
                int want = finite ? ga_profile_bin(ga_decode(f, x)) : -1;
                if (ga_profile_bin_of(p, x) != want)
                    fail_msg("%s %#x: bin %d, want %d", f->name, x, ga_profile_bin_of(p, x), want);
            }
        } else {
            const double edges[] = { 1.0 / 64, 16.0, 0x1p-126, 1.0 };
            for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++)
                for (int sign = 0; sign < 2; sign++)
                    for (int d = -3; d <= 3; d++) {
                        ga_bits x = (ga_encode(f, edges[k]) + (ga_bits)(int64_t)d) | (sign ? sm : 0);
                        assert_int_equal(ga_profile_bin_of(p, x), ga_profile_bin(ga_decode(f, x)));
                    }
            for (int i = 0; i < 100000; i++) {
                ga_bits x = test_rng_encoding(&rng, f);
                bool finite = (x & ~sm) < inf;
                assert_int_equal(ga_profile_bin_of(p, x), finite ? ga_profile_bin(ga_decode(f, x)) : -1);
            }
        }
        ga_profile_free(p);
    }
}

/* Inputs in increasing order, as a sweep gives them (runs of a bin, the
 * bins near 0 long), with errors from 0 to beyond the 2^90 ulp cap and
 * sums past 2^64 units: the bins hold what adding each input alone to
 * them gives (computed here from the definition in profile.h). */
static void test_runs_match_one_by_one(void **state)
{
    enum { N = 30000 };
    static ga_bits x[N], y[N];
    static struct ga_truth t[N];
    static double want_max[GA_PROFILE_BINS];
    static uint64_t want_count[GA_PROFILE_BINS];
    static unsigned __int128 want_sum[GA_PROFILE_BINS];
    struct test_rng rng = test_rng(0);
    struct ga_format_layout c;
    (void)state;
    ga_format_layout_init(&c, f32);
    for (size_t i = 0; i < N; i++) {
        double v = -17.0 + 34.0 * (double)i / N;
        if (i % 3000 < 600)  /* long runs near 0, of both signs */
            v = ldexp(i % 2 ? -1.0 : 1.0, -(int)(i % 3000) / 4);
        x[i] = ga_encode(f32, v);
        t[i] = exact_truth(f32, ga_decode(f32, x[i]) / 2);
        switch (test_rng_below(&rng, 6)) {
        case 0: y[i] = t[i].rounded; break;
        case 1: y[i] = t[i].rounded + 1; break;
        case 2: y[i] = t[i].rounded + ((ga_bits)1 << 22); break;    /* about 2^22 ulp */
        case 3: y[i] = t[i].rounded ^ 0x40000000u; break;           /* huge: past the cap, or tiny */
        case 4: y[i] = 0x7fc00000u; break;                          /* NaN: left out */
        default: y[i] = ga_encode(f32, (double)test_rng_below(&rng, 1u << 30) * 0x1p-20); break;
        }
    }
    for (int b = 0; b < GA_PROFILE_BINS; b++)
        want_max[b] = -1;
    for (size_t i = 0; i < N; i++) {
        double e = ga_error_ulp(&c, y[i], &t[i]);
        int b = (x[i] & 0x7fffffffu) < 0x7f800000u ? ga_profile_bin(ga_decode(f32, x[i])) : -1;
        if (b < 0 || isnan(e))
            continue;
        if (e > want_max[b])
            want_max[b] = e;
        want_count[b]++;
        want_sum[b] += (unsigned __int128)(fmin(e, 0x1p90) * 0x1p32);
    }
    struct ga_profile *p = ga_profile_new(f32);
    for (size_t i = 0; i < N;) {  /* in batches of 1 to 4096 */
        size_t m = 1 + (size_t)test_rng_below(&rng, 4096);
        m = m < N - i ? m : N - i;
        ga_profile_add_batch(p, x + i, y + i, t + i, m);
        i += m;
    }
    assert_memory_equal(p->bin_max, want_max, sizeof want_max);
    assert_memory_equal(p->bin_count, want_count, sizeof want_count);
    assert_memory_equal(p->bin_sum, want_sum, sizeof want_sum);
    /* the cases were reached: a bin above 2^64 units, one at the cap */
    bool wide = false, capped = false;
    for (int b = 0; b < GA_PROFILE_BINS; b++) {
        wide |= want_sum[b] >> 64 != 0;
        capped |= want_max[b] >= 0x1p90;
    }
    assert_true(wide && capped);
    ga_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_float16_points_and_bins),
        cmocka_unit_test(test_exact_mean),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_bin_of_encodings),
        cmocka_unit_test(test_runs_match_one_by_one),
    };
    f16 = ga_format_get(GA_FLOAT16);
    f32 = ga_format_get(GA_FLOAT32);
    test_random_init();
    return cmocka_run_group_tests_name("profile", tests, NULL, NULL);
}
