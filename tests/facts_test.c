/* The facts (report/facts.c), each checked by an independent property:
 * the derivative, written naively at 256 bits, changes sign across the
 * minimum's bracket; the forward oracle near x0 agrees with the minimum's
 * value; the derivative of each difference changes sign at its largest, and
 * no point of a fine grid (libm, double) exceeds it; the -0 thresholds are -0
 * in the truth and the next input toward zero is not; published figures
 * (x0 = -0.7517915247, gelu(x0) = -0.1699712075) to ten digits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "report/facts.h"
#include "truth/truth.h"

static struct ga_facts facts;

enum curve { GELU, TANH, QUICK };

/* The derivative of a curve at x, at 256 bits, from its textbook form:
 * gelu' = (1 + erf(x/sqrt2))/2 + x exp(-x^2/2)/sqrt(2 pi); the tanh form's
 * 0.5(1 + tanh u) + 0.5 x (1 - tanh^2 u) beta (1 + 3 kappa x^2); quick's
 * s + a x s (1 - s), s = sigmoid(a x). */
static void derivative(enum curve c, double xd, mpfr_ptr r)
{
    mpfr_t x, t, b;

    mpfr_inits2(256, x, t, b, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);
    if (c == GELU) {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, x, t, MPFR_RNDN);
        mpfr_erf(t, t, MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_div_2ui(r, t, 1, MPFR_RNDN);
        mpfr_sqr(t, x, MPFR_RNDN);
        mpfr_div_si(t, t, -2, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_mul(t, t, x, MPFR_RNDN);
        mpfr_const_pi(b, MPFR_RNDN);
        mpfr_mul_2ui(b, b, 1, MPFR_RNDN);
        mpfr_sqrt(b, b, MPFR_RNDN);
        mpfr_div(t, t, b, MPFR_RNDN);
        mpfr_add(r, r, t, MPFR_RNDN);
    } else if (c == TANH) {
        mpfr_const_pi(b, MPFR_RNDN);
        mpfr_ui_div(b, 2, b, MPFR_RNDN);
        mpfr_sqrt(b, b, MPFR_RNDN);               /* beta */
        mpfr_set_ui(r, 44715, MPFR_RNDN);
        mpfr_div_ui(r, r, 1000000, MPFR_RNDN);
        mpfr_pow_ui(t, x, 3, MPFR_RNDN);
        mpfr_mul(t, t, r, MPFR_RNDN);
        mpfr_add(t, t, x, MPFR_RNDN);
        mpfr_mul(t, t, b, MPFR_RNDN);
        mpfr_tanh(t, t, MPFR_RNDN);               /* tanh u */
        mpfr_add_ui(r, t, 1, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);         /* 0.5 (1 + tanh u) */
        mpfr_sqr(t, t, MPFR_RNDN);
        mpfr_ui_sub(t, 1, t, MPFR_RNDN);          /* 1 - tanh^2 u */
        mpfr_mul(t, t, x, MPFR_RNDN);
        mpfr_mul(t, t, b, MPFR_RNDN);
        mpfr_sqr(b, x, MPFR_RNDN);
        mpfr_mul_ui(b, b, 3 * 44715, MPFR_RNDN);
        mpfr_div_ui(b, b, 1000000, MPFR_RNDN);
        mpfr_add_ui(b, b, 1, MPFR_RNDN);
        mpfr_mul(t, t, b, MPFR_RNDN);
        mpfr_div_2ui(t, t, 1, MPFR_RNDN);
        mpfr_add(r, r, t, MPFR_RNDN);
    } else {
        mpfr_mul_ui(t, x, 1702, MPFR_RNDN);
        mpfr_div_ui(t, t, 1000, MPFR_RNDN);       /* a x */
        mpfr_neg(b, t, MPFR_RNDN);
        mpfr_exp(b, b, MPFR_RNDN);
        mpfr_add_ui(b, b, 1, MPFR_RNDN);
        mpfr_ui_div(b, 1, b, MPFR_RNDN);          /* s */
        mpfr_ui_sub(r, 1, b, MPFR_RNDN);
        mpfr_mul(r, r, b, MPFR_RNDN);
        mpfr_mul(r, r, t, MPFR_RNDN);
        mpfr_add(r, r, b, MPFR_RNDN);
    }
    mpfr_clears(x, t, b, (mpfr_ptr)0);
}

static int derivative_sign(enum curve c, double x)
{
    mpfr_t r;
    int sign;

    mpfr_init2(r, 256);
    derivative(c, x, r);
    sign = mpfr_sgn(r);
    mpfr_clear(r);
    return sign;
}

/* The sign of (approx - gelu)'(x). */
static int difference_slope_sign(enum curve c, double x)
{
    mpfr_t a, g;
    int sign;

    mpfr_inits2(256, a, g, (mpfr_ptr)0);
    derivative(c, x, a);
    derivative(GELU, x, g);
    mpfr_sub(a, a, g, MPFR_RNDN);
    sign = mpfr_sgn(a);
    mpfr_clears(a, g, (mpfr_ptr)0);
    return sign;
}

static void check_minimum(const struct ga_fact_minimum *m, enum curve c)
{
    assert_true(m->lo < m->hi);
    assert_true(nextafter(nextafter(m->lo, 0), 0) >= m->hi);  /* within 2 ulps */
    assert_int_equal(derivative_sign(c, m->lo), -1);
    assert_int_equal(derivative_sign(c, m->hi), 1);
}

static void test_minimum_of_gelu(void **state)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32);
    struct ga_truth t;
    (void)state;
    check_minimum(&facts.gelu_minimum, GELU);
    assert_true(fabs(facts.gelu_minimum.hi - -0.7517915247) < 1e-10);
    assert_true(fabs(facts.gelu_minimum.value - -0.1699712075) < 1e-10);
    /* gelu at the float32 next to x0 lies above the minimum by at most
     * 0.22 (3e-8)^2 = 2e-16 (gelu'' = phi (2 - x^2) < 0.44 there) */
    assert_int_equal(ga_truth_mpfr(GA_GELU, f32, ga_encode(f32, facts.gelu_minimum.hi), &t),
                     GA_TRUTH_OK);
    double g = ldexp(t.exact.mant, (int)t.exact.exp);
    assert_true(g >= facts.gelu_minimum.value - 1e-17);
    assert_true(g <= facts.gelu_minimum.value + 3e-16);
}

