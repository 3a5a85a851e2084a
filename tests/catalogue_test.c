/* The built-in catalogue: the table's shape, special values worked out by
 * hand from IEEE arithmetic on each formula, tail behaviour documented in
 * doc/libraries.md, identities of GELU, constants recomputed here from
 * the libraries' stated values, and determinism under any batch split and
 * any number of threads.  Random samples come from test_random.h (a fixed
 * seed, printed, overridable by GELU_ACC_SEED). */
#include "formats/fp_contract.h"

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

#include "formats/format.h"
#include "impls/catalogue_internal.h"
#include "impls/impl.h"
#include "test_random.h"

#define F32 GA_FORMAT_BIT(GA_FLOAT32)
#define F16 GA_FORMAT_BIT(GA_FLOAT16)
#define BF16 GA_FORMAT_BIT(GA_BFLOAT16)

static const struct ga_format *f32, *f16, *bf16;

static float bits_float(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static const struct ga_impl *impl(const char *name)
{
    const struct ga_impl *p = ga_catalogue_find(name);
    if (!p)
        fail_msg("no catalogue entry %s", name);
    return p;
}

static ga_bits run1(const struct ga_impl *p, const struct ga_format *f, ga_bits x)
{
    ga_bits y = 0;
    struct ga_run_failure failure;
    assert_int_equal(p->run(p, f, &x, &y, 1, &failure), 0);
    return y;
}

static float run_f32(const char *name, float x)
{
    return bits_float(run1(impl(name), f32, float_bits(x)));
}

/* Inputs for the determinism tests: float32 encodings spread over all 2^32
 * (k * 65537 + 12345 visits every exponent), and 8192 of the 65536 16-bit
 * encodings (an odd multiplier permutes them), which keeps the per-operation
 * entries fast. */
static int sample_size(const struct ga_format *f)
{
    return f->bits == 32 ? 1 << 16 : 1 << 13;
}

static ga_bits sample_input(const struct ga_format *f, uint32_t k)
{
    return f->bits == 32 ? k * 65537u + 12345u : (k * 40503u) & 0xffffu;
}

/* --- First, while no lookup table exists yet: threads ------------------ */

/* lut_f16 builds its table on first use.  Here the first use comes from
 * every OpenMP thread at once, and each thread's results must equal a serial
 * run afterwards: the once-guard works and the entries are pure functions. */
static void test_first_use_from_threads(void **state)
{
    enum { N = 1 << 16, CHUNK = 1024 };
    static ga_bits in[N], par[N], ser[N];
    (void)state;
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        for (int id = 0; id < GA_FORMAT_COUNT; id++) {
            const struct ga_format *f = ga_format_get(id);
            int n = sample_size(f), failed = 0;
            if (!ga_impl_supports(p, f))
                continue;
            for (int k = 0; k < n; k++)
                in[k] = sample_input(f, (uint32_t)k);
#pragma omp parallel for schedule(static, 1) reduction(+:failed)
            for (int c = 0; c < n / CHUNK; c++)
                failed += p->run(p, f, in + c * CHUNK, par + c * CHUNK, CHUNK, NULL) != 0;
            assert_int_equal(failed, 0);
            assert_int_equal(p->run(p, f, in, ser, (size_t)n, NULL), 0);
            assert_memory_equal(par, ser, (size_t)n * sizeof par[0]);
        }
    }
}

/* --- The table ---------------------------------------------------------- */

/* Every entry is complete, names are unique, and find/at agree. */
static void test_entries_well_formed(void **state)
{
    size_t n = ga_catalogue_count();
    (void)state;
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        assert_non_null(p);
        assert_true(p->name && p->name[0]);
        assert_true(p->models && p->models[0]);
        assert_true(p->formula && p->formula[0]);
        assert_true(p->computes && p->computes[0]);
        assert_non_null(p->run);
        assert_true(p->formats != 0);
        assert_true(p->formats < GA_FORMAT_BIT(GA_FORMAT_COUNT));
        /* an entry takes the wide formats or the small ones, never both, so
         * that the wide formats' reports gain no rows of the small ones */
        assert_true((p->formats & (F32 | F16 | BF16)) == 0
                    || p->formats < GA_FORMAT_BIT(GA_FIRST_SMALL_FORMAT));
        assert_true(p->approximates == GA_GELU || p->approximates == GA_GELU_TANH);
        assert_ptr_equal(ga_catalogue_find(p->name), p);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(ga_catalogue_at(j)->name, p->name);
    }
    assert_null(ga_catalogue_at(n));
    assert_null(ga_catalogue_find("no such implementation"));
}

