/* The derivative oracles (gelu_grad, gelu_tanh_grad) against values
 * established independently: special values and limits, published values of
 * Phi, the root x0 of gelu' (the minimum of GELU), the identity
 * d(x) + d(-x) = 1 that both derivatives satisfy exactly, the shape of gelu'
 * (gelu'' = phi (2 - x^2)), and a second method: the symmetric difference
 * quotient of the forward formulas at 512 bits, which never evaluates the
 * derivative formula. */
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

#include "formats/round_mpfr.h"
#include "truth/truth.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;
static const enum ga_function grads[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

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

/* d(NaN) = NaN, d(+inf) = 1, d(-inf) = -0, d(+-0) = 1/2, in every format. */
static void test_special_values(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            const struct ga_format *f = formats[i];
            struct ga_truth t = truth_of(grads[j], f, ga_quiet_nan(f));
            assert_true(ga_is_nan(f, t.rounded));
            t = truth_of(grads[j], f, ga_infinity(f, false));
            assert_int_equal(t.rounded, ga_encode(f, 1.0));
            t = truth_of(grads[j], f, ga_infinity(f, true));
            assert_int_equal(t.rounded, ga_zero(f, true));
            for (int s = 0; s < 2; s++) {
                t = truth_of(grads[j], f, ga_zero(f, s));
                assert_int_equal(t.rounded, ga_encode(f, 0.5));
                assert_int_equal(t.direction, 0);
            }
        }
}

/* gelu'(x) = Phi(x) + x phi(x) with Phi from tables of the normal
 * distribution (NIST/SEMATECH e-Handbook, 16 digits) and phi(x) =
 * exp(-x^2/2)/sqrt(2 pi) from the C library (a few ulps). */
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
        double x = table[i].x;
        double expected = table[i].phi + x * exp(-x * x / 2) / sqrt(2 * M_PI);
        struct ga_truth t = truth_of(GA_GELU_GRAD, f32, float_bits((float)x));
        assert_true(fabs(exact_double(&t.exact) - expected) <= 1e-15 * fabs(expected));
        assert_int_equal(t.rounded, float_bits((float)expected));
    }
}

/* gelu' changes sign once, at x0 = -0.75179152469... (the minimum of GELU,
 * doc/mathematics.md): negative at the float32 just below it, positive at
 * the one just above, tiny at both; likewise in the 16-bit formats. */
static void test_root(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    const double x0 = -0.7517915246935;
    (void)state;
    for (int i = 0; i < 3; i++) {
        const struct ga_format *f = formats[i];
        ga_bits above = ga_encode(f, x0), below;  /* rounds toward zero here */
        if (ga_decode(f, above) < x0)
            above = ga_next_up(f, above);
        below = ga_next_down(f, above);
        struct ga_truth tb = truth_of(GA_GELU_GRAD, f, below);
        struct ga_truth ta = truth_of(GA_GELU_GRAD, f, above);
        assert_true(ga_sign(f, tb.rounded));
        assert_false(ga_sign(f, ta.rounded));
        assert_true(exact_double(&tb.exact) < 0 && exact_double(&ta.exact) > 0);
        /* |gelu'(x)| <= 0.44 |x - x0| near x0 (gelu'' = phi (2 - x^2) = 0.4315 at x0) */
        assert_true(fabs(exact_double(&tb.exact)) <= 0.44 * (fabs(ga_decode(f, below) - x0) + 1e-13));
        assert_true(fabs(exact_double(&ta.exact)) <= 0.44 * (fabs(ga_decode(f, above) - x0) + 1e-13));
    }
}

/* d(x) + d(-x) = 1 for both derivatives (d(x) - 1/2 is odd: Phi(x) - 1/2
 * and x phi(x) are odd, and so are tanh u and x sech^2(u) (1 + 3 kappa x^2)):
 * the exact values agree to 2^-49 and the rounded results to half an ulp
 * each. */
static void test_reflection(void **state)
{
    struct test_rng rng = test_rng(1);
    (void)state;
    for (int i = 0; i < 3000; i++) {
        double x = (float)test_rng_between(&rng, 0, 12);
        ga_bits b = float_bits((float)x);
        for (int j = 0; j < 2; j++) {
            struct ga_truth p = truth_of(grads[j], f32, b), m = truth_of(grads[j], f32, b ^ 0x80000000u);
            double ep = exact_double(&p.exact), em = exact_double(&m.exact);
            double rp = ga_decode(f32, p.rounded), rm = ga_decode(f32, m.rounded);
            assert_true(fabs(ep + em - 1) <= 0x1p-49 * (fabs(ep) + fabs(em)));
            assert_true(fabs(rp + rm - 1) <= (ga_ulp(f32, rp) + ga_ulp(f32, rm)) / 2);
        }
    }
}

