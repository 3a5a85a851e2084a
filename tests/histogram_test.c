/* Histogram bins (src/grade/histogram.c): the ulp-error grid laid out in
 * histogram.h, bin by bin from its description (numbers worked out by
 * hand), edges that tile [0, inf], and distance buckets whose labels name
 * exactly the distances they hold. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "grade/histogram.h"
#include "test_random.h"

/* histogram.h: 0 | (0, 2^-64) | 48 octaves | 48 octaves of 256 | 992 octaves | inf */
static void test_ulp_grid_by_hand(void **state)
{
    (void)state;
    assert_int_equal(GA_ULP_BINS, 13331);
    assert_int_equal(ga_ulp_bin(0.0), 0);
    assert_int_equal(ga_ulp_bin(4.9e-324), 1);
    assert_int_equal(ga_ulp_bin(0x1p-65), 1);
    assert_int_equal(ga_ulp_bin(0x1p-64), 2);
    assert_int_equal(ga_ulp_bin(0x1.fffp-17), 49);
    assert_int_equal(ga_ulp_bin(0x1p-16), 50);
    assert_int_equal(ga_ulp_bin(0x1.01p-16), 51);        /* 1 + 2^-8 */
    assert_int_equal(ga_ulp_bin(0.5), 50 + 15 * 256);
    assert_int_equal(ga_ulp_bin(1.0), 50 + 16 * 256);    /* 4146 */
    assert_int_equal(ga_ulp_bin(1.5), 4146 + 128);
    assert_int_equal(ga_ulp_bin(0x1.ffffffffffffp31), 12337);
    assert_int_equal(ga_ulp_bin(0x1p32), 12338);
    assert_int_equal(ga_ulp_bin(0x1p1023), 13329);
    assert_int_equal(ga_ulp_bin(DBL_MAX), 13329);
    assert_int_equal(ga_ulp_bin(INFINITY), 13330);
    assert_true(ga_ulp_bin_lower(4146) == 1.0 && ga_ulp_bin_upper(4146) == 1.0 + 0x1p-8);
    assert_true(ga_ulp_bin_lower(1) == 0 && ga_ulp_bin_upper(1) == 0x1p-64);
    assert_true(ga_ulp_bin_lower(0) == 0 && ga_ulp_bin_upper(0) == 0);
    assert_true(ga_ulp_bin_lower(13329) == 0x1p1023 && isinf(ga_ulp_bin_upper(13329)));
    assert_true(isinf(ga_ulp_bin_lower(13330)) && isinf(ga_ulp_bin_upper(13330)));
}

/* Edges tile the line: each bin holds its lower edge (the tiny bin, open
 * at 0, the smallest double), the double below that edge is in the bin
 * before, and upper(b) = lower(b + 1); random errors lie inside their bin. */
static void test_ulp_edges(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (unsigned b = 2; b < GA_ULP_BINS; b++) {
        double lo = ga_ulp_bin_lower(b);
        assert_int_equal(ga_ulp_bin(lo), b);
        assert_int_equal(ga_ulp_bin(nextafter(lo, 0)), b - 1);
        assert_true(ga_ulp_bin_upper(b - 1) == lo);
    }
    for (size_t i = 0; i < test_scaled(200000); i++) {
        uint64_t bits = test_rng_below(&rng, 0x7ff0000000000001u);   /* [+0, +inf] */
        double e;
        memcpy(&e, &bits, sizeof e);
        unsigned b = ga_ulp_bin(e);
        assert_true(b < GA_ULP_BINS);
        assert_true(ga_ulp_bin_lower(b) <= e);
        assert_true(e < ga_ulp_bin_upper(b) || (b == 0 && e == 0) || isinf(e));
    }
}

static void test_distance_buckets(void **state)
{
    (void)state;
    assert_int_equal(ga_distance_bucket(0), 0);
    assert_int_equal(ga_distance_bucket(1), 1);
    assert_int_equal(ga_distance_bucket(2), 2);
    assert_int_equal(ga_distance_bucket(3), 3);
    assert_int_equal(ga_distance_bucket(4), 3);
    assert_int_equal(ga_distance_bucket(5), 4);
    assert_int_equal(ga_distance_bucket(1u << 20), 21);
    assert_int_equal(ga_distance_bucket((1u << 20) + 1), GA_DIST_ABOVE);
    assert_int_equal(ga_distance_bucket(UINT64_MAX), GA_DIST_ABOVE);
    /* each label names exactly its distances */
    for (unsigned b = 0; b < GA_DIST_ABOVE; b++) {
        const char *label = ga_distance_bucket_label(b);
        char *end;
        uint64_t lo = strtoull(label, &end, 10), hi = *end == '-' ? strtoull(end + 1, &end, 10)
                                                                  : lo, rlo, rhi;
        assert_int_equal(*end, '\0');
        assert_int_equal(ga_distance_bucket(lo), b);
        assert_int_equal(ga_distance_bucket(hi), b);
        if (b > 0)
            assert_int_equal(ga_distance_bucket(lo - 1), b - 1);
        assert_int_equal(ga_distance_bucket(hi + 1), b + 1);
        ga_distance_bucket_range(b, &rlo, &rhi);
        assert_int_equal(rlo, lo);
        assert_int_equal(rhi, hi);
    }
    uint64_t lo, hi;
    ga_distance_bucket_range(GA_DIST_ABOVE, &lo, &hi);
    assert_int_equal(lo, (1u << 20) + 1);
    assert_true(hi == UINT64_MAX);
    assert_string_equal(ga_distance_bucket_label(GA_DIST_ABOVE), ">1048576");
    assert_string_equal(ga_distance_bucket_label(GA_DIST_INF), "inf");
    assert_string_equal(ga_distance_bucket_label(GA_DIST_NAN), "nan");
    assert_string_equal(ga_distance_bucket_label(GA_DIST_NOT_NAN), "not_nan");
    assert_null(ga_distance_bucket_label(GA_DIST_BUCKETS));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ulp_grid_by_hand),
        cmocka_unit_test(test_ulp_edges),
        cmocka_unit_test(test_distance_buckets),
    };
    test_random_init();
    return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