/* The names reports and scripts rely on, with the formats and reference
 * function the brief specifies; a _native entry is 16-bit only and
 * approximates what its float32 namesake approximates. */
static void test_required_names(void **state)
{
    static const struct {
        const char *name;
        unsigned formats;
        enum ga_function approximates;
    } required[] = {
        { "erf", F32 | F16 | BF16, GA_GELU },
        { "erfc", F32 | F16 | BF16, GA_GELU },
        { "tanh", F32 | F16 | BF16, GA_GELU_TANH },
        { "tanh_factored", F32 | F16 | BF16, GA_GELU_TANH },
        { "sigmoid", F32 | F16 | BF16, GA_GELU_TANH },
        { "quick", F32 | F16 | BF16, GA_GELU },
        { "erf_as", F32 | F16 | BF16, GA_GELU },
        { "lut_f16", F32 | F16, GA_GELU_TANH },
        { "double", F32 | F16 | BF16, GA_GELU },
        { "erf_native", F16 | BF16, GA_GELU },
        { "erf_mlx", F16 | BF16, GA_GELU },
        { "erfc_native", F16 | BF16, GA_GELU },
        { "tanh_native", F16 | BF16, GA_GELU_TANH },
        { "tanh_factored_native", F16 | BF16, GA_GELU_TANH },
        { "sigmoid_native", F16 | BF16, GA_GELU_TANH },
        { "quick_native", F16 | BF16, GA_GELU },
        { "erf_as_native", F16 | BF16, GA_GELU },
    };
    (void)state;
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        const struct ga_impl *p = impl(required[i].name);
        assert_int_equal(p->formats, required[i].formats);
        assert_int_equal(p->approximates, required[i].approximates);
    }
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        size_t len = strlen(p->name);
        if (len > 7 && strcmp(p->name + len - 7, "_native") == 0) {
            char base[64];
            assert_true(len - 7 < sizeof base);
            memcpy(base, p->name, len - 7);
            base[len - 7] = '\0';
            assert_int_equal(p->formats, F16 | BF16);
            assert_int_equal(p->approximates, impl(base)->approximates);
        }
    }
}

/* A format the entry does not list is refused with a reason, not computed. */
static void test_unsupported_format_fails(void **state)
{
    ga_bits in[3] = { 0, 1, 2 }, out[3];
    struct ga_run_failure failure = { .what = "" };
    (void)state;
    assert_int_equal(impl("erf_native")->run(impl("erf_native"), f32, in, out, 3, &failure), -1);
    assert_int_equal(failure.last, 2);
    assert_true(strstr(failure.what, "float32") != NULL);
    assert_int_equal(impl("lut_f16")->run(impl("lut_f16"), bf16, in, out, 3, &failure), -1);
}

/* --- Special values ----------------------------------------------------- */

enum expect { E_NAN, E_POS_INF, E_POS_ZERO, E_NEG_ZERO };

static void check_special(const struct ga_impl *p, const struct ga_format *f,
                          ga_bits x, enum expect e)
{
    ga_bits y = run1(p, f, x);
    ga_bits want = e == E_POS_INF ? ga_infinity(f, false)
                 : e == E_POS_ZERO ? ga_zero(f, false)
                 : e == E_NEG_ZERO ? ga_zero(f, true) : ga_quiet_nan(f);
    if (!ga_same_encoding(f, y, want))
        fail_msg("%s %s(0x%x) = 0x%x, want 0x%x", p->name, f->name,
                 (unsigned)x, (unsigned)y, (unsigned)want);
}

