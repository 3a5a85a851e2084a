/* Formats: encodings, rounding, neighbours, ulp and distance.  Independent
 * references: the hardware's double -> float conversion (float32), GCC's
 * _Float16 conversion (float16), and exhaustive properties (round trips). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "formats/format.h"
#include "formats/parse_value.h"
#include "formats/round_mpfr.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;

/* Every encoding of a 16-bit format decodes to a double that encodes back to
 * the same bits (NaNs to some NaN). */
static void round_trip(const struct ga_format *f)
{
    for (uint32_t x = 0; x <= 0xffff; x++) {
        double v = ga_decode(f, x);
        ga_bits back = ga_encode(f, v);
        if (ga_classify(f, x) == GA_NAN)
            assert_int_equal(ga_classify(f, back), GA_NAN);
        else
            assert_int_equal(back, x);
    }
}

static void test_round_trip_float16(void **state) { (void)state; round_trip(f16); }
static void test_round_trip_bfloat16(void **state) { (void)state; round_trip(bf16); }

/* bfloat16 is the top half of a float32: its decoded values are exactly the
 * float32 values with a zero low half. */
static void test_bfloat16_is_top_half_of_float32(void **state)
{
    (void)state;
    for (uint32_t x = 0; x <= 0xffff; x++)
        if (ga_classify(bf16, x) != GA_NAN)
            assert_int_equal(float_bits((float)ga_decode(bf16, x)), x << 16);
}

/* float16 decoding agrees with GCC's _Float16. */
static void test_float16_matches_gcc(void **state)
{
    (void)state;
    for (uint32_t x = 0; x <= 0xffff; x++) {
        uint16_t h = (uint16_t)x;
        _Float16 v;
        memcpy(&v, &h, sizeof v);
        if (ga_classify(f16, x) != GA_NAN)
            assert_true(ga_decode(f16, x) == (double)v
                        && signbit(ga_decode(f16, x)) == signbit((double)v));
    }
}

/* Rounding doubles: the hardware's double -> float and double -> _Float16
 * conversions round to nearest even; ga_encode must agree on halfway cases,
 * near-halfway cases, subnormals and overflow. */
static void test_encode_matches_hardware(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int i = 0; i < 2000000; i++) {
        double v;
        uint64_t bits = test_rng_next(&rng);
        memcpy(&v, &bits, sizeof v);
        /* Concentrate on the formats' ranges: exponents near float's. */
        v = ldexp(frexp(v, &(int){0}), (int)(bits >> 58) - 40 - (i % 3) * 60);
        if (i % 4 == 0)  /* an exact halfway point between two float32 values */
            v = ((double)(float)v + (double)nextafterf((float)v, INFINITY)) / 2;
        if (isnan(v))
            continue;
        assert_int_equal(ga_encode(f32, v), float_bits((float)v));
        {
            _Float16 h = (_Float16)v;
            uint16_t hb;
            memcpy(&hb, &h, sizeof hb);
            assert_int_equal(ga_encode(f16, v), hb);
        }
    }
}

static void test_halfway_ties_to_even(void **state)
{
    (void)state;
    /* 1 + 2^-8 is halfway between bf16 1 and 1 + 2^-7: even is 1. */
    assert_int_equal(ga_encode(bf16, 1 + 0x1p-8), 0x3f80);
    /* 1 + 3*2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6: even wins. */
    assert_int_equal(ga_encode(bf16, 1 + 3 * 0x1p-8), 0x3f82);
    /* Subnormal halfway: 1.5 * 2^-24 in float16 rounds to 2 * 2^-24. */
    assert_int_equal(ga_encode(f16, 1.5 * 0x1p-24), 0x0002);
    /* Half the smallest subnormal rounds to zero (even), with its sign. */
    assert_int_equal(ga_encode(f16, -0x1p-25), 0x8000);
    assert_int_equal(ga_encode(f16, 0x1p-25 * (1 + 0x1p-30)), 0x0001);
    /* Overflow: 65520 is halfway between 65504 and 2^16: rounds to inf. */
    assert_int_equal(ga_encode(f16, 65519.99), 0x7bff);
    assert_int_equal(ga_encode(f16, 65520), 0x7c00);
    assert_int_equal(ga_encode(bf16, -1e39), 0xff80);
    assert_int_equal(ga_encode(f32, 0x1.ffffffp127), 0x7f800000);  /* halfway past max */
    assert_int_equal(ga_encode(f32, 0x1.fffffefp127), 0x7f7fffff);
}

static void test_classify_and_specials(void **state)
{
    (void)state;
    assert_int_equal(ga_classify(f32, 0x80000000), GA_ZERO);
    assert_int_equal(ga_classify(f32, 0x00000001), GA_SUBNORMAL);
    assert_int_equal(ga_classify(f32, 0x00800000), GA_NORMAL);
    assert_int_equal(ga_classify(f32, 0xff800000), GA_INFINITE);
    assert_int_equal(ga_classify(f32, 0x7f800001), GA_NAN);
    assert_int_equal(ga_classify(f16, 0x7e00), GA_NAN);
    assert_int_equal(ga_infinity(bf16, true), 0xff80);
    assert_int_equal(ga_max_finite(f16, false), 0x7bff);
    assert_true(ga_decode(f16, 0x7bff) == 65504);
    assert_true(ga_decode(bf16, 0x0001) == 0x1p-133);
    assert_true(ga_decode(f32, 0x00000001) == 0x1p-149);
    assert_true(ga_same_encoding(f32, 0x7fc00000, 0xffc00001));
    assert_false(ga_same_encoding(f32, 0x00000000, 0x80000000));
}

