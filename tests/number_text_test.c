/* Numbers as reports print them (src/grade/number_text.c).  Expected
 * strings are worked out by hand from the documented rules (4 significant
 * digits for an error, 3 for a statistic, percentages truncated to 3
 * decimals); the digits of a format value are checked by reading every
 * 16-bit value back (strtod, then rounding to the format) and on float32
 * values whose shortest text needs all 9 digits. */
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
#include "grade/number_text.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;

static const char *error_text(double v)
{
    static char buf[GA_TEXT_LEN];
    return ga_text_error(v, buf);
}

static const char *stat_text(double v)
{
    static char buf[GA_TEXT_LEN];
    return ga_text_stat(v, buf);
}

static const char *percent_text(uint64_t count, uint64_t total)
{
    static char buf[GA_TEXT_LEN];
    return ga_text_percent(count, total, buf);
}

static const char *exact_text(double mant, long exp)
{
    static char buf[GA_TEXT_LEN];
    struct ga_exact e = { mant, exp };
    return ga_text_exact(&e, buf);
}

static void test_error_four_digits(void **state)
{
    (void)state;
    assert_string_equal(error_text(0), "0");
    assert_string_equal(error_text(1.5), "1.5");
    assert_string_equal(error_text(0.50021), "0.5002");
    assert_string_equal(error_text(0.50026), "0.5003");
    assert_string_equal(error_text(12346), "1.235e+04");
    assert_string_equal(error_text(31234567), "3.123e+07");
    assert_string_equal(error_text(0x1p-30), "9.313e-10");   /* 9.3132257e-10 */
    assert_string_equal(error_text(INFINITY), "inf");
    assert_string_equal(error_text(-INFINITY), "-inf");
    assert_string_equal(error_text(NAN), "-");               /* not measured */
}

static void test_stat_three_digits(void **state)
{
    (void)state;
    assert_string_equal(stat_text(0.123456), "0.123");
    assert_string_equal(stat_text(2.0 / 3), "0.667");
    assert_string_equal(stat_text(1e-5), "1e-05");
    assert_string_equal(stat_text(1234.5678), "1.23e+03");
    assert_string_equal(stat_text(0), "0");
    assert_string_equal(stat_text(INFINITY), "inf");
    assert_string_equal(stat_text(NAN), "-");
}

/* Truncated, never rounded up to 100; "100" only when every input counts. */
static void test_percent(void **state)
{
    (void)state;
    assert_string_equal(percent_text(0, 0), "-");
    assert_string_equal(percent_text(10, 10), "100");
    assert_string_equal(percent_text(9, 10), "90.000");
    assert_string_equal(percent_text(0, 5), "0.000");
    assert_string_equal(percent_text(1, 3), "33.333");
    assert_string_equal(percent_text(2, 3), "66.666");            /* 66.6666..., truncated */
    assert_string_equal(percent_text(999999, 1000000), "99.999");  /* 99.9999 */
    assert_string_equal(percent_text(4294967295u, 4294967296u), "99.999");
    assert_string_equal(percent_text(1, 4294967296u), "0.000");
    assert_string_equal(percent_text(65535, 65536), "99.998");    /* 99.99847... */
}

/* Format values: the digits of each format tell every value apart. */
static void check_value_reads_back(const struct ga_format *f, ga_bits x)
{
    char buf[GA_TEXT_LEN];
    const char *text = ga_text_value(f, x, buf);
    ga_bits back = ga_encode(f, strtod(text, NULL));
    if (!ga_same_encoding(f, back, x))
        fail_msg("%s 0x%x printed as %s reads back as 0x%x", f->name, (unsigned)x, text,
                 (unsigned)back);
}

static void test_value_digits(void **state)
{
    char buf[GA_TEXT_LEN];
    struct test_rng rng = test_rng(0);
    (void)state;
    assert_string_equal(ga_text_value(f32, 0x3f800000, buf), "1");
    assert_string_equal(ga_text_value(f32, 0x3dcccccd, buf), "0.100000001");  /* 0.1f */
    assert_string_equal(ga_text_value(f32, 0x3f800001, buf), "1.00000012");   /* 1 + 2^-23 */
    assert_string_equal(ga_text_value(f32, 0x00000001, buf), "1.40129846e-45");
    assert_string_equal(ga_text_value(f16, 0x3c01, buf), "1.001");       /* 1.0009765625 */
    assert_string_equal(ga_text_value(f16, 0x7bff, buf), "65504");
    assert_string_equal(ga_text_value(f16, 0x0001, buf), "5.9605e-08");  /* 2^-24 */
    assert_string_equal(ga_text_value(bf16, 0x3f81, buf), "1.008");      /* 1.0078125 */
    assert_string_equal(ga_text_value(bf16, 0xc040, buf), "-3");
    assert_string_equal(ga_text_value(f16, 0x8000, buf), "-0");
    assert_string_equal(ga_text_value(f16, 0xfc00, buf), "-inf");
    for (ga_bits x = 0; x <= 0xffff; x++) {
        if (ga_classify(f16, x) != GA_NAN)
            check_value_reads_back(f16, x);
        if (ga_classify(bf16, x) != GA_NAN)
            check_value_reads_back(bf16, x);
    }
    for (size_t i = 0; i < test_scaled(100000); i++) {
        ga_bits x = test_rng_encoding(&rng, f32);
        if (ga_classify(f32, x) != GA_NAN)
            check_value_reads_back(f32, x);
    }
}

