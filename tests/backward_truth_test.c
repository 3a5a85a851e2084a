/* The backward truth RN_F(dy * d(x)) against values established
 * independently: the IEEE table of special operands, the exact cases
 * (x = +-0: dy/2 with its ties to even), and a second method written here:
 * d(x) at 600 bits by other formulas (Phi from erf, the tanh form's
 * derivative through sech^2 = 1/cosh^2), times dy, rounded into the format by
 * MPFR's own subnormal emulation.  The fast path (ga_backward_truth) and the
 * MPFR path (ga_backward_mpfr) must both agree with it, on random pairs, next
 * to the root x0, on subnormal and overflowing products, and on every dy
 * mantissa for the 16-bit values of x around x0. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "truth/backward.h"
#include "test_random.h"

#define X0 (-0.7517915247)
static const struct ga_format *f32, *f16, *bf16;
static const enum ga_function grads[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

/* d(x) at precision prec by the test's own formulas. */
static void reference_grad(enum ga_function fn, double xd, mpfr_t d, mpfr_prec_t prec)
{
    mpfr_t x, t, u, c;

    mpfr_inits2(prec, x, t, u, c, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);
    if (fn == GA_GELU_GRAD) {
        /* Phi(x) = (1 + erf(x / sqrt 2)) / 2, x phi(x) = x exp(-x^2/2) / sqrt(2 pi) */
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_div(t, x, t, MPFR_RNDN);
        mpfr_erf(t, t, MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_div_ui(t, t, 2, MPFR_RNDN);
        mpfr_sqr(u, x, MPFR_RNDN);
        mpfr_div_si(u, u, -2, MPFR_RNDN);
        mpfr_exp(u, u, MPFR_RNDN);
        mpfr_mul(u, u, x, MPFR_RNDN);
        mpfr_const_pi(c, MPFR_RNDN);
        mpfr_mul_ui(c, c, 2, MPFR_RNDN);
        mpfr_sqrt(c, c, MPFR_RNDN);
        mpfr_div(u, u, c, MPFR_RNDN);
        mpfr_add(d, t, u, MPFR_RNDN);
    } else {
        /* u = beta (x + kappa x^3), d = (1 + tanh u)/2 + x beta (1 + 3 kappa x^2) / (2 cosh^2 u) */
        mpfr_const_pi(c, MPFR_RNDN);
        mpfr_ui_div(c, 2, c, MPFR_RNDN);
        mpfr_sqrt(c, c, MPFR_RNDN);                       /* beta */
        mpfr_sqr(t, x, MPFR_RNDN);
        mpfr_mul_ui(t, t, 44715, MPFR_RNDN);
        mpfr_div_ui(t, t, 1000000, MPFR_RNDN);            /* kappa x^2 */
        mpfr_add_ui(u, t, 1, MPFR_RNDN);
        mpfr_mul(u, u, x, MPFR_RNDN);
        mpfr_mul(u, u, c, MPFR_RNDN);                     /* u */
        mpfr_mul_ui(t, t, 3, MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDN);
        mpfr_mul(t, t, c, MPFR_RNDN);
        mpfr_mul(t, t, x, MPFR_RNDN);                     /* x beta (1 + 3 kappa x^2) */
        mpfr_cosh(c, u, MPFR_RNDN);
        mpfr_sqr(c, c, MPFR_RNDN);
        mpfr_div(t, t, c, MPFR_RNDN);
        mpfr_tanh(u, u, MPFR_RNDN);
        mpfr_add_ui(u, u, 1, MPFR_RNDN);
        mpfr_add(d, u, t, MPFR_RNDN);
        mpfr_div_2ui(d, d, 1, MPFR_RNDN);
    }
    mpfr_clears(x, t, u, c, (mpfr_ptr)0);
}

/* v rounded to nearest even into f, with f's subnormals and overflow to
 * infinity: MPFR's emulation (mpfr_subnormalize) in f's exponent range. */
static ga_bits round_into(const struct ga_format *f, mpfr_srcptr v)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    int inex;
    double d;

    mpfr_init2(r, f->precision);
    mpfr_set_emin(f->emin - f->precision + 2);
    mpfr_set_emax(f->emax + 1);
    inex = mpfr_set(r, v, MPFR_RNDN);
    inex = mpfr_check_range(r, inex, MPFR_RNDN);
    mpfr_subnormalize(r, inex, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    d = mpfr_get_d(r, MPFR_RNDN);
    mpfr_clear(r);
    return ga_encode(f, d);  /* exact: d is a value of f, or +-inf, or a signed zero */
}

/* The reference for finite x, dy (x != 0, dy != 0, |x| <= 8), or 0 when the
 * 600-bit product lies within 2^-500 of a rounding boundary. */
static int reference(enum ga_function fn, const struct ga_format *f, ga_bits x, ga_bits dy,
                     ga_bits *out)
{
    mpfr_t d, lo, hi;
    ga_bits a, b;

    mpfr_inits2(700, d, lo, hi, (mpfr_ptr)0);
    reference_grad(fn, ga_decode(f, x), d, 600);
    mpfr_mul_d(d, d, ga_decode(f, dy), MPFR_RNDN);      /* exact */
    mpfr_mul_2si(lo, d, -500, MPFR_RNDN);
    mpfr_abs(lo, lo, MPFR_RNDN);
    mpfr_add(hi, d, lo, MPFR_RNDN);
    mpfr_sub(lo, d, lo, MPFR_RNDN);
    a = round_into(f, lo);
    b = round_into(f, hi);
    mpfr_clears(d, lo, hi, (mpfr_ptr)0);
    *out = a;
    return a == b;
}

/* Both paths agree with the reference bitwise, and their directions agree. */
static int check_pair(enum ga_function fn, const struct ga_format *f, ga_bits x, ga_bits dy)
{
    struct ga_grad_value g;
    struct ga_truth fast, slow;
    ga_bits want;

    assert_int_equal(ga_grad_value(fn, ga_decode(f, x), &g), GA_TRUTH_OK);
    assert_int_equal(ga_backward_truth(fn, f, &g, x, dy, &fast), GA_TRUTH_OK);
    assert_int_equal(ga_backward_mpfr(fn, f, x, dy, &slow), GA_TRUTH_OK);
    if (!ga_same_encoding(f, fast.rounded, slow.rounded) || fast.direction != slow.direction)
        fail_msg("%s %s x=0x%x dy=0x%x: fast 0x%x (%d), mpfr 0x%x (%d)", ga_function_name(fn),
                 f->name, x, dy, fast.rounded, fast.direction, slow.rounded, slow.direction);
    if (!reference(fn, f, x, dy, &want))
        return 0;
    if (fast.rounded != want)
        fail_msg("%s %s x=0x%x dy=0x%x: 0x%x, reference 0x%x", ga_function_name(fn), f->name, x,
                 dy, fast.rounded, want);
    return 1;
}

static struct ga_truth backward(enum ga_function fn, const struct ga_format *f, double x, double dy)
{
    struct ga_grad_value g;
    struct ga_truth t, m;
    ga_bits xb = ga_encode(f, x), dyb = ga_encode(f, dy);

    assert_int_equal(ga_grad_value(fn, ga_decode(f, xb), &g), GA_TRUTH_OK);
    assert_int_equal(ga_backward_truth(fn, f, &g, xb, dyb, &t), GA_TRUTH_OK);
    assert_int_equal(ga_backward_mpfr(fn, f, xb, dyb, &m), GA_TRUTH_OK);
    assert_true(ga_same_encoding(f, t.rounded, m.rounded));
    assert_int_equal(t.direction, m.direction);
    return t;
}

/* IEEE rules on the exact product, with d(-inf) = -0, d(+inf) = 1,
 * d(+-0) = 1/2, and d < 0 left of x0, > 0 right of it. */
static void test_specials(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
            const struct ga_format *f = formats[i];
            enum ga_function fn = grads[j];
            double inf = INFINITY, tiny = ga_decode(f, ga_min_subnormal(f, false));
            double big = ga_decode(f, ga_max_finite(f, false));
            assert_true(ga_is_nan(f, backward(fn, f, NAN, 1).rounded));
            assert_true(ga_is_nan(f, backward(fn, f, 1, NAN).rounded));
            assert_true(ga_is_nan(f, backward(fn, f, -inf, inf).rounded));   /* -0 * inf */
            assert_true(ga_is_nan(f, backward(fn, f, -inf, -inf).rounded));
            assert_int_equal(backward(fn, f, inf, inf).rounded, ga_infinity(f, false));
            assert_int_equal(backward(fn, f, inf, -3).rounded, ga_encode(f, -3));  /* d = 1 */
            assert_int_equal(backward(fn, f, -inf, 2).rounded, ga_zero(f, true));  /* -0 * 2 */
            assert_int_equal(backward(fn, f, -inf, -2).rounded, ga_zero(f, false));
            assert_int_equal(backward(fn, f, 1, -inf).rounded, ga_infinity(f, true));
            assert_int_equal(backward(fn, f, -2, inf).rounded, ga_infinity(f, true));   /* d(-2) < 0 */
            assert_int_equal(backward(fn, f, -2, -inf).rounded, ga_infinity(f, false));
            assert_int_equal(backward(fn, f, -0.5, inf).rounded, ga_infinity(f, false)); /* d(-0.5) > 0 */
            assert_int_equal(backward(fn, f, 1, 0.0).rounded, ga_zero(f, false));
            assert_int_equal(backward(fn, f, 1, -0.0).rounded, ga_zero(f, true));
            assert_int_equal(backward(fn, f, -2, 0.0).rounded, ga_zero(f, true));
            assert_int_equal(backward(fn, f, -2, -0.0).rounded, ga_zero(f, false));
            assert_int_equal(backward(fn, f, -inf, 0.0).rounded, ga_zero(f, true));
            assert_int_equal(backward(fn, f, 0.0, -0.0).rounded, ga_zero(f, true));
            /* x = +-0: dy/2 exactly, then rounded: the smallest subnormal halves
             * to a tie that goes to the even 0, three of them to two */
            assert_int_equal(backward(fn, f, -0.0, 6).rounded, ga_encode(f, 3));
            struct ga_truth t = backward(fn, f, 0.0, tiny);
            assert_int_equal(t.rounded, ga_zero(f, false));
            assert_int_equal(t.direction, 1);
            assert_int_equal(backward(fn, f, 0.0, -3 * tiny).rounded, ga_encode(f, -2 * tiny));
            assert_int_equal(backward(fn, f, 0.0, big).rounded, ga_encode(f, big / 2));
            /* x next to 0: d(x) = 1/2 + x (phi(0) + ...) breaks the tie of
             * tiny/2 towards x's side (d > 1/2 for x > 0, < 1/2 for x < 0) */
            assert_int_equal(backward(fn, f, tiny, tiny).rounded, ga_encode(f, tiny));
            assert_int_equal(backward(fn, f, -tiny, tiny).rounded, ga_zero(f, false));
            assert_int_equal(backward(fn, f, -tiny, -3 * tiny).rounded, ga_encode(f, -tiny));
            assert_int_equal(backward(fn, f, tiny, -3 * tiny).rounded, ga_encode(f, -2 * tiny));
            /* far tails: d(x) vanishes left (a zero of -sign(dy)), is 1 right */
            t = backward(fn, f, -big, big);
            assert_int_equal(t.rounded, ga_zero(f, true));
            assert_int_equal(t.direction, -1);
            assert_int_equal(backward(fn, f, -big, -big).rounded, ga_zero(f, false));
            assert_int_equal(backward(fn, f, -big, inf).rounded, ga_infinity(f, true));
            t = backward(fn, f, big, big);
            assert_int_equal(t.rounded, ga_encode(f, big));
            assert_int_equal(t.direction, 1);
            /* overflow: 2 * d(2) > 1 times the largest value */
            assert_int_equal(backward(fn, f, 2, big).rounded, ga_infinity(f, false));
            assert_int_equal(backward(fn, f, 2, -big).rounded, ga_infinity(f, true));
        }
}