/* Worked out by hand on each formula (the comments at each scalar form):
 * NaN propagates; +inf gives inf*2 or inf/1 = +inf; -inf gives
 * (-inf)*(1 + (-1)) = -inf*0 = NaN in every form that multiplies x by a
 * vanishing factor (erf, tanh forms, erf_as, quick: x*(1/inf); erfc and
 * double: -inf*erfc(+inf) = -inf*(+0); sigmoid: -inf/inf); +-0 keep their
 * sign because every factor besides x is positive there.  ggml's float32 path
 * clamps x <= -10 to +0 before any arithmetic, so lut_f16(-inf) = +0, while
 * its float16 path looks up table[-inf] = tanh_factored(-inf) = NaN.
 * oneDNN's last step fma(erf, S, S), S = 0.5x, gives S - S = +0 at x = -0
 * (erf_dnnl; libtorch 1.13 does the same).
 * These are the libraries' results, not the mathematical limit -0. */
static void test_special_values(void **state)
{
    (void)state;
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        /* the wide formats (the small ones: tests/small_formats_test.c) */
        for (int id = 0; id < GA_FIRST_SMALL_FORMAT; id++) {
            const struct ga_format *f = ga_format_get(id);
            bool clamps = strcmp(p->name, "lut_f16") == 0 && id == GA_FLOAT32;
            bool fma_form = strcmp(p->name, "erf_dnnl") == 0;
            if (!ga_impl_supports(p, f))
                continue;
            check_special(p, f, ga_quiet_nan(f), E_NAN);
            check_special(p, f, ga_quiet_nan(f) | ga_sign_mask(f), E_NAN);
            check_special(p, f, ga_infinity(f, false), E_POS_INF);
            check_special(p, f, ga_infinity(f, true), clamps ? E_POS_ZERO : E_NAN);
            check_special(p, f, ga_zero(f, false), E_POS_ZERO);
            check_special(p, f, ga_zero(f, true), fma_form ? E_POS_ZERO : E_NEG_ZERO);
        }
    }
}

/* --- Tails (doc/mathematics.md, 'Cancellation in the usual formulas') -- */

/* Exact GELU in double, for magnitudes: erfc has no cancellation. */
static double gelu_reference(double x)
{
    return 0.5 * x * erfc(-x / M_SQRT2);
}

/* float32 erff(u) is -1 once erfc(|u|) < 2^-25, half an ulp below 1: from
 * x ~ -5.5426.  Then 1 + erf = +0 and (x*0.5)*(+0) = -0.  The erfc form
 * keeps a negative result of the right size there (1% is far looser than
 * erfcf's few ulps and far tighter than the flush). */
static void test_erf_flushes_where_erfc_does_not(void **state)
{
    static const float xs[] = { -5.6f, -5.75f, -6.0f, -7.0f, -9.0f };
    (void)state;
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        float e = run_f32("erf", xs[i]);
        float c = run_f32("erfc", xs[i]);
        double truth = gelu_reference(xs[i]);
        assert_int_equal(float_bits(e), 0x80000000u);
        assert_true(c < 0.0f);
        assert_true(fabs(c - truth) <= 0.01 * fabs(truth));
    }
}

/* The tanh form is -0 from x ~ -5.158 (tanhf(u) rounds to -1); the sigmoid
 * form x/(1 + exp(-2u)) of the same function stays close to it evaluated in
 * double.  Float rounding of u (a few ulps, 2^-24 each) is amplified by exp's
 * condition number |2u| < 40 here: about 1e-5 relative, so 1e-4 holds. */
static void test_tanh_flushes_where_sigmoid_does_not(void **state)
{
    static const float xs[] = { -5.2f, -5.5f, -6.0f, -7.0f };
    (void)state;
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        double u = sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
        double truth = x / (1 + exp(-2 * u));
        float s = run_f32("sigmoid", xs[i]);
        assert_int_equal(float_bits(run_f32("tanh", xs[i])), 0x80000000u);
        assert_int_equal(float_bits(run_f32("tanh_factored", xs[i])), 0x80000000u);
        assert_true(s < 0.0f);
        assert_true(fabs(s - truth) <= 1e-4 * fabs(truth));
    }
}