static void test_exact(void **state)
{
    (void)state;
    assert_string_equal(exact_text(0.75, 1), "1.5");
    assert_string_equal(exact_text(-0.5, -23), "-5.96046448e-08");  /* -2^-24 */
    assert_string_equal(exact_text(0.0, 0), "0");
    assert_string_equal(exact_text(-0.0, 0), "-0");
    assert_string_equal(exact_text(INFINITY, 0), "inf");
    assert_string_equal(exact_text(-INFINITY, 0), "-inf");
    /* inside (-1000, 1000): the value itself; 2^998 = 2.67851e300 ... */
    assert_true(fabs(strtod(exact_text(0.5, 999), NULL) / ldexp(1, 998) - 1) < 1e-8);
    assert_string_equal(exact_text(0.5, -999), "9.33263619e-302");  /* 2^-1000 */
    /* outside, and far outside the double range: significand and exponent */
    assert_string_equal(exact_text(0.5, 1000), "0.5*2^1000");
    assert_string_equal(exact_text(0.5, -1000), "0.5*2^-1000");
    assert_string_equal(exact_text(-0.875, -5000000000L), "-0.875*2^-5000000000");
    assert_string_equal(exact_text(0.6123456789, -1099511627775L),
                        "0.612345679*2^-1099511627775");
    /* below the exponent floor: "smaller than" */
    assert_string_equal(exact_text(0.75, GA_EXACT_EXP_MIN), "<2^-1099511627776");
    assert_string_equal(exact_text(-0.75, GA_EXACT_EXP_MIN), "-<2^-1099511627776");
}

/* 17 digits give every bit of the significand back. */
static void test_exact_digits(void **state)
{
    char buf[GA_TEXT_LEN];
    struct test_rng rng = test_rng(1);
    (void)state;
    struct ga_exact tenth = { 0.1, 0 };
    assert_string_equal(ga_text_exact_digits(&tenth, 17, buf), "0.10000000000000001");
    assert_string_equal(ga_text_exact_digits(&tenth, 3, buf), "0.1");
    for (int i = 0; i < 10000; i++) {
        struct ga_exact e = { test_rng_between(&rng, 0.5, 1.0),
                              (long)test_rng_below(&rng, 1999) - 999 };
        double value = ldexp(e.mant, (int)e.exp);
        assert_true(strtod(ga_text_exact_digits(&e, 17, buf), NULL) == value);
        e.exp = -1000 - (long)test_rng_below(&rng, (1L << 40) - 1000);  /* far, above the floor */
        ga_text_exact_digits(&e, 17, buf);
        char *star = strchr(buf, '*');
        assert_non_null(star);
        assert_true(strtod(buf, NULL) == e.mant);
        assert_true(strtol(star + 3, NULL, 10) == e.exp);
        assert_true(strlen(buf) < GA_TEXT_LEN - 1);
    }
}

static void test_interval(void **state)
{
    char buf[GA_INTERVAL_LEN];
    struct ga_faithful_interval fi = { 0 };
    (void)state;
    assert_string_equal(ga_text_interval(f16, &fi, buf), "none");
    fi = (struct ga_faithful_interval){ .exists = true, .has_lo = true, .has_hi = true,
                                        .lo = 0xc000, .hi = 0x4200 };
    assert_string_equal(ga_text_interval(f16, &fi, buf), "(-2, 3)");
    fi.has_lo = false;
    assert_string_equal(ga_text_interval(f16, &fi, buf), "(-inf, 3)");
    fi.has_hi = false;
    assert_string_equal(ga_text_interval(f16, &fi, buf), "(-inf, inf)");
    fi = (struct ga_faithful_interval){ .exists = true, .has_lo = true, .lo = 0xff7f };
    assert_string_equal(ga_text_interval(bf16, &fi, buf), "(-3.39e+38, inf)");
    fi = (struct ga_faithful_interval){ .exists = true, .has_lo = true, .has_hi = true,
                                        .lo = 0xc1500000, .hi = 0x00000001 };
    assert_string_equal(ga_text_interval(f32, &fi, buf), "(-13, 1.40129846e-45)");
    /* clipped to the measured inputs: a side without an unfaithful input
     * reaches the extent, included */
    fi = (struct ga_faithful_interval){ .exists = true, .has_hi = true, .hi = 0x4200,
                                        .has_extent = true, .extent_lo = 0xc400, .extent_hi = 0x4400 };
    assert_string_equal(ga_text_interval(f16, &fi, buf), "[-4, 3)");
    fi.has_hi = false;
    assert_string_equal(ga_text_interval(f16, &fi, buf), "[-4, 4]");
    fi.extent_lo = 0xfc00;  /* -inf measured */
    assert_string_equal(ga_text_interval(f16, &fi, buf), "[-inf, 4]");
    /* an unfaithful input beyond every measured one on the other side */
    fi = (struct ga_faithful_interval){ .exists = true, .has_lo = true, .lo = 0xc500,
                                        .has_extent = true, .extent_lo = 0xc600, .extent_hi = 0xc500 };
    assert_string_equal(ga_text_interval(f16, &fi, buf), "empty");
    ga_bits nearest = 0;
    assert_true(ga_text_interval_empty(f16, &fi, &nearest));
    assert_int_equal(nearest, 0xc500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_error_four_digits),
        cmocka_unit_test(test_stat_three_digits),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_value_digits),
        cmocka_unit_test(test_exact),
        cmocka_unit_test(test_exact_digits),
        cmocka_unit_test(test_interval),
    };
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    return cmocka_run_group_tests_name("number_text", tests, NULL, NULL);
}
