/* The rule of gelu-acc compare (grade/better.h) and its rows
 * (grade/bucket.h) on bfloat16 inputs whose truth MPFR gives: the edge
 * cases of doc/compare.md, "The rule", one by one; and the percentages that
 * sum to 100 (report/compare_print.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "grade/better.h"
#include "grade/bucket.h"
#include "report/compare_print.h"

static const struct ga_format *bf16(void)
{
    return ga_format_by_name("bfloat16");
}

static struct ga_truth truth_of(ga_bits x)
{
    struct ga_truth t;
    assert_int_equal(ga_truth_mpfr(GA_GELU, bf16(), x, &t), GA_TRUTH_OK);
    return t;
}

/* B's output b against A's a for input x. */
static enum ga_verdict verdict(ga_bits x, ga_bits a, ga_bits b)
{
    struct ga_truth t = truth_of(x);
    struct ga_error ea, eb;

    ga_error_measure(bf16(), a, &t, &ea);
    ga_error_measure(bf16(), b, &t, &eb);
    return ga_better_verdict(bf16(), a, &ea, b, &eb, &t);
}

static enum ga_bucket bucket(ga_bits x, ga_bits y)
{
    struct ga_truth t = truth_of(x);
    struct ga_error e;

    ga_error_measure(bf16(), y, &t, &e);
    return ga_bucket_of(&e);
}

#define ONE 0x3f80        /* x = 1: gelu(1) = 0.8413..., rounded 0x3f57 */
#define NAN_A 0x7fc0
#define NAN_B 0xffc1      /* another NaN: another sign and payload */
#define PLUS_INF 0x7f80
#define FAR_LEFT 0xc215   /* x = -37.25: gelu(x) ~ -2^-1003, rounded -0 */

static void test_same_bits_and_any_nan(void **state)
{
    (void)state;
    assert_int_equal(verdict(ONE, 0x3f57, 0x3f57), GA_VERDICT_SAME);
    assert_int_equal(verdict(ONE, NAN_A, NAN_B), GA_VERDICT_SAME);
    assert_int_equal(verdict(NAN_A, NAN_A, NAN_B), GA_VERDICT_SAME);  /* NaN input too */
}

static void test_nearer_is_better(void **state)
{
    ga_bits r = truth_of(ONE).rounded;

    (void)state;
    assert_int_equal(r, 0x3f57);
    assert_int_equal(verdict(ONE, r, r + 1), GA_VERDICT_WORSE);
    assert_int_equal(verdict(ONE, r + 1, r), GA_VERDICT_BETTER);
    assert_int_equal(verdict(ONE, r + 5, r - 2), GA_VERDICT_BETTER);
}

static void test_nan_and_inf_are_infinitely_far(void **state)
{
    ga_bits far = 0x4700;   /* 32768: thousands of ulps from gelu(1) */

    (void)state;
    assert_int_equal(verdict(ONE, NAN_A, far), GA_VERDICT_BETTER);
    assert_int_equal(verdict(ONE, far, NAN_A), GA_VERDICT_WORSE);
    assert_int_equal(verdict(ONE, PLUS_INF, far), GA_VERDICT_BETTER);
    assert_int_equal(verdict(ONE, far, PLUS_INF), GA_VERDICT_WORSE);
    /* both infinitely far: neither better */
    assert_int_equal(verdict(ONE, PLUS_INF, NAN_A), GA_VERDICT_TIED);
    /* where the truth is NaN, a NaN is right and anything else infinitely far */
    assert_int_equal(verdict(NAN_A, NAN_A, 0x0000), GA_VERDICT_WORSE);
    assert_int_equal(verdict(NAN_A, 0x0000, NAN_B), GA_VERDICT_BETTER);
    /* gelu(+inf) = +inf: the infinity is exact there */
    assert_int_equal(verdict(PLUS_INF, 0x7f7f, PLUS_INF), GA_VERDICT_BETTER);
}