/* --- Identities and reference values ----------------------------------- */

/* gelu(x) - gelu(-x) = x exactly.  `double` rounds near-exact values once,
 * each within half an ulp of a value no larger than |x|, so the difference
 * is within one ulp of x (plus the double evaluation's ~2^-44 relative). */
static void check_antisymmetry(const struct ga_format *f, ga_bits x)
{
    const struct ga_impl *p = impl("double");
    double v = ga_decode(f, x);
    double d = ga_decode(f, run1(p, f, x)) - ga_decode(f, run1(p, f, ga_negate(f, x)));
    if (!(fabs(d - v) <= ga_ulp(f, v) + 0x1p-40 * fabs(v)))
        fail_msg("%s double: gelu(x) - gelu(-x) = %.17g for x = %.17g", f->name, d, v);
}

static void test_double_antisymmetry(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int i = 0; i < 100000; i++) {
        /* Exponents 2^-40 .. 2^20, any significand, either sign. */
        uint64_t r = test_rng_next(&rng);
        uint32_t exponent = 127 - 40 + (uint32_t)(r % 61);
        ga_bits x = (uint32_t)(r >> 32) & 0x807fffffu;
        check_antisymmetry(f32, x | exponent << 23);
    }
    for (uint32_t x = 0; x <= 0xffff; x++) {
        if (ga_classify(f16, x) == GA_NORMAL || ga_classify(f16, x) == GA_SUBNORMAL)
            check_antisymmetry(f16, x);
        if (ga_classify(bf16, x) == GA_NORMAL || ga_classify(bf16, x) == GA_SUBNORMAL)
            check_antisymmetry(bf16, x);
    }
}

/* quick(1) = 1*sigmoid(1.702f*1) = 1/(1 + expf(-1.702f)); the volatile keeps
 * GCC from folding expf at compile time with its own (MPFR) evaluation. */
static void test_quick_at_one(void **state)
{
    volatile float coef = 1.702f;
    float c = coef;
    float want_plus = 1.0f / (1.0f + expf(-c));
    float want_minus = -(1.0f / (1.0f + expf(c)));
    (void)state;
    assert_int_equal(float_bits(run_f32("quick", 1.0f)), float_bits(want_plus));
    assert_int_equal(float_bits(run_f32("quick", -1.0f)), float_bits(want_minus));
}

/* The 16-bit opmath entries compute in float32 and round once: on every
 * 16-bit input they give the float32 entry's result rounded to the format
 * (every 16-bit value is a float32). */
static void test_opmath_rounds_once(void **state)
{
    static const char *const names[] = {
        "erf", "erfc", "tanh", "tanh_factored", "sigmoid", "quick", "erf_as",
    };
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct ga_impl *p = impl(names[i]);
        for (int id = GA_FLOAT16; id <= GA_BFLOAT16; id++) {
            const struct ga_format *f = ga_format_get(id);
            for (uint32_t x = 0; x <= 0xffff; x++) {
                float wide = (float)ga_decode(f, x);
                ga_bits want = ga_encode(f, bits_float(run1(p, f32, float_bits(wide))));
                if (!ga_same_encoding(f, run1(p, f, x), want))
                    fail_msg("%s %s(0x%04x)", names[i], f->name, (unsigned)x);
            }
        }
    }
}

static float round_to(const struct ga_format *f, float v)
{
    return (float)ga_round(f, v);
}

static void check_native(const char *name, const struct ga_format *f, ga_bits x, float want)
{
    if (!ga_same_encoding(f, run1(impl(name), f, x), ga_encode(f, want)))
        fail_msg("%s %s(0x%04x), want %a", name, f->name, (unsigned)x, (double)want);
}

/* The _native entries recomputed from the libraries' description: each
 * constant cast to the format (values worked out by hand from the doubles,
 * the bfloat16 ones as doc/libraries.md quotes them), each
 * +, -, *, / rounded, erff/erfcf/tanhf and the sigmoid one op in float. */
