/* The MPFR oracle against values established independently: published values
 * of Phi, the GELU minimum, the underflow thresholds from the asymptotic
 * expansion, tiny inputs, the identity gelu(x) - gelu(-x) = x, and a second
 * method (the naive formulas at 256 bits, rounded through MPFR's own
 * exponent-range emulation). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"
#include <mpfr.h>

#include "truth/truth.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;

static struct ga_truth truth_of(enum ga_function fn, const struct ga_format *f, ga_bits x)
{
    struct ga_truth t;
    assert_int_equal(ga_truth_mpfr(fn, f, x, &t), GA_TRUTH_OK);
    return t;
}

static double exact_double(const struct ga_exact *e)
{
    return ldexp(e->mant, (int)e->exp);
}

/* Phi(1), Phi(2), Phi(-1), Phi(-3) from tables of the normal distribution
 * (NIST/SEMATECH e-Handbook; 16 digits): gelu(x) = x Phi(x). */
static void test_published_phi(void **state)
{
    static const struct { double x, phi; } table[] = {
        { 1, 0.8413447460685429 },
        { 2, 0.9772498680518208 },
        { -1, 0.15865525393145707 },
        { -3, 0.0013498980316300946 },
        { 0.5, 0.6914624612740131 },
    };
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        double expected = table[i].x * table[i].phi;
        struct ga_truth t = truth_of(GA_GELU, f32, float_bits((float)table[i].x));
        assert_true(fabs(exact_double(&t.exact) - expected) <= 4e-16 * fabs(expected));
        assert_int_equal(t.rounded, float_bits((float)expected));
    }
}

/* The minimum of GELU: x ~ -0.7517915247, value ~ -0.1699712075 (the root
 * of Phi(x) + x phi(x)); no float32 input gives a smaller exact value, and
 * the nearest input comes within float precision of the minimum. */
static void test_minimum(void **state)
{
    float x0 = -0.7517915247f;
    double least = 0;
    (void)state;
    for (int k = -2000; k <= 2000; k++) {
        float x = x0 + k * 0x1p-20f;
        struct ga_truth t = truth_of(GA_GELU, f32, float_bits(x));
        double v = exact_double(&t.exact);
        assert_true(v >= -0.16997120751);
        if (v < least)
            least = v;
    }
    assert_true(fabs(least + 0.1699712075) < 1e-10);
}

/* The first negative input whose GELU rounds to -0, from the asymptotic
 * expansion |gelu(x)| = phi(x)(1 - 1/x^2 + 3/x^4 - 15/x^6 ...) solved in
 * double for half the smallest subnormal; the oracle must switch to -0
 * within a few encodings of it, and stay -0 below. */
static double asymptotic_log2_gelu(double x)
{
    double s = 1 - 1 / (x * x) + 3 / pow(x, 4) - 15 / pow(x, 6);
    return (-x * x / 2 - 0.5 * log(2 * M_PI) + log(s)) / M_LN2;
}

static void check_underflow_threshold(const struct ga_format *f)
{
    double half_min = f->emin - f->precision;  /* log2 of half the smallest subnormal */
    double lo = -40, hi = -3;
    ga_bits x, first_zero = 0;

    for (int i = 0; i < 200; i++) {  /* bisection on the asymptotic form */
        double mid = (lo + hi) / 2;
        if (asymptotic_log2_gelu(mid) < half_min)
            lo = mid;
        else
            hi = mid;
    }
    /* Walk the encodings from just above the estimate downwards. */
    ga_bits start = ga_next_up(f, ga_next_up(f, ga_encode(f, hi * (1 - 1e-5))));

    assert_int_not_equal(truth_of(GA_GELU, f, start).rounded, ga_zero(f, true));
    for (x = start; ; x = ga_next_down(f, x)) {
        struct ga_truth t = truth_of(GA_GELU, f, x);
        if (t.rounded == ga_zero(f, true)) {
            first_zero = x;
            break;
        }
        assert_true(ga_decode(f, x) > hi * (1 + 1e-5) - 2 * ga_ulp(f, hi));
    }
    for (int k = 0; k < 200; k++) {
        x = ga_next_down(f, x);
        assert_int_equal(truth_of(GA_GELU, f, x).rounded, ga_zero(f, true));
    }
    printf("# %s: gelu(x) rounds to -0 from x = %.9g (asymptotic estimate %.9g)\n",
           f->name, ga_decode(f, first_zero), hi);
}