static void test_signed_zeros(void **state)
{
    (void)state;
    assert_int_equal(truth_of(FAR_LEFT).rounded, 0x8000);
    assert_int_equal(verdict(FAR_LEFT, 0x0000, 0x8000), GA_VERDICT_BETTER);
    assert_int_equal(verdict(FAR_LEFT, 0x8000, 0x0000), GA_VERDICT_WORSE);
    /* gelu(+0) = +0, gelu(-0) = -0 */
    assert_int_equal(verdict(0x0000, 0x8000, 0x0000), GA_VERDICT_BETTER);
    assert_int_equal(verdict(0x8000, 0x8000, 0x0000), GA_VERDICT_WORSE);
    /* equal distance, not zeros: +-the least subnormal around gelu(0) = 0 */
    assert_int_equal(verdict(0x0000, 0x0001, 0x8001), GA_VERDICT_TIED);
}

static void test_buckets(void **state)
{
    ga_bits r = truth_of(ONE).rounded;
    struct ga_truth t = truth_of(ONE);
    ga_bits other = t.direction > 0 ? r + 1 : r - 1;   /* the other bracket */

    (void)state;
    assert_int_equal(bucket(ONE, NAN_A), GA_BUCKET_NAN);
    assert_int_equal(bucket(NAN_A, 0x0000), GA_BUCKET_NAN);
    assert_int_equal(bucket(NAN_A, NAN_B), GA_BUCKET_CORRECT);
    assert_int_equal(bucket(ONE, PLUS_INF), GA_BUCKET_INF);
    assert_int_equal(bucket(ONE, 0x0000), GA_BUCKET_FLUSHED);
    assert_int_equal(bucket(ONE, 0x8000), GA_BUCKET_FLUSHED);
    assert_int_equal(bucket(FAR_LEFT, 0x0000), GA_BUCKET_ZERO_SIGN);
    assert_int_equal(bucket(FAR_LEFT, 0x8000), GA_BUCKET_CORRECT);
    assert_int_equal(bucket(ONE, r), GA_BUCKET_CORRECT);
    assert_int_equal(bucket(ONE, other), GA_BUCKET_FAITHFUL);
    assert_int_equal(bucket(ONE, t.direction > 0 ? r - 1 : r + 1), GA_BUCKET_BELOW_2);
    assert_int_equal(bucket(ONE, r + 3), GA_BUCKET_2_4);
    assert_int_equal(bucket(ONE, r + 10), GA_BUCKET_4_16);
    assert_int_equal(bucket(ONE, r + 100), GA_BUCKET_16_256);
    assert_int_equal(bucket(ONE, 0x4700), GA_BUCKET_256_UP);
    assert_int_equal(bucket(ONE, 0xff80), GA_BUCKET_INF);
    assert_int_equal(bucket(PLUS_INF, 0xff80), GA_BUCKET_256_UP);  /* -inf for +inf */
}

static void test_percents_sum_to_100(void **state)
{
    uint64_t thirds[3] = { 1, 1, 1 }, skewed[4] = { 1, 65533, 1, 1 }, none[2] = { 0, 0 };
    uint32_t p[4];

    (void)state;
    ga_compare_percents(thirds, 3, 3, p);
    assert_int_equal(p[0] + p[1] + p[2], 100000);
    assert_int_equal(p[0], 33334);     /* the first of equal remainders takes the rest */
    assert_int_equal(p[1], 33333);
    ga_compare_percents(skewed, 4, 65536, p);
    assert_int_equal(p[0] + p[1] + p[2] + p[3], 100000);
    assert_true(p[0] >= 1 && p[0] <= 2);
    ga_compare_percents(none, 2, 0, p);
    assert_int_equal(p[0] + p[1], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bits_and_any_nan),
        cmocka_unit_test(test_nearer_is_better),
        cmocka_unit_test(test_nan_and_inf_are_infinitely_far),
        cmocka_unit_test(test_signed_zeros),
        cmocka_unit_test(test_buckets),
        cmocka_unit_test(test_percents_sum_to_100),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