static void test_neighbors_and_distance(void **state)
{
    (void)state;
    assert_int_equal(ga_next_up(f16, 0x8000), 0x0001);
    assert_int_equal(ga_next_up(f16, 0x0000), 0x0001);
    assert_int_equal(ga_next_up(f16, 0x8001), 0x8000);
    assert_int_equal(ga_next_down(f16, 0x0001), 0x0000);
    assert_int_equal(ga_next_up(f16, 0x7bff), 0x7c00);
    assert_int_equal(ga_next_up(f16, 0x7c00), 0x7c00);
    assert_int_equal(ga_next_down(f16, 0xfc00), 0xfc00);
    /* next_up walks every non-NaN value in increasing order. */
    for (ga_bits x = ga_infinity(bf16, true); x != ga_infinity(bf16, false);) {
        ga_bits y = ga_next_up(bf16, x);
        assert_true(ga_decode(bf16, y) > ga_decode(bf16, x) || (x == 0x8001 && y == 0x8000));
        assert_int_equal(ga_distance(bf16, x, y), 1);
        x = y;
    }
    assert_int_equal(ga_distance(f16, 0x0000, 0x8000), 0);
    assert_int_equal(ga_distance(f16, 0x0001, 0x8001), 2);
    assert_int_equal(ga_distance(f32, 0x3f800000, 0x3f800003), 3);
}

/* ulp at a value: Zimmermann's definition, subnormal ulp below 2^emin. */
static void test_ulp(void **state)
{
    (void)state;
    assert_true(ga_ulp(f32, 1.0) == 0x1p-23);
    assert_true(ga_ulp(f32, 1.9999) == 0x1p-23);
    assert_true(ga_ulp(f32, 0.75) == 0x1p-24);
    assert_true(ga_ulp(f32, 0x1p-130) == 0x1p-149);
    assert_true(ga_ulp(f32, 0.0) == 0x1p-149);
    assert_true(ga_ulp(f16, 1000) == 0.5);
    assert_true(ga_ulp(f16, 1e-6) == 0x1p-24);
    assert_true(ga_ulp(bf16, -3.0) == 0x1p-6);
}

/* Rounding an MPFR value agrees with rounding the same double. */
static void test_round_mpfr_matches_encode(void **state)
{
    mpfr_t v;
    (void)state;
    mpfr_init2(v, 53);
    for (uint32_t x = 0; x <= 0xffff; x++) {
        double d = ga_decode(f32, x << 16) * (1 + 0x1p-9) ;  /* between bf16 values */
        if (isnan(d))
            continue;
        mpfr_set_d(v, d, MPFR_RNDN);
        assert_int_equal(ga_round_mpfr(bf16, v), ga_encode(bf16, d));
        assert_int_equal(ga_round_mpfr(f16, v), ga_encode(f16, d));
    }
    mpfr_clear(v);
}

static void test_parse(void **state)
{
    ga_bits b;
    (void)state;
    assert_int_equal(ga_parse_value(f32, "0.1", &b), 0);
    assert_int_equal(b, float_bits(0.1f));
    assert_int_equal(ga_parse_value(f32, "-0x1.8p-149", &b), 0);
    assert_int_equal(b, 0x80000002);  /* halfway, to even */
    assert_int_equal(ga_parse_value(f16, "-inf", &b), 0);
    assert_int_equal(b, 0xfc00);
    assert_int_equal(ga_parse_value(f16, "nan", &b), 0);
    assert_int_equal(ga_classify(f16, b), GA_NAN);
    /* 1 + 2^-8 + 2^-80 is just above a bf16 halfway point: a double would
     * round it to the halfway point and then to even (1); correct is up. */
    assert_int_equal(ga_parse_value(bf16, "0x1.010000000000000000001p0", &b), 0);
    assert_int_equal(b, 0x3f81);
    assert_int_equal(ga_parse_value(f32, "1.5x", &b), -1);
    assert_int_equal(ga_parse_value(f32, "", &b), -1);
    assert_int_equal(ga_parse_bits(f16, "0x1ffff", &b), -2);
    assert_int_equal(ga_parse_bits(f16, "0xfg", &b), -1);
    assert_int_equal(ga_parse_bits(f16, "3c00", &b), 0);
    assert_int_equal(b, 0x3c00);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_float16),
        cmocka_unit_test(test_round_trip_bfloat16),
        cmocka_unit_test(test_bfloat16_is_top_half_of_float32),
        cmocka_unit_test(test_float16_matches_gcc),
        cmocka_unit_test(test_encode_matches_hardware),
        cmocka_unit_test(test_halfway_ties_to_even),
        cmocka_unit_test(test_classify_and_specials),
        cmocka_unit_test(test_neighbors_and_distance),
        cmocka_unit_test(test_ulp),
        cmocka_unit_test(test_round_mpfr_matches_encode),
        cmocka_unit_test(test_parse),
    };
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