static void test_underflow_thresholds(void **state)
{
    (void)state;
    check_underflow_threshold(f32);
    check_underflow_threshold(f16);
    check_underflow_threshold(bf16);
}

/* Near 0, gelu(x) = x/2 + x^2/sqrt(2 pi) + O(x^4). */
static void test_tiny_inputs(void **state)
{
    (void)state;
    for (int e = -20; e >= -60; e -= 5) {
        double x = -ldexp(1.25, e);
        double series = x / 2 + x * x / sqrt(2 * M_PI);
        struct ga_truth t = truth_of(GA_GELU, f32, float_bits((float)x));
        assert_true(fabs(exact_double(&t.exact) - series) <= 1e-15 * fabs(series));
    }
    /* Subnormal x = 3 * 2^-149: x/2 is halfway between 2^-149 and 2^-148 and the
     * x^2 term is positive, so the result rounds up; for -x, towards zero. */
    assert_int_equal(truth_of(GA_GELU, f32, 0x00000003).rounded, 0x00000002);
    assert_int_equal(truth_of(GA_GELU, f32, 0x80000003).rounded, 0x80000001);
    assert_int_equal(truth_of(GA_GELU_TANH, f32, 0x00000005).rounded, 0x00000003);
    assert_int_equal(truth_of(GA_GELU_TANH, f32, 0x80000005).rounded, 0x80000002);
    /* Same in float16: x = 2^-24 (smallest subnormal): x/2 is halfway between 0
     * and 2^-24; for x > 0 it rounds up, for x < 0 it rounds to -0. */
    assert_int_equal(truth_of(GA_GELU, f16, 0x0001).rounded, 0x0001);
    assert_int_equal(truth_of(GA_GELU, f16, 0x8001).rounded, 0x8000);
    /* bfloat16 x = 2^-133 as well. */
    assert_int_equal(truth_of(GA_GELU, bf16, 0x0001).rounded, 0x0001);
    assert_int_equal(truth_of(GA_GELU, bf16, 0x8001).rounded, 0x8000);
}

static void test_special_values(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int i = 0; i < 3; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = formats[i];
            assert_int_equal(truth_of(fn, f, ga_infinity(f, false)).rounded, ga_infinity(f, false));
            assert_int_equal(truth_of(fn, f, ga_infinity(f, true)).rounded, ga_zero(f, true));
            assert_int_equal(truth_of(fn, f, ga_zero(f, false)).rounded, ga_zero(f, false));
            assert_int_equal(truth_of(fn, f, ga_zero(f, true)).rounded, ga_zero(f, true));
            assert_int_equal(ga_classify(f, truth_of(fn, f, ga_quiet_nan(f)).rounded), GA_NAN);
            assert_int_equal(ga_classify(f, truth_of(fn, f, ga_quiet_nan(f) | 1).rounded), GA_NAN);
            /* the largest finite input: gelu(x) = x to far below an ulp */
            assert_int_equal(truth_of(fn, f, ga_max_finite(f, false)).rounded, ga_max_finite(f, false));
            assert_int_equal(truth_of(fn, f, ga_max_finite(f, true)).rounded, ga_zero(f, true));
        }
}

/* gelu(x) - gelu(-x) = x for both functions (Phi(x) + Phi(-x) = 1, tanh odd),
 * checked on the exact values over every positive bfloat16 input in [2^-10, 8]. */
static void test_odd_identity(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
        for (ga_bits x = 0x3a80; x <= 0x4100; x++) {
            double xd = ga_decode(bf16, x);
            struct ga_truth pos = truth_of(fn, bf16, x);
            struct ga_truth neg = truth_of(fn, bf16, ga_negate(bf16, x));
            double a = exact_double(&pos.exact), b = exact_double(&neg.exact);
            assert_true(fabs((a - b) - xd) <= 0x1p-51 * fabs(xd));
        }
}

/* The tanh form at a few points, computed in long double from its definition
 * (64-bit significand; the form has no cancellation for x > 0). */
static void test_tanh_form_values(void **state)
{
    (void)state;
    for (double x = 0.25; x < 6; x += 0.5) {
        long double u = sqrtl(2 / 3.14159265358979323846264338327950288L)
                      * (x + 0.044715L * x * x * x);
        long double g = 0.5L * x * (1 + tanhl(u));
        struct ga_truth t = truth_of(GA_GELU_TANH, f32, float_bits((float)x));
        assert_true(fabsl(exact_double(&t.exact) - g) <= 1e-15L * g);
    }
}

