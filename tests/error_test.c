/* Error measures of one output (src/grade/error.c) on truths built by hand:
 * exact values chosen in the test, so every expected error is known exactly. */
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
#include "test_random.h"

static const struct ga_format *f16, *f32, *bf16;

static int setup(void **state)
{
    (void)state;
    test_random_init();
    f16 = ga_format_get(GA_FLOAT16);
    f32 = ga_format_get(GA_FLOAT32);
    bf16 = ga_format_get(GA_BFLOAT16);
    return 0;
}

static struct ga_truth truth(ga_bits rounded, double mant, long exp)
{
    struct ga_truth t = { rounded, 0, 0.0f, { mant, exp } };
    return t;
}

/* t with the direction an oracle certifies: the side of the rounded value on
 * which the exact value (exact in these tests) lies. */
static struct ga_truth directed(const struct ga_format *f, struct ga_truth t)
{
    double r = ga_decode(f, t.rounded), v;

    if (isnan(t.exact.mant) || isnan(r) || isinf(t.exact.mant)) {
        t.direction = 0;
        return t;
    }
    if (r == 0 || isinf(r)) {  /* a value far outside the double range: its sign */
        t.direction = t.exact.mant > 0 ? 1 : t.exact.mant < 0 ? -1 : 0;
        if (isinf(r))
            t.direction = (int8_t)(r > 0 ? -1 : 1);
        return t;
    }
    v = ldexp(t.exact.mant, (int)t.exact.exp);
    t.direction = v > r ? 1 : v < r ? -1 : 0;
    return t;
}

static struct ga_error measure(const struct ga_format *f, ga_bits y, struct ga_truth t)
{
    struct ga_error e;
    t = directed(f, t);
    ga_error_measure(f, y, &t, &e);
    return e;
}

#define OK_FLAGS (GA_ERR_CORRECT | GA_ERR_FAITHFUL)

/* Special values first. */

/* gelu(NaN) = NaN: any NaN is correct, a number is flagged, nothing is measured. */
static void test_nan_truth(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x7e00, NAN, 0);
    struct ga_error e = measure(f16, 0x7e00, t);
    assert_int_equal(e.flags, OK_FLAGS);
    assert_true(isnan(e.ulp) && isnan(e.rel) && isnan(e.abs));
    assert_true(e.distance == UINT64_MAX);
    e = measure(f16, 0xfc01, t);  /* another NaN encoding */
    assert_int_equal(e.flags, OK_FLAGS);
    e = measure(f16, 0x0000, t);
    assert_int_equal(e.flags, GA_ERR_NOT_NAN);
    assert_true(isnan(e.ulp));
}

/* gelu(-inf) = -0 exactly. */
static void test_zero_truth(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x8000, -0.0, 0);
    struct ga_error e = measure(f16, 0x8000, t);
    assert_int_equal(e.flags, OK_FLAGS);
    assert_true(e.ulp == 0.0 && e.rel == 0.0 && e.abs == 0.0);

    e = measure(f16, 0x7e00, t);  /* NaN from -inf * 0 */
    assert_int_equal(e.flags, GA_ERR_NAN);
    assert_true(isnan(e.ulp) && isnan(e.rel) && isnan(e.abs));
    assert_true(e.distance == UINT64_MAX);

    e = measure(f16, 0x0000, t);  /* +0: wrong sign, no error otherwise */
    assert_int_equal(e.flags, GA_ERR_ZERO_SIGN);
    assert_true(e.ulp == 0.0 && e.rel == 0.0 && e.distance == 0);

    /* 2^-24 where the truth is 0: one subnormal ulp, infinitely off relatively */
    e = measure(f16, 0x0001, t);
    assert_int_equal(e.flags, 0);
    assert_true(e.ulp == 1.0 && e.abs == 0x1p-24 && isinf(e.rel));
    assert_true(e.distance == 1);
}

/* gelu(+inf) = +inf. */
static void test_inf_truth(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x7c00, INFINITY, 0);
    struct ga_error e = measure(f16, 0x7c00, t);
    assert_int_equal(e.flags, OK_FLAGS);
    assert_true(e.ulp == 0.0);
    e = measure(f16, 0x7bff, t);  /* 65504 is not +inf, and +inf is representable */
    assert_int_equal(e.flags, 0);
    assert_true(isinf(e.ulp) && e.distance == 1);
}

