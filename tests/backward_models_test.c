/* The backward catalogue against the formulas it names, evaluated here
 * directly in double from the mathematics (not from the models' float
 * code): Phi(x) + x phi(x) for the exact derivative, the tanh form's
 * derivative with each model's constants, s + k x s (1 - s) for quick GELU.
 * The models round in float (once) or in the format (every operation), so
 * the bound is a few roundings of the terms' magnitudes, far below what a
 * wrong term, sign or constant would give.  Plus an exact property: d(0) = 1/2
 * in every formula, so dx(0, dy) = RN(dy/2) for every model; and jax's
 * prepared form (prepare once per x, pair per dy) against its scalar form,
 * bit for bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "formats/codec.h"
#include "impls/backward.h"
#include "test_random.h"

/* dy * d(x) in double, and the magnitude of the terms the models form. */
static double direct(const struct ga_backward_impl *impl, double x, double dy, double *size)
{
    const char *n = impl->name;
    double d, a, b;

    if (strncmp(n, "quick", 5) == 0) {
        double s = 1 / (1 + exp(-1.702 * x));
        a = s;
        b = 1.702 * x * s * (1 - s);
    } else if (impl->approximates == GA_GELU_GRAD) {
        a = 0.5 * erfc(-x / sqrt(2));
        b = x * exp(-x * x / 2) / sqrt(2 * M_PI);
    } else {
        int megatron = strncmp(n, "megatron", 8) == 0;
        double beta = megatron ? 0.79788456 : sqrt(2 / M_PI);
        double c3 = megatron ? 0.1070322243 : 3 * 0.044715 * sqrt(2 / M_PI);
        double t = tanh(beta * x * (1 + 0.044715 * x * x));
        a = 0.5 * (1 + t);
        b = 0.5 * x * (1 - t * t) * (beta + c3 * x * x);
    }
    d = a + b;
    /* 1 + erf and 1 + tanh are formed in the models: their absolute error
     * is that of 1, not of the small cdf left of 0 */
    *size = fabs(dy) * (1 + fabs(b));
    return dy * d;
}

static void test_against_formulas(void **state)
{
    struct test_rng r = test_rng(13);
    (void)state;
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
        const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
        for (int id = 0; id < 3; id++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)id);
            int native = strstr(impl->name, "_native") != NULL || strncmp(impl->name, "jax", 3) == 0;
            if (!ga_backward_supports(impl, f))
                continue;
            for (size_t k = 0; k < test_scaled(4000); k++) {
                ga_bits x = ga_encode(f, test_rng_between(&r, -6, 6));
                ga_bits dy = ga_encode(f, test_rng_between(&r, -4, 4)), dx;
                double size, want = direct(impl, ga_decode(f, x), ga_decode(f, dy), &size);
                /* float: a few float roundings of the terms plus one of f;
                 * native: several roundings in f */
                double tol = (native ? ldexp(size, 5 - f->precision) : size * 0x1p-19)
                           + 2 * ga_ulp(f, want);
                ga_backward_run(impl, f, &dy, &x, &dx, 1);
                if (!(fabs(ga_decode(f, dx) - want) <= tol))
                    fail_msg("%s %s x=%a dy=%a: dx %a, formula %a (tolerance %a)", impl->name,
                             f->name, ga_decode(f, x), ga_decode(f, dy), ga_decode(f, dx), want, tol);
            }
        }
    }
}

static void test_half_at_zero(void **state)
{
    (void)state;
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
        const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
        for (int id = 0; id < 3; id++) {
            const struct ga_format *f = ga_format_get((enum ga_format_id)id);
            if (!ga_backward_supports(impl, f))
                continue;
            for (double dy = -3; dy <= 3; dy += 0.75) {
                ga_bits x = ga_zero(f, false), d = ga_encode(f, dy), dx;
                ga_backward_run(impl, f, &d, &x, &dx, 1);
                assert_int_equal(dx, ga_encode(f, dy / 2));
            }
        }
    }
}