static void test_native_constants(void **state)
{
    static const struct {
        enum ga_format_id id;
        float sqrt2, sqrt_half, beta, kappa, quick;
    } constants[] = {
        { GA_BFLOAT16, 1.4140625f, 0.70703125f, 0.796875f, 0.044677734375f, 1.703125f },
        { GA_FLOAT16, 1.4140625f, 0.70703125f, 0.7978515625f, 0.044708251953125f,
          1.7021484375f },
    };
    (void)state;
    for (size_t i = 0; i < sizeof constants / sizeof constants[0]; i++) {
        const struct ga_format *f = ga_format_get(constants[i].id);
        for (uint32_t x = 0; x <= 0xffff; x++) {
            float v = (float)ga_decode(f, x);
            float half_x = round_to(f, 0.5f * v);
            /* quick: x*sigmoid(1.702*x) */
            float q = round_to(f, constants[i].quick * v);
            float quick = round_to(f, v * round_to(f, 1.0f / (1.0f + expf(-q))));
            /* erfc (JAX): 0.5*x*erfc(-x*sqrt(0.5)) */
            float arg = round_to(f, -v * constants[i].sqrt_half);
            float erfc_form = round_to(f, half_x * round_to(f, erfcf(arg)));
            /* erf (MLX, HF gelu_python): x*0.5*(1 + erf(x/sqrt2)) */
            float erf_u = round_to(f, erff(round_to(f, v / constants[i].sqrt2)));
            float erf_form = round_to(f, half_x * round_to(f, 1.0f + erf_u));
            /* erf, halved last (MLX nn.gelu): x*(1 + erf(x/sqrt2))/2 */
            float mlx_form = round_to(f, round_to(f, v * round_to(f, 1.0f + erf_u)) / 2.0f);
            /* tanh: 0.5*x*(1 + tanh(beta*(x + kappa*((x*x)*x)))) */
            float x3 = round_to(f, round_to(f, v * v) * v);
            float kx3 = round_to(f, constants[i].kappa * x3);
            float inner = round_to(f, constants[i].beta * round_to(f, v + kx3));
            float t = round_to(f, tanhf(inner));
            float tanh_form = round_to(f, half_x * round_to(f, 1.0f + t));

            check_native("quick_native", f, x, quick);
            check_native("erfc_native", f, x, erfc_form);
            check_native("erf_native", f, x, erf_form);
            check_native("erf_mlx", f, x, mlx_form);
            check_native("tanh_native", f, x, tanh_form);
        }
    }
}

/* Rounding every operation and constant changes results: each _native entry
 * differs from its opmath namesake on some finite input of each format. */
static void test_native_differs_from_opmath(void **state)
{
    (void)state;
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        size_t len = strlen(p->name);
        char base[64];
        if (len <= 7 || strcmp(p->name + len - 7, "_native") != 0)
            continue;
        memcpy(base, p->name, len - 7);
        base[len - 7] = '\0';
        for (int id = GA_FLOAT16; id <= GA_BFLOAT16; id++) {
            const struct ga_format *f = ga_format_get(id);
            unsigned differ = 0;
            for (uint32_t x = 0; x <= 0xffff && !differ; x++)
                if (ga_classify(f, x) != GA_NAN && ga_classify(f, x) != GA_INFINITE)
                    differ += !ga_same_encoding(f, run1(p, f, x), run1(impl(base), f, x));
            if (differ == 0)
                fail_msg("%s equals %s on every %s input", p->name, base, f->name);
        }
    }
}

/* Each entry stays within its reference function's known distance from exact
 * GELU on [-8, 8] (doc/mathematics.md, rounded up in the last digit:
 * tanh forms 4.73e-4, quick 2.03e-2), plus its own evaluation error, bounded
 * in proportion to |x| since |gelu(x)| <= |x|:
 * float32 forms: a few float ulps, 4 * 2^-24 |x|;
 * erf_as: also the Handbook's 1.5e-7 bound on erf, times |x|/2;
 * lut_f16: float16 rounding of x (2^-11 |x| times max |gelu'| < 1.13) and of
 * the result (2^-11 |x|), plus half the smallest float16 subnormal. */