/* An infinite output where the truth is finite: infinitely off. */
static void test_inf_output(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x3c00, 0.5 + 0x1p-13, 1);  /* 1 + 2^-12 */
    struct ga_error e = measure(f16, 0x7c00, t);
    assert_int_equal(e.flags, GA_ERR_INF);
    assert_true(isinf(e.ulp) && isinf(e.rel) && isinf(e.abs));
    assert_true(e.distance == 0x7c00 - 0x3c00);
    e = measure(f16, 0xfc00, t);
    assert_int_equal(e.flags, GA_ERR_INF);
    assert_true(isinf(e.ulp));
}

/* f = 1 + 2^-12 in float16 (ulp 2^-10 on [1, 2)): rounds to 1. */
static void test_ulp_above_one(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x3c00, 0.5 + 0x1p-13, 1);
    struct ga_error e = measure(f16, 0x3c00, t);
    assert_int_equal(e.flags, OK_FLAGS);
    assert_true(e.ulp == 0.25);
    assert_true(e.abs == 0x1p-12);
    assert_true(e.rel == 0x1p-12 / (1 + 0x1p-12));

    e = measure(f16, 0x3c01, t);  /* 1 + 2^-10: the other bracket */
    assert_int_equal(e.flags, GA_ERR_FAITHFUL);
    assert_true(e.ulp == 0.75 && e.distance == 1);

    /* 1 - 2^-11 is within 0.75 ulp of f but below the binade: not a bracket */
    e = measure(f16, 0x3bff, t);
    assert_int_equal(e.flags, 0);
    assert_true(e.ulp == 0.75 && e.distance == 1);

    /* y = 1 + k 2^-10 is k - 1/4 ulp off */
    for (ga_bits k = 1; k < 200; k++) {
        e = measure(f16, 0x3c00 + k, t);
        assert_true(e.ulp == (double)k - 0.25);
        assert_true(e.distance == k);
        assert_int_equal(e.flags, k == 1 ? GA_ERR_FAITHFUL : 0);
    }
    /* the same below: 1 - k 2^-11 is (k/2 + 1/4) ulp off */
    for (ga_bits k = 1; k < 200; k++) {
        e = measure(f16, 0x3c00 - k, t);
        assert_true(e.ulp == (double)k / 2 + 0.25);
        assert_true(e.distance == k);
    }
}

/* f = 1 - 2^-13 rounds up to 1, but its ulp is the one of [1/2, 1): 2^-11
 * (glibc's ulp of the rounded value would give 1/8). */
static void test_ulp_from_exact_binade(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x3c00, 1 - 0x1p-13, 0);
    struct ga_error e = measure(f16, 0x3c00, t);
    assert_true(e.ulp == 0.25);
    e = measure(f16, 0x3bff, t);  /* 1 - 2^-11: the other bracket */
    assert_int_equal(e.flags, GA_ERR_FAITHFUL);
    assert_true(e.ulp == 0.75);
    e = measure(f16, 0x3c01, t);  /* 1 + 2^-10 */
    assert_int_equal(e.flags, 0);
    assert_true(e.ulp == 2.25);
}

/* Subnormal exact values use the subnormal ulp 2^-24: f = 3.25 * 2^-24. */
static void test_subnormal_ulp(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x0003, 0.8125, -22);
    static const struct { ga_bits y; double ulp; unsigned flags; } cases[] = {
        { 0x0003, 0.25, OK_FLAGS }, { 0x0004, 0.75, GA_ERR_FAITHFUL },
        { 0x0002, 1.25, 0 }, { 0x0005, 1.75, 0 },
        { 0x0000, 3.25, GA_ERR_FLUSHED }, { 0x8000, 3.25, GA_ERR_FLUSHED },
        { 0x8001, 4.25, 0 }, { 0x0400, 1024 - 3.25, 0 },  /* 2^-14, the smallest normal */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ga_error e = measure(f16, cases[i].y, t);
        assert_true(e.ulp == cases[i].ulp);
        assert_true(e.abs == cases[i].ulp * 0x1p-24);
        assert_int_equal(e.flags, cases[i].flags);
    }
    /* the negative mirror */
    t = truth(0x8003, -0.8125, -22);
    struct ga_error e = measure(f16, 0x8004, t);
    assert_true(e.ulp == 0.75);
    assert_int_equal(e.flags, GA_ERR_FAITHFUL);
    e = measure(f16, 0x0003, t);
    assert_true(e.ulp == 6.25 && e.distance == 6);
}

