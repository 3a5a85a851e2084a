/* Regions, histogram bins and the statistics accumulator (src/sweep/):
 * every figure checked against a distribution built by hand, and add/merge
 * checked to be independent of order. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "formats/format.h"
#include "grade/error.h"
#include "grade/histogram.h"
#include "grade/region.h"
#include "grade/stats.h"
#include "test_random.h"

static const struct ga_format *f16;

/* One stream shared by the sample makers below; each test restarts it. */
static struct test_rng stream;
static uint64_t rng(void)
{
    return test_rng_next(&stream);
}

static int setup(void **state)
{
    (void)state;
    f16 = ga_format_get(GA_FLOAT16);
    test_random_init();
    return 0;
}

/* The truth "f = v exactly", rounded by the format module. */
static struct ga_truth exact_truth(const struct ga_format *f, double v)
{
    struct ga_truth t = { 0 };
    int e = 0;
    t.rounded = ga_encode(f, v);
    t.exact.mant = isfinite(v) && v != 0 ? frexp(v, &e) : v;
    t.exact.exp = e;
    /* the certified side of the rounded value, as an oracle gives it */
    t.direction = v > ga_decode(f, t.rounded) ? 1 : v < ga_decode(f, t.rounded) ? -1 : 0;
    return t;
}

static ga_bits enc(double v)
{
    return ga_encode(f16, v);
}

static struct ga_stats *new_stats(void)
{
    struct ga_stats *s = ga_stats_new(f16);
    assert_non_null(s);
    return s;
}

/* ga_stats_add_batch_in asked for each input's ulp error: the same
 * accumulator as without (checked by the callers), and ulp[i] bit for bit
 * ga_error_ulp's for every input (any NaN matching any NaN), whichever path
 * of the batch code took the input. */
static void add_batch_with_ulps(struct ga_stats *s, const ga_bits *x, const ga_bits *y,
                                const struct ga_truth *t, size_t n)
{
    struct ga_stats_extent e;
    double *ulp = malloc((n ? n : 1) * sizeof *ulp);

    assert_non_null(ulp);
    for (size_t i = 0; i < n; i++)
        ulp[i] = -7.0;  /* no error is negative: a slot left unwritten shows */
    ga_stats_batch_extent(s, x, n, &e);
    assert_int_equal(ga_stats_add_batch_in(s, x, y, t, n, &e, ulp), GA_STATS_OK);
    for (size_t i = 0; i < n; i++) {
        double want = ga_error_ulp(&s->err, y[i], &t[i]);
        if (!(isnan(want) && isnan(ulp[i])) && memcmp(&want, &ulp[i], sizeof want) != 0)
            fail_msg("input %zu (x %#llx, y %#llx): ulp error %a, ga_error_ulp %a", i,
                     (unsigned long long)x[i], (unsigned long long)y[i], ulp[i], want);
    }
    free(ulp);
}

static struct ga_summary summary(const struct ga_stats *s, enum ga_region r)
{
    struct ga_summary out;
    assert_int_equal(ga_stats_summarize(s, r, &out), GA_STATS_OK);
    return out;
}

/* Regions. */

static void test_regions(void **state)
{
    (void)state;
    struct ga_region_bounds b;
    ga_region_bounds_init(&b, f16);
    static const struct { double x; bool underflows; enum ga_region r; } cases[] = {
        { -INFINITY, true, GA_REGION_SPECIAL }, { INFINITY, false, GA_REGION_SPECIAL },
        { 0.0, true, GA_REGION_SPECIAL }, { -0.0, true, GA_REGION_SPECIAL },
        { NAN, false, GA_REGION_SPECIAL },
        { -20.0, true, GA_REGION_FAR_LEFT }, { -20.0, false, GA_REGION_LEFT_TAIL },
        { -3.001953125, false, GA_REGION_LEFT_TAIL }, { -3.0, false, GA_REGION_CORE },
        { 3.0, false, GA_REGION_CORE }, { 3.001953125, false, GA_REGION_RIGHT },
        { 60000.0, false, GA_REGION_RIGHT }, { 0x1p-10, false, GA_REGION_CORE },
        { -0x1p-10, false, GA_REGION_CORE }, { 0x1p-10 - 0x1p-21, false, GA_REGION_TINY },
        { -0x1p-24, true, GA_REGION_TINY }, { 0x1p-24, false, GA_REGION_TINY },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ga_bits x = enc(cases[i].x);
        ga_bits rounded = cases[i].underflows ? enc(-0.0) : enc(-1e-3);
        assert_int_equal(ga_region_of(&b, x, rounded), cases[i].r);
    }
    /* 3 + 2^-9 is the float16 after 3: the bound is exact */
    assert_int_equal(ga_next_up(f16, enc(3.0)), enc(3.001953125));

    for (int r = 0; r <= GA_REGION_ALL; r++) {
        enum ga_region back;
        assert_non_null(ga_region_description((enum ga_region)r));
        assert_int_equal(ga_region_by_name(ga_region_name((enum ga_region)r), &back), 0);
        assert_int_equal(back, r);
    }
    assert_null(ga_region_name(GA_REGION_ALL + 1));
}

/* Every float16 input falls in exactly one region, and "all" sums them. */
static void test_regions_partition(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    struct ga_truth t = exact_truth(f16, 1.0);
    for (uint32_t x = 0; x < 0x10000; x++)
        ga_stats_add(s, x, t.rounded, &t);
    struct ga_summary all = summary(s, GA_REGION_ALL);
    uint64_t sum = 0;
    for (int r = 0; r < GA_REGION_COUNT; r++)
        sum += summary(s, (enum ga_region)r).count;
    assert_true(all.count == 0x10000 && sum == 0x10000);
    /* special: 2 * 1023 NaNs, 2 infinities, 2 zeros */
    assert_true(summary(s, GA_REGION_SPECIAL).count == 2 * 1023 + 4);
    /* tiny: 0 < |x| < 2^-10, i.e. magnitudes 1 .. enc(2^-10) - 1, both signs */
    assert_true(summary(s, GA_REGION_TINY).count == 2 * (uint64_t)(enc(0x1p-10) - 1));
    /* the truth here rounds to 1: nothing is far left */
    assert_true(summary(s, GA_REGION_FAR_LEFT).count == 0);
    ga_stats_free(s);
}

/* Histogram bins. */