static void test_approximation_bounds(void **state)
{
    static const struct {
        const char *name;
        double bound;     /* absolute */
        double per_x;     /* plus per_x * |x| */
    } cases[] = {
        { "erf", 0, 0x1p-22 }, { "erfc", 0, 0x1p-22 }, { "double", 0, 0x1p-22 },
        { "erf_as", 0, 0x1p-22 + 0.5 * 1.5e-7 },
        { "tanh", 4.74e-4, 0x1p-22 }, { "tanh_factored", 4.74e-4, 0x1p-22 },
        { "sigmoid", 4.74e-4, 0x1p-22 }, { "quick", 2.04e-2, 0x1p-22 },
        { "lut_f16", 4.74e-4 + 0x1p-25, 2.13 * 0x1p-11 },
    };
    struct test_rng rng = test_rng(0x5151);
    (void)state;
    for (int k = 0; k < 20000; k++) {
        float x = (float)test_rng_between(&rng, -8.0, 8.0);
        double truth = gelu_reference(x);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            double err = fabs(run_f32(cases[i].name, x) - truth);
            if (!(err <= cases[i].bound + cases[i].per_x * fabs(x)))
                fail_msg("%s(%.9g): error %.3g", cases[i].name, x, err);
        }
    }
}

/* --- ggml's table ------------------------------------------------------ */

/* ggml_gelu_f32 as written in ggml, with its constants. */
static float ggml_gelu(float x)
{
    const float sqrt_2_over_pi = 0.79788456080286535587989211986876f;
    const float coef_a = 0.044715f;
    float inner = sqrt_2_over_pi * x * (1.0f + coef_a * x * x);
    return 0.5f * x * (1.0f + tanhf(inner));
}

/* float32: x <= -10 -> +0, x >= 10 -> x, else the float16 table entry of the
 * float16-rounded x; float16: the entry itself, on every encoding. */
static void test_lut_f16(void **state)
{
    static const float inside[] = {
        -9.99f, -5.0f, -1.0f, -0.7517915f, -1e-3f, -0x1p-30f, 0x1p-126f,
        1e-5f, 0.5f, 1.0f, 3.14159265f, 9.99f,
    };
    static const float low[] = { -10.0f, -10.5f, -1e30f, -INFINITY };
    static const float high[] = { 10.0f, 12.5f, 1e30f, INFINITY };
    (void)state;
    for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++) {
        float h = round_to(f16, inside[i]);
        float want = round_to(f16, ggml_gelu(h));
        assert_int_equal(float_bits(run_f32("lut_f16", inside[i])), float_bits(want));
    }
    for (size_t i = 0; i < sizeof low / sizeof low[0]; i++)
        assert_int_equal(float_bits(run_f32("lut_f16", low[i])), 0u);
    for (size_t i = 0; i < sizeof high / sizeof high[0]; i++)
        assert_int_equal(float_bits(run_f32("lut_f16", high[i])), float_bits(high[i]));
    for (uint32_t x = 0; x <= 0xffff; x++) {
        ga_bits want = ga_encode(f16, ggml_gelu((float)ga_decode(f16, x)));
        assert_true(ga_same_encoding(f16, run1(impl("lut_f16"), f16, x), want));
    }
}

/* PyTorch's kBeta = (float)(M_SQRT2*M_2_SQRTPI*0.5), ggml's literal and HF's
 * 0.7978845608 are one float: the tanh forms may share one constant. */
static void test_beta_literals_agree(void **state)
{
    (void)state;
    assert_int_equal(float_bits((float)(M_SQRT2 * M_2_SQRTPI * 0.5)),
                     float_bits(0.79788456080286535587989211986876f));
    assert_int_equal(float_bits((float)(M_SQRT2 * M_2_SQRTPI * 0.5)),
                     float_bits(0.7978845608f));
}

