/* The audit's left-tail bound (truth/left_tail_bound.c) against its own
 * analysis and against the MPFR oracle: it fires exactly from
 * -sqrt(-2 s ln 2) down (s the exponent of the smallest subnormal), and
 * wherever it fires the Ziv loop rounds gelu(x) to -0 with the exact value
 * below it (every negative bfloat16 and float16 input, a float32 sample). */
#include <math.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "truth/left_tail_bound.h"
#include "truth/truth.h"

static float float_of(uint32_t bits)
{
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* exp(-x^2/2) <= 2^-149 exactly when |x| >= sqrt(298 ln 2) = 14.3721...:
 * the float32 inputs a few ulps either side of that point. */
static void test_float32_threshold(void **state)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32);
    float t = -sqrtf(298.0f * logf(2.0f));

    (void)state;
    assert_true(t < -14.37f && t > -14.38f);
    assert_true(ga_gelu_left_tail_vanishes(f32, nextafterf(nextafterf(t, -INFINITY), -INFINITY)));
    assert_false(ga_gelu_left_tail_vanishes(f32, nextafterf(nextafterf(t, 0.0f), 0.0f)));
    assert_true(ga_gelu_left_tail_vanishes(f32, -20.0));
    assert_true(ga_gelu_left_tail_vanishes(f32, -3.4e38));
    assert_false(ga_gelu_left_tail_vanishes(f32, -14.0));
    assert_false(ga_gelu_left_tail_vanishes(f32, -INFINITY));
    assert_false(ga_gelu_left_tail_vanishes(f32, NAN));
    assert_false(ga_gelu_left_tail_vanishes(f32, 20.0));
}

/* Where the bound fires, the Ziv loop says: -0, exact value below it. */
static void assert_agrees(const struct ga_format *f, ga_bits x)
{
    struct ga_truth t;

    assert_int_equal(ga_truth_mpfr(GA_GELU, f, x, &t), GA_TRUTH_OK);
    assert_true(t.rounded == ga_zero(f, true));
    assert_int_equal(t.direction, -1);
}

/* Every negative finite input: the bound fires from -sqrt(-2 s ln 2) down
 * and not above it (a relative margin of 1e-6 around that point), and
 * wherever it fires the Ziv loop agrees. */
static void every_negative(enum ga_format_id id)
{
    const struct ga_format *f = ga_format_get(id);
    int s = f->emin - f->precision + 1;
    double threshold = -sqrt(-2.0 * s * log(2.0));
    ga_bits sign = (ga_bits)1 << (f->bits - 1);
    size_t fired = 0;

    for (ga_bits x = sign + 1; x < 2 * sign; x++) {
        double v = ga_decode(f, x);
        bool fires;
        if (!isfinite(v))
            continue;
        fires = ga_gelu_left_tail_vanishes(f, v);
        if (v < threshold * (1 + 1e-6))
            assert_true(fires);
        if (v > threshold * (1 - 1e-6))
            assert_false(fires);
        if (fires) {
            assert_agrees(f, x);
            fired++;
        }
    }
    assert_true(fired > 100);
}

static void test_bfloat16_every_negative(void **state)
{
    (void)state;
    every_negative(GA_BFLOAT16);  /* s = -133: from -13.578 */
}

static void test_float16_every_negative(void **state)
{
    (void)state;
    every_negative(GA_FLOAT16);   /* s = -24: from -5.768 */
}

/* float32 inputs on [-40, -14.37] on a stride. */
static void test_float32_sample(void **state)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32);
    size_t fired = 0;

    (void)state;
    for (uint32_t x = 0xc165f000u; x <= 0xc2200000u; x += 4999) {
        if (!ga_gelu_left_tail_vanishes(f32, float_of(x)))
            continue;
        assert_agrees(f32, x);
        fired++;
    }
    assert_true(fired > 2000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float32_threshold),
        cmocka_unit_test(test_bfloat16_every_negative),
        cmocka_unit_test(test_float16_every_negative),
        cmocka_unit_test(test_float32_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