static void test_ulp_bins(void **state)
{
    (void)state;
    stream = test_rng(0);
    assert_int_equal(ga_ulp_bin(0.0), 0);
    assert_true(ga_ulp_bin_upper(0) == 0.0);
    assert_int_equal(ga_ulp_bin(INFINITY), GA_ULP_BINS - 1);
    assert_true(isinf(ga_ulp_bin_upper(GA_ULP_BINS - 1)));
    assert_int_equal(ga_ulp_bin(0x1p-1074), GA_ULP_BIN_TINY);
    assert_int_equal(ga_ulp_bin(0x1p-65), GA_ULP_BIN_TINY);
    assert_int_equal(ga_ulp_bin(0x1p-64), GA_ULP_BIN_LOW);
    /* 1/2 starts a fine octave; 1/2 + 2^-9 is its second bin */
    assert_int_equal(ga_ulp_bin(0.5 + 0x1p-9), ga_ulp_bin(0.5) + 1);
    assert_true(ga_ulp_bin_upper(ga_ulp_bin(0.5)) == 0.5 + 0x1p-9);
    /* every bin holds its lower edge, and values climb through the bins */
    for (unsigned b = GA_ULP_BIN_LOW; b < GA_ULP_BINS - 1; b++) {
        assert_int_equal(ga_ulp_bin(ga_ulp_bin_lower(b)), b);
        assert_true(ga_ulp_bin_lower(b) < ga_ulp_bin_upper(b));
        if (b + 1 < GA_ULP_BINS - 1)
            assert_true(ga_ulp_bin_upper(b) == ga_ulp_bin_lower(b + 1));
    }
    /* random errors lie in [lower, upper), and the fine bins are narrow */
    for (int i = 0; i < 100000; i++) {
        double e = ldexp((double)(rng() >> 11) + 1, (int)(rng() % 240) - 200);
        unsigned b = ga_ulp_bin(e);
        double lo = ga_ulp_bin_lower(b), hi = ga_ulp_bin_upper(b);
        assert_true(lo <= e && e < hi);
        if (e >= 0x1p-16 && e < 0x1p32)
            assert_true(hi <= e * (1 + 0x1p-8));
    }
}

static void test_distance_buckets(void **state)
{
    (void)state;
    static const struct { uint64_t d; unsigned bucket; } cases[] = {
        { 0, 0 }, { 1, 1 }, { 2, 2 }, { 3, 3 }, { 4, 3 }, { 5, 4 }, { 8, 4 }, { 9, 5 },
        { 16, 5 }, { 17, 6 }, { 1u << 20, 21 }, { (1u << 20) + 1, GA_DIST_ABOVE },
        { UINT64_MAX - 1, GA_DIST_ABOVE },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t lo, hi;
        unsigned b = ga_distance_bucket(cases[i].d);
        assert_int_equal(b, cases[i].bucket);
        ga_distance_bucket_range(b, &lo, &hi);
        assert_true(lo <= cases[i].d && cases[i].d <= hi);
    }
    assert_string_equal(ga_distance_bucket_label(3), "3-4");
    assert_string_equal(ga_distance_bucket_label(21), "524289-1048576");
    assert_string_equal(ga_distance_bucket_label(GA_DIST_NAN), "nan");
}

/* The accumulator. */

/* Truth f = 1 exactly, outputs 1 + i ulp for inputs i = 0..99: ulp errors
 * 0, 1, ..., 99. */
static void add_errors_0_to_99(struct ga_stats *s)
{
    struct ga_truth t = exact_truth(f16, 1.0);
    for (ga_bits i = 0; i < 100; i++)
        ga_stats_add(s, enc(1.0) + i, enc(1.0) + i, &t);
}

static void test_percentiles_and_mean(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    add_errors_0_to_99(s);
    struct ga_summary c = summary(s, GA_REGION_CORE);
    assert_true(c.count == 100 && c.measured == 100 && c.finite == 100);
    assert_true(c.correctly_rounded == 1 && c.faithful == 1);
    /* nearest rank: the 50th, 95th, 99th smallest of 0..99 are 49, 94, 98;
     * each reported as its bin's upper edge, at most 2^-8 above */
    assert_true(c.p50 > 49 && c.p50 <= 49 * (1 + 0x1p-8));
    assert_true(c.p95 > 94 && c.p95 <= 94 * (1 + 0x1p-8));
    assert_true(c.p99 > 98 && c.p99 <= 98 * (1 + 0x1p-8));
    assert_true(c.mean_ulp == 49.5);
    assert_true(c.max_ulp.has && c.max_ulp.error == 99 && c.max_ulp.x == enc(1.0) + 99);
    assert_true(c.max_ulp.y == enc(1.0) + 99);
    assert_true(c.max_ulp.exact.mant == 0.5 && c.max_ulp.exact.exp == 1);
    assert_true(c.max_abs.error == 99 * 0x1p-10 && c.max_rel.error == 99 * 0x1p-10);
    /* distances 0..99 by bucket: 0, 1, 2, 3-4, 5-8, ..., 33-64, 65-99 */
    static const uint64_t expect[] = { 1, 1, 1, 2, 4, 8, 16, 32, 35 };
    for (unsigned b = 0; b < GA_DIST_BUCKETS; b++)
        assert_true(c.distance[b] == (b < 9 ? expect[b] : 0));
    /* the other regions are empty */
    struct ga_summary r = summary(s, GA_REGION_RIGHT);
    assert_true(r.count == 0 && isnan(r.p50) && isnan(r.mean_ulp) && !r.max_ulp.has);
    ga_stats_free(s);
}

/* Correctly rounded outputs of a truth 1/4 ulp off: every error 1/4. */
static void test_percentiles_small(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    for (ga_bits i = 0; i < 1000; i++) {
        double r = ga_decode(f16, enc(1.0) + i);
        struct ga_truth t = exact_truth(f16, r + 0x1p-12);
        ga_stats_add(s, enc(1.0) + i, t.rounded, &t);
    }
    /* and one zero error: exact output 0 for input +0 */
    struct ga_truth z = exact_truth(f16, 0.0);
    ga_stats_add(s, 0x0000, 0x0000, &z);
    struct ga_summary a = summary(s, GA_REGION_ALL);
    assert_true(a.count == 1001 && a.correctly_rounded == 1001);
    assert_true(a.p50 > 0.25 && a.p50 <= 0.25 * (1 + 0x1p-8));
    /* 250/1001, to the double rounding of the final division */
    assert_true(fabs(a.mean_ulp - 250.0 / 1001) <= 0x1p-53 * (250.0 / 1001));
    struct ga_summary sp = summary(s, GA_REGION_SPECIAL);
    assert_true(sp.p50 == 0.0 && sp.p99 == 0.0);
    ga_stats_free(s);
}