/* The fast float -> float16 index agrees with ga_encode on every float16
 * value, every midpoint between neighbours and the floats next to each
 * midpoint, and a random sample. */
static void check_f16_index(float x)
{
    ga_bits want = ga_encode(f16, x);
    ga_bits got = ga_f16_bits_from_float(x);
    if (!ga_same_encoding(f16, got, want))
        fail_msg("fp16(%a) = 0x%04x, want 0x%04x", (double)x, (unsigned)got, (unsigned)want);
}

static void test_f16_index(void **state)
{
    struct test_rng rng = test_rng(0xf16);
    (void)state;
    for (uint32_t x = 0; x <= 0xffff; x++) {
        double v = ga_decode(f16, x), next;
        ga_bits up = ga_next_up(f16, x);
        float mid;
        if (!isfinite(v))
            continue;
        check_f16_index((float)v);
        /* Above 65504 the next step would be 65536: the midpoint 65520
         * is where float16 rounding overflows. */
        next = ga_classify(f16, up) == GA_INFINITE ? 65536.0 : ga_decode(f16, up);
        mid = (float)((v + next) / 2);  /* exact: 12 significant bits */
        check_f16_index(mid);
        check_f16_index(nextafterf(mid, INFINITY));
        check_f16_index(nextafterf(mid, -INFINITY));
    }
    for (int i = 0; i < 1000000; i++)
        check_f16_index(bits_float(test_rng_encoding(&rng, f32)));
}

/* --- Determinism ------------------------------------------------------- */

/* Results are identical on a repeated run and for any split of the inputs
 * into batches (random sizes, fixed seed): no state leaks between calls. */
static void test_batch_split_and_repeat(void **state)
{
    enum { N = 1 << 16 };
    static ga_bits in[N], once[N], again[N], split[N];
    struct test_rng rng = test_rng(0xba7c4);
    (void)state;
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *p = ga_catalogue_at(i);
        for (int id = 0; id < GA_FORMAT_COUNT; id++) {
            const struct ga_format *f = ga_format_get(id);
            size_t n = (size_t)sample_size(f);
            if (!ga_impl_supports(p, f))
                continue;
            for (size_t k = 0; k < n; k++)
                in[k] = f->bits == 32 ? test_rng_encoding(&rng, f) : sample_input(f, (uint32_t)k);
            assert_int_equal(p->run(p, f, in, once, n, NULL), 0);
            assert_int_equal(p->run(p, f, in, again, n, NULL), 0);
            for (size_t at = 0; at < n;) {
                size_t len = 1 + test_rng_below(&rng, 3000);
                if (len > n - at)
                    len = n - at;
                assert_int_equal(p->run(p, f, in + at, split + at, len, NULL), 0);
                at += len;
            }
            assert_int_equal(p->run(p, f, in, split, 0, NULL), 0);
            assert_memory_equal(once, again, n * sizeof once[0]);
            assert_memory_equal(once, split, n * sizeof once[0]);
        }
    }
}

static int setup(void **state)
{
    (void)state;
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_use_from_threads),  /* must run first */
        cmocka_unit_test(test_entries_well_formed),
        cmocka_unit_test(test_required_names),
        cmocka_unit_test(test_unsupported_format_fails),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_erf_flushes_where_erfc_does_not),
        cmocka_unit_test(test_tanh_flushes_where_sigmoid_does_not),
        cmocka_unit_test(test_double_antisymmetry),
        cmocka_unit_test(test_quick_at_one),
        cmocka_unit_test(test_opmath_rounds_once),
        cmocka_unit_test(test_native_constants),
        cmocka_unit_test(test_native_differs_from_opmath),
        cmocka_unit_test(test_approximation_bounds),
        cmocka_unit_test(test_lut_f16),
        cmocka_unit_test(test_beta_literals_agree),
        cmocka_unit_test(test_f16_index),
        cmocka_unit_test(test_batch_split_and_repeat),
    };
    return cmocka_run_group_tests_name("catalogue", tests, setup, NULL);
}
