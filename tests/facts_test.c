/* The facts (report/facts.c), each checked by an independent property:
 * the derivative, written naively at 256 bits, changes sign across the
 * minimum's bracket; the forward oracle near x0 agrees with the minimum's
 * value; the derivative of each difference changes sign at its largest, and
 * no point of a fine grid (libm, double) exceeds it; the -0 thresholds are -0
 * in the truth and the next input toward zero is not; published figures
 * (x0 = -0.7517915247, gelu(x0) = -0.1699712075) to ten digits; in the
 * small formats the -0 sets agree input by input with libm's gelu against
 * half the least subnormal; each rounded minimum is the format's nearest to
 * gelu at the bracket, written naively at 256 bits. */
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

/* The wide formats: at the threshold the truth is -0, at the next input
 * toward zero it is not; next to zero the set is the least subnormal alone
 * (gelu(x) = x/2 + x^2/sqrt(2 pi) + ...: at -d just under d/2 in magnitude,
 * at -2d just under d). */
static void test_zero_thresholds(void **state)
{
    (void)state;
    for (int i = 0; i < GA_FORMAT_COUNT; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)i);
            struct ga_truth t;
            ga_bits x = facts.zero_from[i][fn];
            if (ga_is_small_format(f))
                continue;
            assert_true(facts.has_zero_from[i][fn]);
            assert_false(facts.all_zero[i][fn]);
            assert_true(ga_decode(f, x) < -3);
            assert_int_equal(ga_truth_mpfr((enum ga_function)fn, f, x, &t), GA_TRUTH_OK);
            assert_int_equal(t.rounded, ga_zero(f, true));
            assert_int_equal(ga_truth_mpfr((enum ga_function)fn, f, ga_next_up(f, x), &t),
                             GA_TRUTH_OK);
            assert_int_not_equal(t.rounded, ga_zero(f, true));
            assert_int_not_equal(t.rounded, ga_zero(f, false));
            assert_true(facts.has_zero_near[i][fn]);
            assert_int_equal(facts.zero_near[i][fn], ga_min_subnormal(f, true));
        }
}

/* The small formats, input by input: libm's value (relative error far below
 * 10^-6) against half the least subnormal, where the truth turns -0; inputs
 * within 10^-6 of that edge are left undecided (none is expected). */
static void test_zero_sets_small(void **state)
{
    (void)state;
    for (int i = GA_FIRST_SMALL_FORMAT; i <= GA_LAST_SMALL_FORMAT; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)i);
            double half_least = ga_decode(f, ga_min_subnormal(f, false)) / 2;
            ga_bits sign = ga_sign_mask(f), max = ga_max_finite(f, false);
            unsigned zeros = 0, decided = 0;
            for (ga_bits mag = 1; mag <= max; mag++) {
                double x = ga_decode(f, mag | sign);
                double g = fabs(curve(fn == GA_GELU ? GELU : TANH, x));
                bool listed = facts.all_zero[i][fn]
                    || (facts.has_zero_from[i][fn] && x <= ga_decode(f, facts.zero_from[i][fn]))
                    || (facts.has_zero_near[i][fn] && x >= ga_decode(f, facts.zero_near[i][fn]));
                if (g < half_least * (1 - 1e-6)) {
                    assert_true(listed);
                    zeros++;
                } else if (g > half_least * (1 + 1e-6)) {
                    assert_false(listed);
                } else {
                    continue;
                }
                decided++;
            }
            assert_int_equal(decided, max);
            assert_int_equal(facts.all_zero[i][fn], zeros == max);
        }
    /* by hand: |gelu| <= 0.17 < 0.25, half float4's least subnormal */
    assert_true(facts.all_zero[GA_FLOAT4_E2M1][GA_GELU]);
    /* float8_e4m3fn: gelu(-3.5) = -8.1e-4 < 2^-10 < gelu(-3.25) = -1.9e-3 in magnitude */
    assert_int_equal(facts.zero_from[GA_FLOAT8_E4M3FN][GA_GELU], 0xc6);
}

/* gelu(x) = (x/2)(1 + erf(x/sqrt2)) or the tanh form, at 256 bits. */
static void value(enum curve c, double xd, mpfr_ptr r)
{
    mpfr_t x, t;

    mpfr_inits2(256, x, t, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);
    if (c == GELU) {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, x, t, MPFR_RNDN);
        mpfr_erf(t, t, MPFR_RNDN);
    } else {
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_ui_div(t, 2, t, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);
        mpfr_set_ui(r, 44715, MPFR_RNDN);
        mpfr_div_ui(r, r, 1000000, MPFR_RNDN);
        mpfr_mul(r, r, x, MPFR_RNDN);
        mpfr_mul(r, r, x, MPFR_RNDN);
        mpfr_add_ui(r, r, 1, MPFR_RNDN);
        mpfr_mul(r, r, x, MPFR_RNDN);
        mpfr_mul(t, t, r, MPFR_RNDN);             /* u = beta x (1 + kappa x^2) */
        mpfr_tanh(t, t, MPFR_RNDN);
    }
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_mul(r, t, x, MPFR_RNDN);
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    mpfr_clears(x, t, (mpfr_ptr)0);
}

/* |v - y| for an encoding y of f, into d. */
static void gap(const struct ga_format *f, ga_bits y, mpfr_srcptr v, mpfr_ptr d)
{
    mpfr_set_d(d, ga_decode(f, y), MPFR_RNDN);   /* exact: f's values are doubles */
    mpfr_sub(d, d, v, MPFR_RNDN);                /* exact at 256 bits: exponents close */
    mpfr_abs(d, d, MPFR_RNDN);
}

/* Each rounded minimum is no farther from the minimum's value than either
 * neighbour, and negative (or -0). */
static void test_minimum_rounded(void **state)
{
    const struct ga_fact_minimum *m[2] = { &facts.gelu_minimum, &facts.tanh_minimum };
    mpfr_t v, d, e;

    (void)state;
    mpfr_inits2(256, v, d, e, (mpfr_ptr)0);
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        value(fn == GA_GELU ? GELU : TANH, m[fn]->hi, v);
        for (int i = 0; i < GA_FORMAT_COUNT; i++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)i);
            ga_bits y = facts.minimum_rounded[i][fn];
            assert_true(ga_sign(f, y));
            gap(f, y, v, d);
            for (int side = 0; side < 2; side++) {
                ga_bits n = side ? ga_next_up(f, y) : ga_next_down(f, y);
                if (ga_decode(f, n) == ga_decode(f, y))
                    continue;  /* -0 and +0 */
                gap(f, n, v, e);
                assert_true(mpfr_cmp(d, e) < 0);
            }
        }
    }
    /* published: gelu(x0) = -0.1699712075, whose float32 neighbours are
     * 0xbe2e0cef = -0.16997121274471283 and 0xbe2e0cee = -0.16997119784355164 */
    assert_int_equal(facts.minimum_rounded[GA_FLOAT32][GA_GELU], 0xbe2e0cef);
    mpfr_clears(v, d, e, (mpfr_ptr)0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_minimum_of_gelu),
        cmocka_unit_test(test_minimum_of_tanh_form),
        cmocka_unit_test(test_largest_differences),
        cmocka_unit_test(test_zero_thresholds),
        cmocka_unit_test(test_zero_sets_small),
        cmocka_unit_test(test_minimum_rounded),
    };
    if (ga_facts_compute(&facts) != 0) {
        fprintf(stderr, "ga_facts_compute failed\n");
        return 1;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