/* Flags, NaN and infinite outputs, wrong zeros. */
static void test_flag_counts(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    struct ga_truth minus_zero = exact_truth(f16, -0.0);
    struct ga_truth nan_truth = exact_truth(f16, NAN);
    struct ga_truth tail = exact_truth(f16, -0x1p-20);  /* a representable tail value */
    struct ga_truth under = { enc(-0.0), -1, 0.0f, { -0.75, -200 } };  /* underflows */
    struct ga_truth one = exact_truth(f16, 1.0);

    ga_stats_add(s, enc(-INFINITY), 0x7e00, &minus_zero);  /* NaN from -inf * 0 */
    ga_stats_add(s, 0x7e00, 0x7e00, &nan_truth);           /* fine */
    ga_stats_add(s, 0xfe00, 0x0000, &nan_truth);           /* a number for NaN */
    ga_stats_add(s, enc(-0.0), enc(0.0), &minus_zero);     /* wrong sign of zero */
    ga_stats_add(s, enc(-5.0), enc(-0.0), &tail);          /* flushed */
    ga_stats_add(s, enc(-5.5), enc(0.0), &tail);           /* flushed */
    ga_stats_add(s, enc(-20.0), enc(-0.0), &under);        /* correct underflow */
    ga_stats_add(s, enc(-21.0), enc(0.0), &under);         /* wrong sign of zero */
    ga_stats_add(s, enc(2.0), enc(INFINITY), &one);        /* infinite */

    struct ga_summary a = summary(s, GA_REGION_ALL);
    assert_true(a.count == 9);
    assert_true(a.correctly_rounded == 2);  /* the NaN and the underflow */
    assert_true(a.faithful == 2);
    assert_true(a.nan == 1 && a.not_nan == 1 && a.inf == 1);
    assert_true(a.flushed_to_zero == 2 && a.wrong_zero_sign == 2);
    /* measured: not the two NaN truths, not the NaN output */
    assert_true(a.measured == 6 && a.finite == 5);
    assert_true(a.distance[GA_DIST_NAN] == 1 && a.distance[GA_DIST_NOT_NAN] == 1);
    assert_true(a.distance[GA_DIST_INF] == 1);
    /* -2^-20 flushed: 2^-20 / 2^-24 = 16 ulp, 16 ordinal steps */
    assert_true(a.distance[5] == 2);
    assert_true(a.distance[0] == 4);  /* NaN for NaN, two wrong zeros, the underflow */
    assert_true(isinf(a.max_ulp.error) && a.max_ulp.x == enc(2.0));
    assert_true(isinf(a.p99));

    struct ga_summary fl = summary(s, GA_REGION_FAR_LEFT);
    assert_true(fl.count == 2 && fl.wrong_zero_sign == 1 && fl.correctly_rounded == 1);
    struct ga_summary lt = summary(s, GA_REGION_LEFT_TAIL);
    assert_true(lt.count == 2 && lt.flushed_to_zero == 2);
    assert_true(lt.max_ulp.error == 16 && lt.max_ulp.x == enc(-5.0));  /* tie: smaller x */
    assert_true(lt.max_rel.error == 1 && lt.max_abs.error == 0x1p-20);
    ga_stats_free(s);
}

/* Each count names the first input, in increasing order of value, that has
 * the fault it counts, whatever the order of arrival or of merging; the
 * extent is that of the inputs. */
static void test_first_faults(void **state)
{
    (void)state;
    struct ga_truth tail = exact_truth(f16, -0x1p-20);
    struct ga_truth minus_zero = exact_truth(f16, -0.0);
    struct ga_truth nan_truth = exact_truth(f16, NAN);
    struct ga_truth one = exact_truth(f16, 1.0);
    /* flushed at -5.5, -5, -4; NaN at -inf and at 1; inf at 2; wrong zero at
     * -0; a number for a NaN input */
    const ga_bits x[] = { enc(-5.0), enc(-4.0), enc(1.0), enc(-5.5), enc(-INFINITY), enc(2.0),
                          enc(-0.0), 0x7e00, enc(3.0) };
    const ga_bits y[] = { enc(-0.0), enc(0.0), 0x7e00, enc(-0.0), 0x7e00, enc(INFINITY),
                          enc(0.0), enc(1.0), enc(1.0) };
    const struct ga_truth *t[] = { &tail, &tail, &one, &tail, &minus_zero, &one, &minus_zero,
                                   &nan_truth, &one };
    const size_t n = sizeof x / sizeof x[0];

    for (int order = 0; order < 3; order++) {
        struct ga_stats *s = new_stats(), *other = new_stats();
        for (size_t k = 0; k < n; k++) {
            size_t i = order == 1 ? n - 1 - k : k;
            /* order 2: every other input into a second accumulator, merged */
            ga_stats_add(order == 2 && k % 2 ? other : s, x[i], y[i], t[i]);
        }
        assert_int_equal(ga_stats_merge(s, other), GA_STATS_OK);
        struct ga_summary a = summary(s, GA_REGION_ALL);
        assert_true(a.flushed_to_zero == 3 && a.nan == 2 && a.inf == 1);
        assert_true(a.first_fault[GA_FAULT_FLUSHED].has);
        assert_int_equal(a.first_fault[GA_FAULT_FLUSHED].x, enc(-5.5));
        assert_int_equal(a.first_fault[GA_FAULT_FLUSHED].y, enc(-0.0));
        assert_true(a.first_fault[GA_FAULT_FLUSHED].exact.mant == tail.exact.mant);
        assert_int_equal(a.first_fault[GA_FAULT_NAN].x, enc(-INFINITY));
        assert_int_equal(a.first_fault[GA_FAULT_INF].x, enc(2.0));
        assert_int_equal(a.first_fault[GA_FAULT_ZERO_SIGN].x, enc(-0.0));
        assert_int_equal(a.first_fault[GA_FAULT_NOT_NAN].x, 0x7e00);
        /* per region: the left tail's first flush is its own */
        struct ga_summary core = summary(s, GA_REGION_CORE);
        assert_false(core.first_fault[GA_FAULT_FLUSHED].has);
        assert_int_equal(core.first_fault[GA_FAULT_NAN].x, enc(1.0));
        /* the extent: -inf to 3, NaN inputs aside */
        assert_true(a.faithful_interval.has_extent);
        assert_int_equal(a.faithful_interval.extent_lo, enc(-INFINITY));
        assert_int_equal(a.faithful_interval.extent_hi, enc(3.0));
        ga_stats_free(s);
        ga_stats_free(other);
    }
}