/* An encoding within `spread` steps of x0 in f. */
static ga_bits near_root(struct test_rng *r, const struct ga_format *f, unsigned spread)
{
    ga_bits c = ga_encode(f, X0);
    return c - spread + (ga_bits)test_rng_below(r, 2 * spread + 1);
}

/* A dy whose product with d(x) in [0.1, 1.2] lands among f's subnormals. */
static ga_bits tiny_dy(struct test_rng *r, const struct ga_format *f)
{
    ga_bits m = (ga_bits)test_rng_below(r, (ga_bits)1 << (f->precision + 2));
    ga_bits b = ga_min_subnormal(f, false) + m;  /* subnormals and the first normals */
    return test_rng_below(r, 2) ? ga_negate(f, b) : b;
}

static void random_pairs(const struct ga_format *f, size_t n)
{
    struct test_rng r = test_rng(f->id);
    size_t compared = 0, total = 0;
    for (int j = 0; j < 2; j++)
        for (size_t i = 0; i < n; i++) {
            ga_bits x, dy;
            double xd;
            switch (i % 4) {
            case 0:  /* any finite x in [-8, 8], any finite dy */
                do x = test_rng_encoding(&r, f), xd = ga_decode(f, x);
                while (!(fabs(xd) <= 8 && xd != 0));
                do dy = test_rng_encoding(&r, f);
                while (!isfinite(ga_decode(f, dy)) || ga_decode(f, dy) == 0);
                break;
            case 1:  /* next to the root */
                x = near_root(&r, f, f == f32 ? 4096 : 8);
                dy = ga_encode(f, test_rng_between(&r, -4, 4));
                break;
            case 2:  /* subnormal products */
                x = ga_encode(f, test_rng_between(&r, 0.5, 6));
                dy = tiny_dy(&r, f);
                break;
            default: /* near overflow */
                x = ga_encode(f, test_rng_between(&r, -3, 8));
                dy = ga_next_down(f, ga_max_finite(f, false)) - (ga_bits)test_rng_below(&r, 64);
                break;
            }
            if (ga_decode(f, dy) == 0)
                continue;
            compared += (size_t)check_pair(grads[j], f, x, dy);
            total++;
        }
    print_message("# %s: %zu of %zu pairs compared with the 600-bit reference\n", f->name,
                  compared, total);
    assert_true(compared >= total - total / 100);
}