#define DYS 64

/* dy of every kind: both signs of 0, the subnormal ends, the normal
 * boundary, 1, the largest finite, inf, NaN, and random encodings. */
static void some_dys(const struct ga_format *f, struct test_rng *r, ga_bits *dy)
{
    ga_bits normal = ga_encode(f, ldexp(1, f->emin));
    size_t n = 0;

    for (int neg = 0; neg < 2; neg++) {
        ga_bits kinds[] = { ga_zero(f, false), ga_min_subnormal(f, false),
                            ga_next_up(f, ga_min_subnormal(f, false)), ga_next_down(f, normal),
                            normal, ga_encode(f, 0.5), ga_encode(f, 1), ga_encode(f, 3),
                            ga_next_down(f, ga_max_finite(f, false)), ga_max_finite(f, false),
                            ga_infinity(f, false), ga_quiet_nan(f) };
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            dy[n++] = neg ? ga_negate(f, kinds[k]) : kinds[k];
    }
    while (n < DYS)
        dy[n++] = test_rng_encoding(r, f);
}

/* The same float bit for bit, any NaN matching any NaN (a NaN's sign and
 * payload are not specified, and differ between optimization levels). */
static bool same_float(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    return x == y || (isnan(a) && isnan(b));
}

/* pair(dy, prepare(x)) = ga_grad_jax(dy, x) as float bits (any NaN for a NaN), and
 * ga_backward_run (one run of DYS pairs per x) = the scalar rounded into f,
 * on every x of bfloat16 and float16 and every 65521st of float32. */
static void test_jax_prepared(void **state)
{
    const struct ga_backward_impl *impl = ga_backward_catalogue_find("jax_gelu_backward");
    struct test_rng r = test_rng(29);
    (void)state;
    assert_non_null(impl);
    assert_true(impl->prepare == ga_grad_jax_prepare && impl->pair == ga_grad_jax_pair);
    for (int id = 0; id < 3; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        uint64_t stride = f->bits > 16 ? 65521 : 1;
        ga_bits dy[DYS], x[DYS], dx[DYS];
        some_dys(f, &r, dy);
        for (uint64_t xe = 0; xe < ga_encoding_count(f); xe += stride) {
            float xf = (float)ga_decode(f, (ga_bits)xe);
            struct ga_backward_state s;
            for (size_t j = 0; j < DYS; j++)
                x[j] = (ga_bits)xe;
            impl->prepare(f, xf, &s);
            ga_backward_run(impl, f, dy, x, dx, DYS);
            for (size_t j = 0; j < DYS; j++) {
                float dyf = (float)ga_decode(f, dy[j]), want = ga_grad_jax(f, dyf, xf);
                if (!same_float(impl->pair(f, dyf, &s), want)
                    || !ga_same_encoding(f, dx[j], ga_encode_float(f, want)))
                    fail_msg("%s x=%a dy=%a: prepared %a (run %a), scalar %a", f->name,
                             (double)xf, (double)dyf, (double)impl->pair(f, dyf, &s),
                             ga_decode(f, dx[j]), (double)want);
            }
        }
    }
}

/* Names are unique, each entry approximates a derivative and says what it models. */
static void test_catalogue(void **state)
{
    (void)state;
    assert_true(ga_backward_catalogue_count() >= 10);
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
        const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
        assert_ptr_equal(ga_backward_catalogue_find(impl->name), impl);
        assert_false(ga_function_is_forward(impl->approximates));
        assert_true(strlen(impl->models) > 10 && strlen(impl->formula) > 10);
    }
    assert_null(ga_backward_catalogue_find("erf"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalogue),
        cmocka_unit_test(test_half_at_zero),
        cmocka_unit_test(test_against_formulas),
        cmocka_unit_test(test_jax_prepared),
    };
    test_random_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