/* gelu'' = phi(x) (2 - x^2): gelu' rises on [-sqrt2, sqrt2] from its minimum
 * 1 - M to its maximum M = Phi(sqrt2) + sqrt2 phi(sqrt2) = 1.1289041 and falls
 * outside towards 0 and 1 (the tanh form's extremes, 1.12899 near x = 1.42
 * and -0.12899, differ by 1e-4; the bounds allow one ulp of rounding).  Correct rounding keeps that
 * order; every 16-bit input is decided, and the tails have the signs the
 * oracle relies on (d < 0 for x <= -1, d >= 1 for x >= 1), for both forms. */
static void test_shape_16bit(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };
    (void)state;
    for (int i = 0; i < 2; i++) {
        const struct ga_format *f = formats[i];
        double prev = -INFINITY;
        for (int j = 0; j < 2; j++)
            for (ga_bits x = 0; x <= 0xffff; x++) {
                struct ga_truth t = truth_of(grads[j], f, x);
                double xd = ga_decode(f, x), r = ga_decode(f, t.rounded);
                if (isnan(xd))
                    continue;
                if (xd <= -1)
                    assert_true(ga_sign(f, t.rounded) && r <= 0);
                if (xd >= 1)
                    assert_true(r >= 1);
                assert_true(r >= -0.1290 - ga_ulp(f, 0.129) && r <= 1.1290 + ga_ulp(f, 1.129));
            }
        /* gelu' non-decreasing on [-sqrt2, sqrt2], in encoding order from below */
        for (ga_bits x = ga_encode(f, -1.4142); ; x = ga_next_up(f, x)) {
            double xd = ga_decode(f, x), r;
            if (xd > 1.4142)
                break;
            r = ga_decode(f, truth_of(GA_GELU_GRAD, f, x).rounded);
            assert_true(r >= prev);
            prev = r;
        }
    }
}

/* Second method: (F(x + h) - F(x - h)) / 2h at 512 bits with h = 2^-150,
 * F the forward formula (x/2)(1 + erf(x/sqrt2)) or (x/2)(1 + tanh u).  The
 * truncation error is below h^2 |F'''| / 6 < 2^-298 and the cancellation
 * costs 150 bits of 512: far below the distance of any sampled value to a
 * rounding boundary unless the test fails.  Rounded by ga_round_mpfr. */
static void forward_512(enum ga_function fn, mpfr_ptr r, mpfr_srcptr v)
{
    mpfr_t t, beta;

    mpfr_inits2(512, t, beta, (mpfr_ptr)0);
    if (fn == GA_GELU_GRAD) {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, v, t, MPFR_RNDN);
        mpfr_erf(t, t, MPFR_RNDN);
    } else {
        mpfr_pow_ui(t, v, 3, MPFR_RNDN);
        mpfr_mul_ui(t, t, 44715, MPFR_RNDN);
        mpfr_div_ui(t, t, 1000000, MPFR_RNDN);
        mpfr_add(t, t, v, MPFR_RNDN);
        mpfr_const_pi(beta, MPFR_RNDN);
        mpfr_ui_div(beta, 2, beta, MPFR_RNDN);
        mpfr_sqrt(beta, beta, MPFR_RNDN);
        mpfr_mul(t, t, beta, MPFR_RNDN);
        mpfr_tanh(t, t, MPFR_RNDN);
    }
    mpfr_add_ui(t, t, 1, MPFR_RNDN);
    mpfr_mul(r, t, v, MPFR_RNDN);
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    mpfr_clears(t, beta, (mpfr_ptr)0);
}

static ga_bits difference_quotient(enum ga_function fn, const struct ga_format *f, double x)
{
    mpfr_t v, a, b;
    ga_bits out;

    mpfr_inits2(512, v, a, b, (mpfr_ptr)0);
    mpfr_set_d(v, x, MPFR_RNDN);
    mpfr_add_d(v, v, 0x1p-150, MPFR_RNDN);  /* exact at 512 bits for |x| >= 2^-300 */
    forward_512(fn, a, v);
    mpfr_set_d(v, x, MPFR_RNDN);
    mpfr_sub_d(v, v, 0x1p-150, MPFR_RNDN);
    forward_512(fn, b, v);
    mpfr_sub(a, a, b, MPFR_RNDN);
    mpfr_mul_2si(a, a, 149, MPFR_RNDN);    /* / 2h */
    out = ga_round_mpfr(f, a);
    mpfr_clears(v, a, b, (mpfr_ptr)0);
    return out;
}