static void test_random_float32(void **state) { (void)state; random_pairs(f32, test_scaled(1500)); }
static void test_random_float16(void **state) { (void)state; random_pairs(f16, test_scaled(1500)); }
static void test_random_bfloat16(void **state) { (void)state; random_pairs(bf16, test_scaled(1500)); }

/* Every x within a few steps of x0 times every dy mantissa at three
 * exponents (1, subnormal products, overflow), in the 16-bit formats. */
static void test_root_every_mantissa(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };
    (void)state;
    for (int i = 0; i < 2; i++) {
        const struct ga_format *f = formats[i];
        ga_bits c = ga_encode(f, X0);
        ga_bits mants = (ga_bits)1 << (f->precision - 1), step = f == f16 ? 8 : 1;
        int scales[] = { 0, f->emin - 1, f->emax };
        for (int j = 0; j < 2; j++)
            for (ga_bits x = c - 3; x <= c + 3; x++)
                for (int s = 0; s < 3; s++)
                    for (ga_bits m = 0; m < mants; m += step) {
                        ga_bits dy = ga_encode(f, ldexp(1 + (double)m / mants, scales[s]));
                        check_pair(grads[j], f, x, dy);
                    }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_random_float32),
        cmocka_unit_test(test_random_float16),
        cmocka_unit_test(test_random_bfloat16),
        cmocka_unit_test(test_root_every_mantissa),
    };
    test_random_init();
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