/* Exact values far below the double range: the left tail of GELU. */
static void test_far_below_double(void **state)
{
    (void)state;
    static const long exps[] = { -1000000, GA_EXACT_EXP_MIN };
    for (size_t i = 0; i < sizeof exps / sizeof exps[0]; i++) {
        struct ga_truth t = truth(0x8000, -0.75, exps[i]);
        struct ga_error e = measure(f16, 0x8000, t);
        assert_int_equal(e.flags, OK_FLAGS);
        assert_true(e.ulp == 0.0 && e.abs == 0.0 && e.rel == 1.0);

        e = measure(f16, 0x8001, t);  /* -2^-24: |y| / ulp_subnormal = 1 */
        assert_int_equal(e.flags, GA_ERR_FAITHFUL);
        assert_true(e.ulp == 1.0 && e.abs == 0x1p-24 && isinf(e.rel));

        e = measure(f16, 0x8003, t);
        assert_int_equal(e.flags, 0);
        assert_true(e.ulp == 3.0 && e.distance == 3);

        e = measure(f16, 0x0000, t);  /* +0 for a negative truth */
        assert_int_equal(e.flags, GA_ERR_ZERO_SIGN);
        assert_true(e.ulp == 0.0);

        e = measure(f16, 0x0001, t);  /* wrong side of zero */
        assert_int_equal(e.flags, 0);
        assert_true(e.ulp == 1.0 && e.distance == 1);
    }
}

/* bfloat16's smallest subnormal 2^-133 against f = -0.75 * 2^E: relative
 * errors that a double still holds, on both sides of the 2^-1000 ulp cut. */
static void test_relative_far_below(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x8000, -0.75, -1100);
    struct ga_error e = measure(bf16, 0x8001, t);
    assert_true(e.ulp == 1.0);
    assert_true(fabs(e.rel / ldexp(1 / 0.75, 967) - 1) < 0x1p-50);
    t = truth(0x8000, -0.75, -1150);
    e = measure(bf16, 0x8001, t);
    assert_true(e.ulp == 1.0);
    assert_true(fabs(e.rel / ldexp(1 / 0.75, 1017) - 1) < 0x1p-50);
    t = truth(0x8000, -0.75, -1300);
    e = measure(bf16, 0x8001, t);
    assert_true(isinf(e.rel));
}

static void test_float32(void **state)
{
    (void)state;
    struct ga_truth t = truth(0x3f800000, 0.5 + 0x1p-31, 1);  /* 1 + 2^-30 */
    struct ga_error e = measure(f32, 0x3f800001, t);
    assert_true(e.ulp == 1 - 0x1p-7);
    assert_int_equal(e.flags, GA_ERR_FAITHFUL);
    e = measure(f32, 0x3f800000, t);
    assert_true(e.ulp == 0x1p-7);
    /* the largest finite float32, exactly: a huge scaled output */
    t = truth(0x7f7fffff, 1 - 0x1p-24, 128);
    e = measure(f32, 0x00000001, t);
    assert_true(e.ulp == ldexp(1 - 0x1p-24, 24) - 0x1p-253);
    assert_int_equal(e.flags, 0);
}

/* Random: f = r + d ulp with d = j/2^20 in (-1/2, 1/2), y = r + k inside the
 * binade of r, so the ulp error is |k - d| exactly. */