static void test_second_method(void **state)
{
    struct test_rng rng = test_rng(2);
    (void)state;
    for (size_t i = 0; i < test_scaled(4000); i++) {
        /* float32 in (-8, 8), log-uniform in magnitude down to 2^-40 (beyond
         * |x| = 9, 1 + tanh u cancels more bits than 512 - 150) */
        double x = (float)ldexp(1 + test_rng_uniform(&rng), (int)test_rng_below(&rng, 43) - 40);
        if (test_rng_next(&rng) & 1)
            x = -x;
        for (int j = 0; j < 2; j++)
            assert_int_equal(truth_of(grads[j], f32, float_bits((float)x)).rounded,
                             difference_quotient(grads[j], f32, x));
    }
    /* float32 next to both roots: every 64th input of [-0.7525, -0.7505] and
     * the 200 around x0 */
    for (uint32_t b = float_bits(-0.7505f); b <= float_bits(-0.7525f); b += 64)
        for (int j = 0; j < 2; j++)
            assert_int_equal(truth_of(grads[j], f32, b).rounded,
                             difference_quotient(grads[j], f32, ga_decode(f32, b)));
    for (uint32_t b = float_bits(-0.75179152f) - 100; b <= float_bits(-0.75179152f) + 100; b++)
        assert_int_equal(truth_of(GA_GELU_GRAD, f32, b).rounded,
                         difference_quotient(GA_GELU_GRAD, f32, ga_decode(f32, b)));
    /* every bfloat16 input in (-9, 9), nonzero */
    for (ga_bits x = 0; x <= 0xffff; x++) {
        double xd = ga_decode(bf16, x);
        if (!(fabs(xd) < 9) || xd == 0)
            continue;
        for (int j = 0; j < 2; j++)
            assert_int_equal(truth_of(grads[j], bf16, x).rounded,
                             difference_quotient(grads[j], bf16, xd));
    }
}

/* The tanh form's derivative at points computed by hand from its defining
 * formula in long double (tanhl; relative error ~1e-18 away from the root). */
static void test_tanh_form_values(void **state)
{
    static const double xs[] = { 1, 2, -1, -3, 0.5, 3.5 };
    const long double beta = 0.797884560802865355879892119868763737L, kappa = 0.044715L;
    (void)state;
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        long double x = xs[i], u = beta * (x + kappa * x * x * x), th = tanhl(u);
        long double g = 0.5L * (1 + th) + 0.5L * x * (1 - th * th) * beta * (1 + 3 * kappa * x * x);
        struct ga_truth t = truth_of(GA_GELU_TANH_GRAD, f32, float_bits((float)x));
        assert_true(fabsl(exact_double(&t.exact) - g) <= 1e-14L * fabsl(g));
        assert_int_equal(t.rounded, float_bits((float)g));
    }
}

/* Far tails: -0 from below on the left, 1 from above on the right, in
 * every format, including inputs where MPFR's exponent range underflows. */
/* Both tails in every format, float64's included up to its largest finite
 * value (the MPFR oracle alone: it once reached its precision cap beyond
 * 1e154, where the enclosure's coefficients overflow a double). */
static void test_tails(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16, ga_format_get(GA_FLOAT64) };
    static const double xs[] = { 60, 1e3, 6e4, 1e7, 1e10, 3e38, 1e155, 1e300, 0x1.fffffffffffffp1023 };
    (void)state;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
            for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++) {
                const struct ga_format *f = formats[i];
                ga_bits x = ga_encode(f, xs[k]);
                if (ga_classify(f, x) == GA_INFINITE)
                    continue;
                struct ga_truth r = truth_of(grads[j], f, x), l = truth_of(grads[j], f, ga_negate(f, x));
                assert_int_equal(r.rounded, ga_encode(f, 1.0));
                assert_int_equal(r.direction, 1);
                assert_int_equal(l.rounded, ga_zero(f, true));
                assert_int_equal(l.direction, -1);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_published_phi),
        cmocka_unit_test(test_root),
        cmocka_unit_test(test_reflection),
        cmocka_unit_test(test_tanh_form_values),
        cmocka_unit_test(test_tails),
        cmocka_unit_test(test_shape_16bit),
        cmocka_unit_test(test_second_method),
    };
    test_random_init();
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