/* Second method: the naive formulas (x/2)(1 + erf(x/sqrt2)) and
 * (x/2)(1 + tanh(u)) at 256 bits, rounded with MPFR's exponent range set to
 * the format's and mpfr_subnormalize (doc/formats.md).  256 bits
 * absorb the cancellation for the inputs sampled (x > -9). */
static ga_bits second_method(enum ga_function fn, const struct ga_format *f, double x)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t v, t, r;
    int inexact;
    ga_bits out;

    mpfr_inits2(256, v, t, (mpfr_ptr)0);
    mpfr_init2(r, f->precision);
    mpfr_set_d(v, x, MPFR_RNDN);
    if (fn == GA_GELU) {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, v, t, MPFR_RNDN);
        mpfr_erf(t, t, MPFR_RNDN);
    } else {
        mpfr_pow_ui(t, v, 3, MPFR_RNDN);
        mpfr_mul_ui(t, t, 44715, MPFR_RNDN);
        mpfr_div_ui(t, t, 1000000, MPFR_RNDN);
        mpfr_add(t, t, v, MPFR_RNDN);
        {
            mpfr_t beta;
            mpfr_init2(beta, 256);
            mpfr_const_pi(beta, MPFR_RNDN);
            mpfr_ui_div(beta, 2, beta, MPFR_RNDN);
            mpfr_sqrt(beta, beta, MPFR_RNDN);
            mpfr_mul(t, t, beta, MPFR_RNDN);
            mpfr_clear(beta);
        }
        mpfr_tanh(t, t, MPFR_RNDN);
    }
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_mul(t, t, v, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_set_emin(f->emin - f->precision + 2);
    mpfr_set_emax(f->emax + 1);
    inexact = mpfr_set(r, t, MPFR_RNDN);
    inexact = mpfr_check_range(r, inexact, MPFR_RNDN);
    mpfr_subnormalize(r, inexact, MPFR_RNDN);
    out = ga_encode(f, mpfr_get_d(r, MPFR_RNDN));
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clears(v, t, r, (mpfr_ptr)0);
    return out;
}

static void test_second_method(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int i = 0; i < 20000; i++) {
        /* float32 inputs in (-9, 9), log-uniform in magnitude */
        uint32_t r = (uint32_t)test_rng_next(&rng);
        double x = ldexp(1 + (r & 0xffffff) * 0x1p-24, (int)(r >> 24) % 40 - 37);
        if (r & 0x80)
            x = -x;
        x = (float)x;
        if (fabs(x) >= 9)
            continue;
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            ga_bits b = float_bits((float)x);
            assert_int_equal(truth_of(fn, f32, b).rounded, second_method(fn, f32, x));
        }
    }
    /* every bfloat16 and float16 input in (-9, 9) */
    for (ga_bits x = 0; x <= 0xffff; x++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            if (fabs(ga_decode(bf16, x)) < 9)
                assert_int_equal(truth_of(fn, bf16, x).rounded,
                                 second_method(fn, bf16, ga_decode(bf16, x)));
            if (fabs(ga_decode(f16, x)) < 9)
                assert_int_equal(truth_of(fn, f16, x).rounded,
                                 second_method(fn, f16, ga_decode(f16, x)));
        }
}

/* Every 16-bit input of both functions is decided below the precision cap,
 * and results agree with the sign convention: negative x gives a negative
 * result or -0, and |gelu(x)| <= max(x, 0) in magnitude terms. */
static void test_all_16bit_decided(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };
    (void)state;
    for (int i = 0; i < 2; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            for (ga_bits x = 0; x <= 0xffff; x++) {
                const struct ga_format *f = formats[i];
                struct ga_truth t = truth_of(fn, f, x);
                if (ga_classify(f, x) == GA_NAN)
                    continue;
                assert_int_equal(ga_sign(f, t.rounded), ga_sign(f, x));
                if (!ga_sign(f, x))
                    assert_true(ga_decode(f, t.rounded) <= ga_decode(f, x));
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_published_phi),
        cmocka_unit_test(test_minimum),
        cmocka_unit_test(test_underflow_thresholds),
        cmocka_unit_test(test_tiny_inputs),
        cmocka_unit_test(test_odd_identity),
        cmocka_unit_test(test_tanh_form_values),
        cmocka_unit_test(test_second_method),
        cmocka_unit_test(test_all_16bit_decided),
    };
    test_random_init();
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