static void test_random_offsets(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int i = 0; i < 20000; i++) {
        const struct ga_format *f = i % 2 ? f16 : bf16;
        int mbits = ga_mantissa_bits(f);
        ga_bits field = test_rng_encoding_in(&rng, 8, (1u << mbits) - 9);
        ga_bits expo = test_rng_encoding_in(&rng, 1, 2 * (ga_bits)f->emax);
        ga_bits sign = test_rng_below(&rng, 2) ? ga_sign_mask(f) : 0;
        ga_bits r = sign | expo << mbits | field;
        double rv = ga_decode(f, r);
        double ulp = ga_ulp(f, rv);
        long j = (long)test_rng_below(&rng, (1 << 20) - 1) - ((1 << 19) - 1);
        double d = ldexp((double)j, -20);
        double exact = rv + (sign ? -d : d) * ulp;
        int k = (int)test_rng_below(&rng, 15) - 7;
        ga_bits y = (ga_bits)((int)r + k);
        int ex;
        double mant = frexp(exact, &ex);
        struct ga_truth t = truth(r, mant, ex);
        struct ga_error e = measure(f, y, t);
        assert_true(e.ulp == fabs((double)k - d));
        assert_true(e.abs == fabs((double)k - d) * ulp);
        assert_true(fabs(e.rel - e.abs / fabs(exact)) <= 0x1p-52 * e.rel);
        assert_true(e.distance == (uint64_t)abs(k));
        /* faithful: r, or r + 1 on the side of d (encodings step away
         * from zero, so the side of k is that of d) */
        bool faithful = k == 0 || (k == 1 && d > 0) || (k == -1 && d < 0);
        assert_int_equal((e.flags & GA_ERR_FAITHFUL) != 0, faithful);
        assert_int_equal((e.flags & GA_ERR_CORRECT) != 0, k == 0);
    }
}

/* The inline fast path of ga_error_compute, the general function and
 * ga_error_ulp agree bitwise on everything: truths of every kind against
 * outputs near and far. */
static void test_fast_path_agrees(void **state)
{
    (void)state;
    const struct ga_format *fs[] = { f16, bf16, f32 };
    struct test_rng rng = test_rng(1);
    for (int i = 0; i < 300000; i++) {
        const struct ga_format *f = fs[i % 3];
        struct ga_format_layout c;
        struct ga_error fast, general;
        ga_bits mask = ga_all_ones(f);
        uint64_t z = test_rng_next(&rng);
        ga_bits r = (ga_bits)(z >> 32) & mask;
        double rv = ga_decode(f, r);
        int ex = 0;
        double mant = isfinite(rv) && rv != 0 ? frexp(rv, &ex) : rv;
        /* nudge the exact value off the rounded one, inside its rounding range */
        if (isfinite(rv) && rv != 0)
            mant += ldexp((double)(int)(z % 200) - 100, -60);
        long exp = ex;
        switch ((z >> 8) % 8) {
        case 0:  /* a truth that underflows, far or near */
            r = (z & 1) ? ga_sign_mask(f) : 0;
            mant = (z & 1) ? -0.75 : 0.75;
            exp = f->emin - f->precision - (long)((z >> 12) % 2000);
            break;
        case 1:
            exp = (z & 2) ? GA_EXACT_EXP_MIN : exp;
            break;
        default:
            break;
        }
        struct ga_truth t = directed(f, truth(r, mant, exp));
        ga_bits y;
        switch ((z >> 20) % 5) {
        case 0: y = r; break;
        case 1: y = (r + 1) & mask; break;
        case 2: y = (r - 1) & mask; break;
        case 3: y = (z & 4) ? ga_sign_mask(f) : 0; break;  /* flushed */
        default: y = (ga_bits)(z >> 40) & mask; break;
        }
        ga_format_layout_init(&c, f);
        memset(&fast, 0, sizeof fast);
        memset(&general, 0, sizeof general);
        ga_error_compute(&c, y, &t, &fast);
        ga_error_compute_general(&c, y, &t, &general);
        assert_memory_equal(&fast, &general, sizeof fast);
        double ulp = ga_error_ulp(&c, y, &t);  /* the plots' shortcut */
        assert_memory_equal(&ulp, &general.ulp, sizeof ulp);
    }
}