static void test_minimum_of_tanh_form(void **state)
{
    (void)state;
    check_minimum(&facts.tanh_minimum, TANH);
    assert_true(fabs(facts.tanh_minimum.hi - -0.75246) < 1e-5);
    assert_true(fabs(facts.tanh_minimum.value - -0.17004) < 1e-5);
}

/* libm versions of the curves, for the grid */
static double curve(enum curve c, double x)
{
    if (c == GELU)
        return 0.5 * x * erfc(-x / sqrt(2.0));
    if (c == TANH)
        return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    return x / (1 + exp(-GA_QUICK_GELU_ALPHA * x));
}

static void check_largest(const struct ga_fact_largest_difference *d, enum curve c, double x_ref,
                          double diff_ref)
{
    double h = 1e-9 * d->x;
    /* (approx - gelu)' changes sign at the largest: away from zero before it
     * (the difference grows in magnitude), towards zero after */
    int before = difference_slope_sign(c, d->x - h), after = difference_slope_sign(c, d->x + h);
    assert_int_equal(before, d->diff > 0 ? 1 : -1);
    assert_int_equal(after, d->diff > 0 ? -1 : 1);
    assert_true(fabs(d->x - x_ref) < 1e-4 && fabs(d->diff - diff_ref) < 1e-6);
    /* no grid point beats it (double evaluation: error < 1e-15) */
    for (double x = -12; x <= 12; x += 1.0 / 256)
        assert_true(fabs(curve(c, x) - curve(GELU, x)) <= fabs(d->diff) + 1e-15);
    assert_true(fabs(curve(c, d->x) - curve(GELU, d->x) - d->diff) <= 1e-15);
}

static void test_largest_differences(void **state)
{
    (void)state;
    check_largest(&facts.tanh_difference, TANH, 2.6989, 4.7324e-4);
    check_largest(&facts.quick_difference, QUICK, 2.2704, -2.0335e-2);
}

/* At the threshold the truth is -0; at the next input toward zero it is not. */
static void test_zero_thresholds(void **state)
{
    (void)state;
    for (int i = 0; i < GA_FIRST_SMALL_FORMAT; i++)  /* the facts cover the wide formats */
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)i);
            struct ga_truth t;
            ga_bits x = facts.zero_from[i][fn];
            assert_true(facts.has_zero_from[i][fn]);
            assert_true(ga_decode(f, x) < -3);
            assert_int_equal(ga_truth_mpfr((enum ga_function)fn, f, x, &t), GA_TRUTH_OK);
            assert_int_equal(t.rounded, ga_zero(f, true));
            assert_int_equal(ga_truth_mpfr((enum ga_function)fn, f, ga_next_up(f, x), &t),
                             GA_TRUTH_OK);
            assert_int_not_equal(t.rounded, ga_zero(f, true));
            assert_int_not_equal(t.rounded, ga_zero(f, false));
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_of_gelu),
        cmocka_unit_test(test_minimum_of_tanh_form),
        cmocka_unit_test(test_largest_differences),
        cmocka_unit_test(test_zero_thresholds),
    };
    if (ga_facts_compute(&facts) != 0) {
        fprintf(stderr, "ga_facts_compute failed\n");
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