/* Inputs on a grid, all correctly rounded except chosen ones. */
static void add_grid(struct ga_stats *s, const double *bad, size_t nbad, const double *zero_out,
                     size_t nzero)
{
    for (double x = -16; x <= 16; x += 0.25) {
        struct ga_truth t = exact_truth(f16, x == 0 ? 0.0 : x / 2 + 0x1p-12);
        ga_bits y = t.rounded;
        for (size_t i = 0; i < nbad; i++)
            if (x == bad[i])
                y = t.rounded + 2;
        for (size_t i = 0; i < nzero; i++)
            if (x == zero_out[i])
                y = enc(0.0);
        ga_stats_add(s, enc(x), y, &t);
    }
}

static void test_faithful_interval(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    add_grid(s, NULL, 0, NULL, 0);
    struct ga_summary a = summary(s, GA_REGION_ALL);
    assert_true(a.faithful_interval.exists);
    assert_false(a.faithful_interval.has_lo || a.faithful_interval.has_hi);
    ga_stats_free(s);

    s = new_stats();
    static const double bad[] = { -9, -2.5, -5, 1.5, 2, 12 };
    add_grid(s, bad, 6, NULL, 0);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.faithful_interval.exists);
    assert_true(a.faithful_interval.has_lo && a.faithful_interval.lo == enc(-2.5));
    assert_true(a.faithful_interval.has_hi && a.faithful_interval.hi == enc(1.5));
    assert_true(a.faithful == a.count - 6);
    /* per region: the right region sees only 12 */
    struct ga_summary r = summary(s, GA_REGION_RIGHT);
    assert_true(!r.faithful_interval.has_lo && r.faithful_interval.hi == enc(12));
    ga_stats_free(s);

    s = new_stats();
    static const double bad_neg[] = { -0.25 };
    add_grid(s, bad_neg, 1, NULL, 0);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.faithful_interval.lo == enc(-0.25) && !a.faithful_interval.has_hi);
    ga_stats_free(s);

    /* infinite inputs bound the interval too */
    s = new_stats();
    add_grid(s, NULL, 0, NULL, 0);
    struct ga_truth mz = exact_truth(f16, -0.0), pinf = exact_truth(f16, INFINITY);
    ga_stats_add(s, enc(-INFINITY), 0x7e00, &mz);
    ga_stats_add(s, enc(INFINITY), 0x7e00, &pinf);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.faithful_interval.has_lo && a.faithful_interval.lo == enc(-INFINITY));
    assert_true(a.faithful_interval.has_hi && a.faithful_interval.hi == enc(INFINITY));
    ga_stats_free(s);

    /* an unfaithful zero: no interval around 0 */
    s = new_stats();
    add_grid(s, NULL, 0, NULL, 0);
    struct ga_truth z = exact_truth(f16, -0.0);
    ga_stats_add(s, enc(-0.0), enc(0.0), &z);
    a = summary(s, GA_REGION_ALL);
    assert_false(a.faithful_interval.exists);
    ga_stats_free(s);
}

static void test_zero_below(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    add_grid(s, NULL, 0, NULL, 0);
    struct ga_summary a = summary(s, GA_REGION_ALL);
    /* nothing flushed: the least input, -16, has a nonzero output */
    assert_true(a.has_zero_below && a.zero_below == enc(-16));
    ga_stats_free(s);

    s = new_stats();
    static const double zeros[] = { -16, -15.75, -15.5, -14, -13 };
    add_grid(s, NULL, 0, zeros, 5);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.zero_below == enc(-15.25));
    /* -inf giving NaN does not move it: only finite inputs count */
    struct ga_truth mz = exact_truth(f16, -0.0);
    ga_stats_add(s, enc(-INFINITY), 0x7e00, &mz);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.zero_below == enc(-15.25));
    /* a NaN output is not zero */
    struct ga_truth t = exact_truth(f16, -8.0);
    ga_stats_add(s, enc(-40.0), 0xfe00, &t);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.zero_below == enc(-40.0));
    ga_stats_free(s);

    /* only zeros: no bound; -0 below +0 when both give nonzero outputs */
    s = new_stats();
    t = exact_truth(f16, 0.0);
    ga_stats_add(s, enc(-3.0), enc(0.0), &t);
    a = summary(s, GA_REGION_ALL);
    assert_false(a.has_zero_below);
    ga_stats_add(s, enc(0.0), enc(1.0), &t);
    ga_stats_add(s, enc(-0.0), enc(1.0), &t);
    a = summary(s, GA_REGION_ALL);
    assert_true(a.has_zero_below && a.zero_below == enc(-0.0));
    ga_stats_free(s);
}

/* A varied sweep: random inputs of every kind with random outputs near,
 * far from, or unrelated to the truth. */
struct sample {
    ga_bits x, y;
    struct ga_truth t;
};

static void make_samples(struct sample *v, size_t n)
{
    stream = test_rng(0);
    for (size_t i = 0; i < n; i++) {
        ga_bits x = (ga_bits)(rng() & 0xffff);
        double xv = ga_decode(f16, x);
        /* a stand-in truth: x/2 (1 + x/1024), exact in double, NaN for NaN */
        double fv = isinf(xv) ? (xv > 0 ? xv : -0.0) : xv / 2 * (1 + xv / 1024);
        struct ga_truth t = exact_truth(f16, fv);
        if (i % 97 == 3 && !isnan(fv)) {  /* some truths far below the doubles */
            t.rounded = enc(-0.0);
            t.exact.mant = -0.5 - ldexp((double)(rng() % 1000), -12);
            t.exact.exp = -(long)(rng() % 100000) - 30;
        }
        ga_bits y;
        switch (rng() % 8) {
        case 0: y = (ga_bits)(rng() & 0xffff); break;
        case 1: y = t.rounded ^ (ga_bits)(rng() % 8); break;
        case 2: y = rng() % 2 ? 0x8000 : 0x0000; break;
        case 3: y = rng() % 2 ? 0x7e00 : 0xfc00; break;
        default: y = t.rounded + (ga_bits)(rng() % 3) - 1; break;
        }
        v[i].x = x;
        v[i].y = y & 0xffff;
        v[i].t = t;
    }
}

static void add_samples(struct ga_stats *s, const struct sample *v, const size_t *order,
                        size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        const struct sample *p = &v[order ? order[i] : i];
        ga_stats_add(s, p->x, p->y, &p->t);
    }
}

static void assert_same_summaries(const struct ga_stats *a, const struct ga_stats *b)
{
    for (int r = 0; r <= GA_REGION_ALL; r++) {
        struct ga_summary sa = summary(a, (enum ga_region)r);
        struct ga_summary sb = summary(b, (enum ga_region)r);
        assert_memory_equal(&sa, &sb, sizeof sa);
    }
}