/* A product beyond the overflow threshold (a backward sweep's dy d(x)):
 * the correctly rounded +-inf is no error at all; the largest finite value
 * is an infinite error, as any finite output next to an infinite result. */
static void test_overflow_to_infinity(void **state)
{
    (void)state;
    /* bfloat16: 1.0029 * 0x1.fep127 > (2 - 2^-8) 2^127, the overflow threshold */
    struct ga_truth t = directed(bf16, truth(0x7f80, 0x1.fep-1 * 1.0029, 128));
    struct ga_truth n = directed(bf16, truth(0xff80, -0x1.fep-1 * 1.0029, 128));
    struct ga_error e;

    ga_error_measure(bf16, 0x7f80, &t, &e);
    assert_int_equal(e.flags, GA_ERR_CORRECT | GA_ERR_FAITHFUL);
    assert_true(e.ulp == 0 && e.abs == 0 && e.rel == 0);
    ga_error_measure(bf16, 0xff80, &n, &e);
    assert_int_equal(e.flags, GA_ERR_CORRECT | GA_ERR_FAITHFUL);
    assert_true(e.ulp == 0);
    ga_error_measure(bf16, 0x7f7f, &t, &e);  /* the other bracket: faithful, but finite */
    assert_int_equal(e.flags, GA_ERR_FAITHFUL);
    assert_true(e.ulp > 0 && e.ulp < 1);
    ga_error_measure(bf16, 0xff80, &t, &e);  /* the wrong infinity */
    assert_true(isinf(e.ulp) && !(e.flags & GA_ERR_FAITHFUL));
}

static ga_bits f64_bits(double v)
{
    ga_bits b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* The truth's tail (float64's exact value beyond a double) moves every
 * error: f = (1/2 + 2^-60) 2^E is 2^-7 ulp above 2^(E-1), both in the inline
 * path (E = 1) and in the general one (E = 1023, beyond inline_exp_span);
 * the output above it is 1 - 2^-7 ulp away.  With the tail -2^-60, f lies
 * in the binade below (the certified direction says so), whose ulp is half:
 * 2^-6 ulp, and 1 - 2^-6 from the output below.  Every figure is exact in
 * double. */
static void test_tail(void **state)
{
    const struct ga_format *f64 = ga_format_get(GA_FLOAT64);
    static const long exps[] = { 1, 1023 };
    (void)state;
    for (int i = 0; i < 2; i++) {
        for (int sign = -1; sign <= 1; sign += 2) {
            double base = ldexp(1.0, (int)exps[i] - 1);
            struct ga_truth t = { f64_bits(base), (int8_t)sign, (float)(sign * 0x1p-60),
                                  { 0.5, exps[i] } };
            struct ga_error e;
            double ulp = ldexp(1.0, (int)exps[i] - 53);
            double other = sign > 0 ? nextafter(base, INFINITY) : nextafter(base, 0);
            double error = sign > 0 ? 0x1p-7 : 0x1p-6;

            ga_error_measure(f64, t.rounded, &t, &e);
            assert_true(e.ulp == error);
            assert_true(e.abs == 0x1p-7 * ulp);
            assert_true(e.rel == 0x1p-59);  /* |mant| = 1/2: exact */
            assert_true(e.flags & GA_ERR_CORRECT);
            ga_error_measure(f64, f64_bits(other), &t, &e);
            assert_true(e.ulp == 1 - error);
            assert_true(e.flags & GA_ERR_FAITHFUL);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nan_truth),
        cmocka_unit_test(test_zero_truth),
        cmocka_unit_test(test_inf_truth),
        cmocka_unit_test(test_inf_output),
        cmocka_unit_test(test_ulp_above_one),
        cmocka_unit_test(test_ulp_from_exact_binade),
        cmocka_unit_test(test_subnormal_ulp),
        cmocka_unit_test(test_far_below_double),
        cmocka_unit_test(test_relative_far_below),
        cmocka_unit_test(test_float32),
        cmocka_unit_test(test_random_offsets),
        cmocka_unit_test(test_fast_path_agrees),
        cmocka_unit_test(test_overflow_to_infinity),
        cmocka_unit_test(test_tail),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