static void test_merge_and_order(void **state)
{
    (void)state;
    enum { N = 20000 };
    struct sample *v = malloc(N * sizeof *v);
    size_t *order = malloc(N * sizeof *order);
    assert_non_null(v);
    assert_non_null(order);
    make_samples(v, N);

    struct ga_stats *all = new_stats();
    add_samples(all, v, NULL, 0, N);

    /* two halves merged, both ways round */
    struct ga_stats *h1 = new_stats(), *h2 = new_stats(), *h3 = new_stats();
    add_samples(h1, v, NULL, 0, N / 3);
    add_samples(h2, v, NULL, N / 3, N);
    memcpy(h3, h2, sizeof *h3);
    assert_int_equal(ga_stats_merge(h3, h1), GA_STATS_OK);
    assert_int_equal(ga_stats_merge(h1, h2), GA_STATS_OK);
    assert_memory_equal(h1, all, sizeof *all);
    assert_memory_equal(h3, all, sizeof *all);
    assert_same_summaries(h1, all);

    /* shuffled order, in five pieces merged in another order */
    for (size_t i = 0; i < N; i++)
        order[i] = i;
    for (size_t i = N - 1; i > 0; i--) {
        size_t j = (size_t)(rng() % (i + 1)), tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    struct ga_stats *pieces[5];
    for (int k = 0; k < 5; k++) {
        pieces[k] = new_stats();
        add_samples(pieces[k], v, order, (size_t)k * N / 5, (size_t)(k + 1) * N / 5);
    }
    static const int merge_order[] = { 3, 0, 4, 2 };
    for (int k = 0; k < 4; k++)
        assert_int_equal(ga_stats_merge(pieces[1], pieces[merge_order[k]]), GA_STATS_OK);
    assert_memory_equal(pieces[1], all, sizeof *all);
    assert_same_summaries(pieces[1], all);

    /* the batch entry point is the same as adding one by one */
    struct ga_stats *batch = new_stats();
    ga_bits *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
    struct ga_truth *ts = malloc(N * sizeof *ts);
    assert_non_null(xs);
    assert_non_null(ys);
    assert_non_null(ts);
    for (size_t i = 0; i < N; i++) {
        xs[i] = v[i].x;
        ys[i] = v[i].y;
        ts[i] = v[i].t;
    }
    assert_int_equal(ga_stats_add_batch(batch, xs, ys, ts, N), GA_STATS_OK);
    assert_memory_equal(batch, all, sizeof *all);
    struct ga_stats *with_ulps = new_stats();
    add_batch_with_ulps(with_ulps, xs, ys, ts, N);
    assert_memory_equal(with_ulps, all, sizeof *all);
    ga_stats_free(with_ulps);

    /* the mix exercised every kind of outcome */
    struct ga_summary a = summary(all, GA_REGION_ALL);
    assert_true(a.count == N);
    assert_true(a.nan > 0 && a.inf > 0 && a.flushed_to_zero > 0 && a.wrong_zero_sign > 0);
    assert_true(a.correctly_rounded > 0 && a.faithful > a.correctly_rounded);
    uint64_t sum = 0;
    for (unsigned b = 0; b < GA_DIST_BUCKETS; b++)
        sum += a.distance[b];
    assert_true(sum == a.count);
    for (int r = 0; r < GA_REGION_COUNT; r++)
        assert_true(summary(all, (enum ga_region)r).count > 0);

    free(xs);
    free(ys);
    free(ts);
    ga_stats_free(batch);
    for (int k = 0; k < 5; k++)
        ga_stats_free(pieces[k]);
    ga_stats_free(h1);
    ga_stats_free(h2);
    ga_stats_free(h3);
    ga_stats_free(all);
    free(order);
    free(v);
}

/* The batch entry point takes shortcuts (stats_batch.c): outputs equal to the
 * truth, truths far below a zero output, correctly rounded outputs and their
 * neighbours measured in a loop of their own, errors kept aside and offered
 * to the maxima at once.  Checked against ga_stats_add, input by input, on
 * inputs built to reach each of them and their edges, in runs of one region
 * (as a sweep feeds them) and out of order, with ties between equal errors
 * that only the tie-break separates, in every format (float32 has a path of
 * its own). */

/* An input x of region r of format f (the truth decides far left against
 * left tail); now and then one at an edge of the region. */
static ga_bits region_input(const struct ga_format *f, enum ga_region r)
{
    ga_bits sign = ga_sign_mask(f), inf = ga_infinity(f, false);
    ga_bits tiny = ga_encode(f, 0x1p-10), three = ga_encode(f, 3.0);
    ga_bits lo, hi;  /* magnitudes */
    switch (r) {
    case GA_REGION_TINY: lo = 1; hi = tiny - 1; break;
    case GA_REGION_CORE: lo = tiny; hi = three; break;
    default: lo = three + 1; hi = inf - 1; break;
    }
    ga_bits mag = rng() % 8 ? lo + (ga_bits)(rng() % (hi - lo + 1)) : rng() % 2 ? lo : hi;
    bool neg = r == GA_REGION_FAR_LEFT || r == GA_REGION_LEFT_TAIL
               || ((r == GA_REGION_TINY || r == GA_REGION_CORE) && rng() % 2);
    return neg ? mag | sign : mag;
}

/* A random normal encoding of f. */
static ga_bits normal_value(const struct ga_format *f)
{
    ga_bits min_normal = (ga_bits)1 << ga_mantissa_bits(f), inf = ga_infinity(f, false);
    ga_bits mag = min_normal + (ga_bits)(rng() % (inf - min_normal));
    return rng() % 2 ? mag | ga_sign_mask(f) : mag;
}

/* Outputs of every kind around the truth t. */
static ga_bits output_near(const struct ga_format *f, const struct ga_truth *t)
{
    uint64_t r = rng() % 100;
    if (r < 55)
        return t->rounded;
    if (r < 75)
        return r % 2 ? ga_next_up(f, t->rounded) : ga_next_down(f, t->rounded);
    if (r < 80)
        return t->rounded + (ga_bits)(rng() % 5) - 2;  /* may leave the format's range */
    if (r < 84)
        return ga_zero(f, rng() % 2);
    if (r < 87)
        return ga_quiet_nan(f);
    if (r < 90)
        return ga_infinity(f, rng() % 2);
    if (r < 93)
        return ga_min_subnormal(f, rng() % 2);
    return (ga_bits)(rng() & ga_all_ones(f));
}

enum { KIND_EXACT, KIND_NEAR, KIND_UNDER, KIND_SUBNORMAL, KIND_SPECIAL, KIND_TAIL, KIND_ODD, KINDS };

/* A truth of a kind for input x. */
static struct ga_truth truth_of_kind(const struct ga_format *f, int kind, ga_bits x)
{
    struct ga_truth t = { 0 };
    double v;
    switch (kind) {
    case KIND_EXACT:  /* representable: outputs equal to it have every error 0 */
        return exact_truth(f, ga_decode(f, normal_value(f)));
    case KIND_NEAR:  /* near a representable value, sometimes within 2^-1000 of
                      * it, or of the largest (then it may round to inf) */
        v = ga_decode(f, rng() % 16 ? normal_value(f) : ga_max_finite(f, rng() % 2));
        return exact_truth(f, v + v * ldexp((double)(rng() % 2 ? 1 : -1),
                                            -(int)(rng() % 70) - 2));
    case KIND_UNDER:  /* far below the zero output, or just below the subnormals */
        t.rounded = ga_zero(f, (ga_sign(f, x) != 0) != (rng() % 8 == 0));
        t.exact.mant = (t.rounded ? -1 : 1) * (0.5 + ldexp((double)(rng() % 4), -3));
        switch (rng() % 4) {
        case 0: t.exact.exp = GA_EXACT_EXP_MIN; break;
        case 1: t.exact.exp = -(long)(rng() % 100000) - 1200; break;
        default:  /* around 2^-1000 subnormal ulps below the zero: both sides */
            t.exact.exp = f->emin - f->precision + 1 - 1000 + (long)(rng() % 20) - 10
                        - (rng() % 4 ? 0 : (long)(rng() % 1000));
            break;
        }
        return t;
    case KIND_SUBNORMAL:
        return exact_truth(f, ldexp((double)(rng() % 2 ? 1 : -1) * (double)(rng() % 64 + 1),
                                    f->emin - f->precision + 1));
    case KIND_SPECIAL:  /* NaN, or a special value */
        return exact_truth(f, rng() % 2 ? NAN : rng() % 2 ? INFINITY : -0.0);
    case KIND_TAIL:  /* a representable value and a tail beyond a double, as
                      * float64's oracle gives: the output equal to the
                      * double is not exact */
        t = exact_truth(f, ga_decode(f, normal_value(f)));
        t.direction = rng() % 2 ? 1 : -1;
        t.tail = (float)ldexp(t.direction * (1.0 + (double)(rng() % 256) / 256),
                              -54 - (int)(rng() % 40));  /* f - rounded has its sign */
        return t;
    default:  /* inconsistent, no shortcut may take it: an exponent off by a
               * multiple of 2^12 (the same low bits), a significand not in
               * [1/2, 1), a zero far below with a significand 0, inf or NaN */
        t = exact_truth(f, ga_decode(f, normal_value(f)));
        switch (rng() % 3) {
        case 0: t.exact.exp += rng() % 2 ? GA_EXACT_EXP_MIN : 4096; break;
        case 1: t.exact.mant = ldexp(t.exact.mant, rng() % 2 ? 1 : -1); break;
        default:
            t.rounded = ga_zero(f, ga_sign(f, x));
            t.exact.mant = rng() % 3 == 0 ? 0.0 : rng() % 2 ? -INFINITY : NAN;
            t.exact.exp = GA_EXACT_EXP_MIN;
            break;
        }
        return t;
    }
}

/* The truth of input x: a function of x, as in a sweep (points are told
 * apart by x and y), of one kind over stretches of 64 consecutive encodings,
 * and the same for 8 consecutive ones now and then, or for all 64 when
 * `ties` (equal errors). */
static struct ga_truth truth_for(const struct ga_format *f, ga_bits x, uint64_t salt,
                                 int one_kind, bool ties)
{
    struct test_rng saved = stream;
    struct ga_truth t = { 0 };
    stream.state = test_mix64((x >> 6) ^ salt);
    int kind = one_kind >= 0 ? one_kind : (int)(rng() % 8);
    kind = kind >= KINDS ? (int)(rng() % 3) : kind;  /* more of the common kinds */
    bool shared = rng() % 4 == 0;
    stream.state = test_mix64((ties ? (x >> 6) | (uint64_t)1 << 41
                               : shared ? (x >> 3) | (uint64_t)1 << 40 : x) ^ salt * 3);
    t = truth_of_kind(f, kind, x);
    stream = saved;
    return t;
}

/* Samples in blocks of one region, through consecutive inputs going up or
 * down, or scattered.  Clean: outputs correctly rounded. */
static void make_shortcut_samples(const struct ga_format *f, struct sample *v, size_t n,
                                  bool clean, int one_kind, bool ties)
{
    static const enum ga_region regions[] = { GA_REGION_FAR_LEFT, GA_REGION_LEFT_TAIL,
                                              GA_REGION_CORE, GA_REGION_TINY, GA_REGION_RIGHT };
    const struct ga_region_bounds b = { ga_sign_mask(f), ga_encode(f, 0x1p-10),
                                        ga_encode(f, 3.0), ga_finite_end(f), ga_nan_from(f) };
    const uint64_t salt = rng();
    size_t i = 0;
    while (i < n) {
        enum ga_region r = regions[rng() % 5];
        size_t len = 1 + (size_t)(rng() % (rng() % 4 ? 600 : 5));
        int step = (int)(rng() % 3) - 1;  /* 0: scattered */
        ga_bits x = region_input(f, r);
        for (size_t k = 0; k < len && i < n; k++, i++) {
            if (k > 0 && step != 0) {
                /* (with a zero truth, the left tail reads as far left) */
                x = (ga_bits)(x + step) & ga_all_ones(f);
                if (ga_region_of(&b, x, ga_zero(f, false))
                    != (r == GA_REGION_LEFT_TAIL ? GA_REGION_FAR_LEFT : r))
                    x = region_input(f, r);
            } else if (k > 0 && rng() % 4) {  /* else the same x again */
                x = region_input(f, r);
            }
            if (!clean && rng() % 64 == 0)  /* a special input */
                x = rng() % 2 ? ga_quiet_nan(f) | (rng() % 2 ? ga_sign_mask(f) : 0)
                              : ga_infinity(f, rng() % 2);
            v[i].x = x;
            v[i].t = truth_for(f, x, salt, one_kind, ties);
            v[i].y = clean || rng() % 3 ? v[i].t.rounded : output_near(f, &v[i].t);
            if ((!clean || one_kind == KIND_UNDER) && i + 1 < n && rng() % 16 == 0) {
                /* the same x with the other zero or neighbour first: a tie
                 * of errors and x that y decides */
                v[i + 1] = v[i];
                v[i].y = (v[i].y & ~ga_sign_mask(f)) == 0 ? ga_negate(f, v[i].y)
                                                          : ga_next_up(f, v[i].y);
                i++;
                k++;
            }
        }
    }
}

/* Shuffled, then gathered by region: out of order, but in runs of one
 * region (a batch whose regions change at every input is added one by one). */
static void shuffle_within_regions(const struct ga_format *f, struct sample *v, size_t n)
{
    const struct ga_region_bounds b = { ga_sign_mask(f), ga_encode(f, 0x1p-10),
                                        ga_encode(f, 3.0), ga_finite_end(f), ga_nan_from(f) };
    struct sample *tmp = malloc(n * sizeof *tmp);
    size_t k = 0;
    assert_non_null(tmp);
    for (size_t i = n - 1; i > 0; i--) {
        size_t j = (size_t)(rng() % (i + 1));
        struct sample t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
    for (int r = 0; r < GA_REGION_COUNT; r++)
        for (size_t i = 0; i < n; i++)
            if (ga_region_of(&b, v[i].x, v[i].t.rounded) == (enum ga_region)r)
                tmp[k++] = v[i];
    assert_true(k == n);
    memcpy(v, tmp, n * sizeof *v);
    free(tmp);
}

static void test_batch_shortcuts(void **state)
{
    (void)state;
    enum { N = 40000 };
    struct sample *v = malloc(N * sizeof *v);
    ga_bits *xs = malloc(N * sizeof *xs), *ys = malloc(N * sizeof *ys);
    struct ga_truth *ts = malloc(N * sizeof *ts);
    assert_non_null(v);
    assert_non_null(xs);
    assert_non_null(ys);
    assert_non_null(ts);
    stream = test_rng(0);
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        for (int round = 0; round < 10; round++) {
            /* mixed, clean, then one kind at a time, then ties everywhere;
             * in order, then shuffled */
            static const int one_kind[] = { -1, -1, -1, -1, KIND_EXACT, KIND_EXACT,
                                            KIND_UNDER, KIND_NEAR, KIND_NEAR, KIND_NEAR };
            make_shortcut_samples(f, v, N, round >= 2, one_kind[round], round >= 8);
            if (round % 2)
                shuffle_within_regions(f, v, N);
            struct ga_stats *one = ga_stats_new(f), *batch = ga_stats_new(f);
            assert_non_null(one);
            assert_non_null(batch);
            for (size_t i = 0; i < N; i++) {
                xs[i] = v[i].x;
                ys[i] = v[i].y;
                ts[i] = v[i].t;
                ga_stats_add(one, v[i].x, v[i].y, &v[i].t);
            }
            for (size_t i = 0; i < N;) {  /* batches of 1 to 5000 */
                size_t m = 1 + (size_t)(rng() % (rng() % 2 ? 5000 : 3));
                m = m < N - i ? m : N - i;
                if (rng() % 2)  /* both entry points, ulp errors asked for or not */
                    add_batch_with_ulps(batch, xs + i, ys + i, ts + i, m);
                else
                    assert_int_equal(ga_stats_add_batch(batch, xs + i, ys + i, ts + i, m),
                                     GA_STATS_OK);
                i += m;
            }
            assert_memory_equal(batch, one, sizeof *one);

            /* the samples reached the shortcuts: errors 0 (outputs equal to
             * the truth, truths far below the zero), outputs next to the
             * correctly rounded one (in the wide formats: the small ones lack
             * some regions; their batch equals one by one above) */
            struct ga_summary a = summary(one, GA_REGION_ALL);
            assert_true(a.count == N);
            if (round < 2 && f->id == GA_FLOAT64) {
                /* its truths carry no bits beyond its own 53: no output
                 * is faithful without being correctly rounded */
                assert_true(a.nan > 0 && a.not_nan > 0);
            } else if (round < 2 && ga_is_small_format(f)) {
                assert_true(a.nan > 0 || !ga_has_nan(f));
            } else if (round < 2) {
                assert_true(ga_stats_ulp_bin_count(one, GA_REGION_RIGHT, 0) > 0);
                assert_true(ga_stats_ulp_bin_count(one, GA_REGION_TINY, 0) > 0);
                assert_true(ga_stats_ulp_bin_count(one, GA_REGION_FAR_LEFT, 0) > 0);
                assert_true(summary(one, GA_REGION_FAR_LEFT).correctly_rounded > 0);
                assert_true(a.faithful > a.correctly_rounded && a.distance[1] > 0);
                assert_true(a.nan > 0 && a.not_nan > 0);
            } else if (one_kind[round] != KIND_UNDER) {  /* (which has pairs) */
                assert_true(a.correctly_rounded == N);
            }
            if (one_kind[round] == KIND_EXACT)  /* every error 0, ties everywhere */
                assert_true(a.max_ulp.has && a.max_ulp.error == 0.0 && a.max_rel.error == 0.0);
            ga_stats_free(one);
            ga_stats_free(batch);
        }
    }
    free(v);
    free(xs);
    free(ys);
    free(ts);

    /* an edge the random samples rarely reach: a truth far below +0 for a
     * negative x, whose output -0 comes first, then the correct +0: equal
     * errors and x, and +0 wins on y */
    struct ga_truth under = { enc(0.0), 1, 0.0f, { 0.75, GA_EXACT_EXP_MIN } };
    ga_bits ex[4] = { enc(-20.0), enc(-20.0), enc(-21.0), enc(-20.0) };
    ga_bits ey[4] = { enc(-0.0), enc(0.0), enc(0.0), enc(0.0) };
    struct ga_truth et[4] = { under, under, under, under };
    /* and relative errors 1 of truths just above and far below 2^-1000
     * subnormal ulps, where the least x (-18) is the far one, amid the others */
    const long ulp_exp = f16->emin - f16->precision + 1;
    struct ga_truth near0 = { enc(-0.0), -1, 0.0f, { -0.75, ulp_exp - 500 } };
    struct ga_truth far0 = { enc(-0.0), -1, 0.0f, { -0.75, ulp_exp - 2000 } };
    ga_bits fx[5] = { enc(-20.0), enc(-19.0), enc(-18.0), enc(-21.0), enc(-22.0) };
    ga_bits fy[5] = { enc(-0.0), enc(-0.0), enc(-0.0), enc(-0.0), enc(-0.0) };
    struct ga_truth ft[5] = { near0, near0, far0, near0, far0 };
    for (size_t m = 1; m <= 5; m++) {
        struct ga_stats *one = new_stats(), *batch = new_stats();
        struct ga_stats *one2 = new_stats(), *batch2 = new_stats();
        for (size_t i = 0; i < m && i < 4; i++)
            ga_stats_add(one, ex[i], ey[i], &et[i]);
        assert_int_equal(ga_stats_add_batch(batch, ex, ey, et, m < 4 ? m : 4), GA_STATS_OK);
        assert_memory_equal(batch, one, sizeof *one);
        for (size_t i = 0; i < m; i++)
            ga_stats_add(one2, fx[i], fy[i], &ft[i]);
        assert_int_equal(ga_stats_add_batch(batch2, fx, fy, ft, m), GA_STATS_OK);
        assert_memory_equal(batch2, one2, sizeof *one2);
        ga_stats_free(one);
        ga_stats_free(batch);
        ga_stats_free(one2);
        ga_stats_free(batch2);
    }
}

static void test_limits(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats(), *t = new_stats();
    struct ga_stats *b16 = ga_stats_new(ga_format_get(GA_BFLOAT16));
    assert_non_null(b16);
    assert_int_equal(ga_stats_merge(s, b16), GA_STATS_MISMATCH);

    ga_bits x[2] = { enc(1.0), enc(2.0) };
    struct ga_truth tr[2] = { exact_truth(f16, 1.0), exact_truth(f16, 2.0) };
    s->region[GA_REGION_CORE].tally.correct = UINT32_MAX - 1;
    assert_int_equal(ga_stats_add_batch(s, x, x, tr, 2), GA_STATS_FULL);
    assert_true(s->region[GA_REGION_CORE].tally.correct == UINT32_MAX - 1);
    assert_int_equal(ga_stats_add_batch(s, x, x, tr, 1), GA_STATS_OK);
    assert_int_equal(ga_stats_add_batch(t, x, x, tr, 1), GA_STATS_OK);
    assert_int_equal(ga_stats_merge(s, t), GA_STATS_FULL);

    struct ga_summary out;
    assert_int_equal(ga_stats_summarize(s, GA_REGION_ALL + 1, &out), GA_STATS_BAD_REGION);
    ga_stats_free(s);
    ga_stats_free(t);
    ga_stats_free(b16);
}

/* Refinement: the lead recomputes the worst points from a better truth. */
static int better_truth(void *ctx, ga_bits x, struct ga_truth *out)
{
    (void)x;
    *out = *(const struct ga_truth *)ctx;
    return 0;
}

static void test_refine(void **state)
{
    (void)state;
    struct ga_stats *s = new_stats();
    struct ga_truth rough = exact_truth(f16, 1.0 + 0x1p-12);  /* 1/4 ulp above 1 */
    ga_stats_add(s, enc(1.5), enc(1.0) + 3, &rough);
    struct ga_summary a = summary(s, GA_REGION_ALL);
    assert_true(a.max_ulp.error == 2.75);

    struct ga_truth fine = exact_truth(f16, 1.0 + 0x1p-11);  /* 1/2 ulp above */
    assert_int_equal(ga_summary_refine(&a, f16, better_truth, &fine), 0);
    assert_true(a.max_ulp.error == 2.5);
    assert_true(a.max_abs.error == 2.5 * 0x1p-10);
    assert_true(a.max_ulp.exact.mant == fine.exact.mant && a.max_ulp.exact.exp == 1);
    assert_true(a.max_ulp.x == enc(1.5) && a.max_ulp.y == enc(1.0) + 3);
    ga_stats_free(s);
}

/* The extent of a batch (the least and the greatest input that is not NaN)
 * against the inputs' values: random encodings, with +-0, +-inf and NaNs
 * of both signs mixed in, and batches of NaNs alone or of one sign alone. */
static int64_t extent_key(const struct ga_format *f, ga_bits x)
{
    ga_bits sign = (ga_bits)1 << (f->bits - 1), mag = x & ~sign;
    return (x & sign) ? -(int64_t)mag - 1 : (int64_t)mag;
}

/* a before b in value order, -0 before +0 */
static bool value_before(const struct ga_format *f, ga_bits a, ga_bits b)
{
    double va = ga_decode(f, a), vb = ga_decode(f, b);
    return va < vb || (va == vb && signbit(va) && !signbit(vb));
}

static void test_batch_extent(void **state)
{
    static const struct { enum ga_format_id id; ga_bits inf; } formats[] = {
        { GA_FLOAT16, 0x7c00 }, { GA_BFLOAT16, 0x7f80 }, { GA_FLOAT32, 0x7f800000 },
        { GA_FLOAT64, 0x7ff0000000000000 },
    };
    enum { N = 300 };
    (void)state;
    stream = test_rng(0);
    for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++) {
        const struct ga_format *f = ga_format_get(formats[k].id);
        ga_bits sign = (ga_bits)1 << (f->bits - 1);
        ga_bits all = f->bits == 64 ? UINT64_MAX : ((ga_bits)1 << f->bits) - 1;
        ga_bits inf = formats[k].inf, special[] = { 0, sign, inf, inf | sign, inf + 1,
                                                      all, sign | 1, 1, all >> 1 };
        struct ga_stats *s = ga_stats_new(f);
        assert_non_null(s);
        for (int round = 0; round < 200; round++) {
            ga_bits x[N];
            size_t n = 1 + rng() % N;
            int kind = round % 4;   /* mixed, positive only, negative only, NaN only */
            bool any = false;
            ga_bits lo = 0, hi = 0;
            struct ga_stats_extent e;

            for (size_t i = 0; i < n; i++) {
                x[i] = rng() % 5 == 0 ? special[rng() % (sizeof special / sizeof special[0])]
                                      : rng() & all;
                if (kind == 1)
                    x[i] &= ~sign;
                else if (kind == 2)
                    x[i] |= sign;
                else if (kind == 3)
                    x[i] = (inf + 1 + rng() % 64) | (rng() & 1 ? sign : 0);
                if (isnan(ga_decode(f, x[i])))
                    continue;
                if (!any || value_before(f, x[i], lo))
                    lo = x[i];
                if (!any || value_before(f, hi, x[i]))
                    hi = x[i];
                any = true;
            }
            ga_stats_batch_extent(s, x, n, &e);
            if (!any) {
                assert_true(e.lo > e.hi);
                continue;
            }
            assert_true(kind != 3);
            assert_int_equal(e.lo, extent_key(f, lo));
            assert_int_equal(e.hi, extent_key(f, hi));
        }
        ga_stats_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_regions_partition),
        cmocka_unit_test(test_ulp_bins),
        cmocka_unit_test(test_distance_buckets),
        cmocka_unit_test(test_percentiles_and_mean),
        cmocka_unit_test(test_percentiles_small),
        cmocka_unit_test(test_flag_counts),
        cmocka_unit_test(test_first_faults),
        cmocka_unit_test(test_faithful_interval),
        cmocka_unit_test(test_zero_below),
        cmocka_unit_test(test_merge_and_order),
        cmocka_unit_test(test_batch_shortcuts),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_batch_extent),
        cmocka_unit_test(test_refine),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
