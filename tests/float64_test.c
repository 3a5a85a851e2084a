/* float64: the format's table entry against IEEE binary64 (the C double);
 * the truth of gelu and of the tanh formula against an independent
 * computation written here (MPFR at 320 bits, rounded to binary64 by hand
 * on the fixed grid of its binade, subnormals included); special values,
 * the underflow of the left tail and the saturation of the right one; the
 * identity gelu(x) - gelu(-x) = x; the ulp error of outputs next to results
 * within a sliver of an ulp of a midpoint or of a double (the truth's tail);
 * the domains a format of 2^64 encodings
 * takes (and those it refuses); .npy '<f8' and raw files; and the double
 * models of the catalogue. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_helpers.h"
#include <mpfr.h>

#include "formats/format.h"
#include "impls/impl.h"
#include "io/array_open.h"
#include "domain/domain.h"
#include "grade/error.h"
#include "test_random.h"
#include "truth/truth.h"

#define PREC 320

static const struct ga_format *f64;

static double double_of(ga_bits b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* v rounded to binary64 by its definition: the ulp of |v| in [2^(e-1), 2^e)
 * is 2^(e-53) for normal numbers (e - 1 >= -1022), 2^-1074 below; v over
 * that ulp rounded to the nearest integer, ties to even (mpfr_rint with
 * MPFR_RNDN); zero keeps the sign of v.  |v| stays far below the overflow
 * threshold here (|gelu(x)| <= |x|). */
static double round_binary64(mpfr_srcptr v)
{
    mpfr_t t;
    long e, q;
    double r;

    if (mpfr_zero_p(v))
        return mpfr_signbit(v) ? -0.0 : 0.0;
    e = mpfr_get_exp(v);
    q = (e - 1 >= -1022 ? e : -1021) - 53;
    mpfr_init2(t, mpfr_get_prec(v));
    mpfr_mul_2si(t, v, -q, MPFR_RNDN);  /* exact */
    mpfr_rint(t, t, MPFR_RNDN);
    mpfr_mul_2si(t, t, q, MPFR_RNDN);   /* exact: at most 54 bits */
    r = mpfr_get_d(t, MPFR_RNDN);       /* exact: a binary64 value */
    if (r == 0)
        r = mpfr_signbit(v) ? -0.0 : 0.0;
    mpfr_clear(t);
    return r;
}

/* Where |x| < 1 a result is x/2 plus a term of order x^2, which may lie
 * 1000 binades below x/2 (subnormal x): x/2 + (x/2) g, with g good to PREC
 * bits, summed exactly in SUM_PREC bits, so that a result x/2 on a midpoint
 * of the grid is moved off it by the term's sign as it should be. */
#define SUM_PREC 1700

static void half_x_plus(mpfr_t r, double x, mpfr_srcptr g)
{
    mpfr_t t;
    mpfr_init2(t, PREC);
    mpfr_mul_d(t, g, x, MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    mpfr_set_prec(r, SUM_PREC);
    mpfr_set_d(r, x, MPFR_RNDN);
    mpfr_div_2ui(r, r, 1, MPFR_RNDN);  /* exact, unlike x / 2 in double below 2^-1021 */
    mpfr_add(r, r, t, MPFR_RNDN);     /* exact: t spans under 1700 bits below x/2 */
    mpfr_clear(t);
}

/* gelu(x) = (x/2) erfc(-x/sqrt2) at PREC bits: erfc's condition number is
 * below 2z^2 + 1.42 <= 1700 for |x| <= 40, so some 300 bits stay good, far
 * more than a rounding needs save at a case 2^-300 from a midpoint.  For
 * |x| < 1, (x/2)(1 + erf(x/sqrt2)) by half_x_plus. */
static void gelu_320(mpfr_t r, double x)
{
    mpfr_t z;
    mpfr_init2(z, PREC);
    mpfr_sqrt_ui(z, 2, MPFR_RNDN);
    mpfr_set_prec(r, PREC);
    mpfr_set_d(r, x, MPFR_RNDN);
    mpfr_div(z, r, z, MPFR_RNDN);
    if (fabs(x) < 1) {
        mpfr_erf(z, z, MPFR_RNDN);
        half_x_plus(r, x, z);
    } else {
        mpfr_neg(z, z, MPFR_RNDN);
        mpfr_erfc(z, z, MPFR_RNDN);
        mpfr_mul(r, r, z, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    }
    mpfr_clear(z);
}

/* The tanh formula as written, (x/2)(1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))),
 * for x >= -4: there 1 + tanh(u) >= 2e^-9 cancels at most 13 bits; for
 * |x| < 1 by half_x_plus. */
static void gelu_tanh_320(mpfr_t r, double x)
{
    mpfr_t u, t;
    mpfr_inits2(PREC, u, t, (mpfr_ptr)0);
    mpfr_set_d(u, x, MPFR_RNDN);
    mpfr_pow_ui(u, u, 3, MPFR_RNDN);
    mpfr_mul_ui(u, u, 44715, MPFR_RNDN);
    mpfr_div_ui(u, u, 1000000, MPFR_RNDN);
    mpfr_add_d(u, u, x, MPFR_RNDN);
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_ui_div(t, 2, t, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_mul(u, u, t, MPFR_RNDN);
    mpfr_tanh(u, u, MPFR_RNDN);
    if (fabs(x) < 1) {
        half_x_plus(r, x, u);
    } else {
        mpfr_add_ui(u, u, 1, MPFR_RNDN);
        mpfr_set_prec(r, PREC);
        mpfr_set_d(r, x, MPFR_RNDN);
        mpfr_mul(r, r, u, MPFR_RNDN);
        mpfr_div_2ui(r, r, 1, MPFR_RNDN);
    }
    mpfr_clears(u, t, (mpfr_ptr)0);
}

static ga_bits truth_bits(enum ga_function fn, double x)
{
    struct ga_truth t;
    assert_int_equal(ga_truth(GA_ORACLE_FAST, fn, f64, double_bits(x), &t), GA_TRUTH_OK);
    return t.rounded;
}

static void expect_truth(enum ga_function fn, double x, double expected)
{
    ga_bits got = truth_bits(fn, x);
    if (got != double_bits(expected))
        fail_msg("%s(%a): oracle %a, expected %a", ga_function_name(fn), x, double_of(got),
                 expected);
}

/* A double with a random sign, a random exponent in [lo, hi] and a random
 * fraction. */
static double random_double(struct test_rng *rng, int lo, int hi)
{
    double m = 1 + test_rng_uniform(rng);  /* [1, 2), 52 random bits */
    double v = ldexp(m, lo + (int)test_rng_below(rng, (uint64_t)(hi - lo + 1)));
    return test_rng_next(rng) & 1 ? -v : v;
}

static void test_table_entry(void **state)
{
    (void)state;
    assert_ptr_equal(ga_format_by_name("float64"), f64);
    assert_int_equal(f64->bits, 64);
    assert_int_equal(ga_storage_bytes(f64), 8);
    assert_false(ga_is_enumerable(f64));
    assert_false(ga_is_small_format(f64));
    assert_true(ga_all_ones(f64) == UINT64_MAX);
    /* encodings are the doubles' bits, both ways */
    struct test_rng rng = test_rng(1);
    for (int i = 0; i < 100000; i++) {
        ga_bits b = test_rng_encoding(&rng, f64);
        double v = double_of(b);
        if (isnan(v)) {
            assert_true(ga_is_nan(f64, b));
            continue;
        }
        assert_true(double_bits(ga_decode(f64, b)) == b);
        assert_true(ga_encode(f64, v) == b);
        if (v < INFINITY)
            assert_true(double_of(ga_next_up(f64, b)) == nextafter(v, INFINITY));
    }
    assert_true(ga_decode(f64, ga_max_finite(f64, false)) == 0x1.fffffffffffffp1023);
    assert_true(ga_decode(f64, ga_min_subnormal(f64, false)) == 0x1p-1074);
    char text[GA_BITS_TEXT_LEN];
    ga_format_bits(f64, double_bits(-2.0), text);
    assert_string_equal(text, "0xc000000000000000");
}

/* Random inputs over the binades where the functions are neither x nor 0,
 * and the left tail through its underflow. */
static void test_truth_against_320_bits(void **state)
{
    struct test_rng rng = test_rng(2);
    mpfr_t r;

    (void)state;
    mpfr_init2(r, PREC);
    for (size_t i = 0; i < test_scaled(3000); i++) {
        double x = i % 4 == 0 ? -test_rng_between(&rng, 36, 40)  /* results underflow */
                 : i % 4 == 1 ? test_rng_between(&rng, -9, 9)
                              : random_double(&rng, -1074 + 52, 3);
        if (fabs(x) > 40)
            continue;
        gelu_320(r, x);
        expect_truth(GA_GELU, x, round_binary64(r));
        if (x >= -4) {
            gelu_tanh_320(r, x);
            expect_truth(GA_GELU_TANH, x, round_binary64(r));
        }
    }
    for (int i = 0; i < 200; i++) {  /* subnormal inputs */
        double x = ldexp((double)test_rng_below(&rng, (uint64_t)1 << 52), -1074);
        x = i % 2 ? -x : x;
        gelu_320(r, x);
        expect_truth(GA_GELU, x, round_binary64(r));
    }
    mpfr_clear(r);
}

/* The existing convention, and the rounding of the smallest subnormals:
 * gelu(2^-1074) = 2^-1075 + 2^-2148/sqrt(2 pi) + ..., just above half of the
 * smallest subnormal: it rounds up to 2^-1074 itself; gelu(-2^-1074) =
 * -2^-1075 + that, just below half in magnitude: -0. */
static void test_special_values(void **state)
{
    (void)state;
    for (int fn = GA_GELU; fn <= GA_GELU_TANH; fn++) {
        expect_truth(fn, 0.0, 0.0);
        expect_truth(fn, -0.0, -0.0);
        expect_truth(fn, INFINITY, INFINITY);
        expect_truth(fn, -INFINITY, -0.0);
        assert_true(ga_is_nan(f64, truth_bits(fn, NAN)));
        expect_truth(fn, 0x1p-1074, 0x1p-1074);
        expect_truth(fn, -0x1p-1074, -0.0);
        /* +-1.5 times it: x/2 is no double, the value lies just past the
         * midpoint on the side of x (1.5 + tiny rounds up, -1.5 + tiny down) */
        expect_truth(fn, 0x1.8p-1073, 0x1p-1073);
        expect_truth(fn, -0x1.8p-1073, -0x1p-1074);
        /* the largest finite inputs: x itself, and a zero of x's sign */
        expect_truth(fn, 0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023);
        expect_truth(fn, -0x1.fffffffffffffp1023, -0.0);
        expect_truth(fn, -1e300, -0.0);
        expect_truth(fn, 1e300, 1e300);
    }
}

/* |y - v| / ulp(v) in binary64 (ulp as round_binary64 has it), from v at
 * its full precision: the figure the error measures must reproduce. */
static double ulp_error_320(double y, mpfr_srcptr v)
{
    long e = mpfr_get_exp(v);
    long q = (e - 1 >= -1022 ? e : -1021) - 53;  /* ulp(v) = 2^q */
    mpfr_t d;
    double r;

    mpfr_init2(d, 2 * SUM_PREC);
    mpfr_set_d(d, y, MPFR_RNDN);
    mpfr_sub(d, d, v, MPFR_RNDN);  /* exact: both within 2 * SUM_PREC bits of y */
    mpfr_mul_2si(d, d, -q, MPFR_RNDN);
    r = fabs(mpfr_get_d(d, MPFR_RNDN));
    mpfr_clear(d);
    return r;
}

/* f(x) in ulps past its rounding, in [-1/2, 1/2]. */
static double offset_in_ulps(mpfr_srcptr v)
{
    return ulp_error_320(round_binary64(v), v) * (mpfr_cmp_d(v, round_binary64(v)) < 0 ? -1 : 1);
}

/* The exact value, a double, is only good to half an ulp of float64: the
 * error measures must carry the truth's tail.  Inputs whose result lies
 * within 2^-10 ulp of a midpoint or of a double (found here with MPFR), and
 * some others: the measured ulp error of the correctly rounded output and
 * of its two neighbours against |y - f| / ulp from 320 bits, to 1e-6 ulp
 * (the tail is good to 2^-20 ulp).  Without the tail the correctly rounded
 * output next to a double would show 0, the one next to a midpoint 1/2. */
static void test_error_next_to_midpoints(void **state)
{
    enum { WANTED = 4, NEAR_DOUBLE = 0, NEAR_MIDPOINT = 1, OTHER = 2 };
    struct test_rng rng = test_rng(7);
    mpfr_t r;
    (void)state;
    mpfr_init2(r, PREC);
    for (int fn = GA_GELU; fn <= GA_GELU_TANH; fn++) {
        int found[3] = { 0, 0, 0 };
        for (long tries = 0; tries < 2000000 && (found[0] < WANTED || found[1] < WANTED); tries++) {
            double x = test_rng_between(&rng, fn == GA_GELU ? -8 : -4, 8);
            if (fn == GA_GELU)
                gelu_320(r, x);
            else
                gelu_tanh_320(r, x);
            double off = fabs(offset_in_ulps(r));
            int kind = off < 0x1p-10 ? NEAR_DOUBLE : off > 0.5 - 0x1p-10 ? NEAR_MIDPOINT : OTHER;
            if (found[kind] >= WANTED)
                continue;
            found[kind]++;
            struct ga_truth t;
            assert_int_equal(ga_truth(GA_ORACLE_MPFR, fn, f64, double_bits(x), &t), GA_TRUTH_OK);
            double rounded = round_binary64(r);
            assert_true(t.rounded == double_bits(rounded));
            const double outputs[3] = { rounded, nextafter(rounded, -INFINITY),
                                        nextafter(rounded, INFINITY) };
            for (int i = 0; i < 3; i++) {
                struct ga_error e;
                double want = ulp_error_320(outputs[i], r);
                ga_error_measure(f64, double_bits(outputs[i]), &t, &e);
                if (!(fabs(e.ulp - want) <= 1e-6))
                    fail_msg("%s(%a) = %a + %.3g ulp: output %a measured %.9f ulp, MPFR %.9f",
                             ga_function_name(fn), x, rounded, offset_in_ulps(r), outputs[i],
                             e.ulp, want);
            }
        }
        assert_int_equal(found[NEAR_DOUBLE], WANTED);
        assert_int_equal(found[NEAR_MIDPOINT], WANTED);
        print_message("# %s: %d results within 2^-10 ulp of a double, %d of a midpoint\n",
                      ga_function_name(fn), found[NEAR_DOUBLE], found[NEAR_MIDPOINT]);
    }
    mpfr_clear(r);
}

/* Right of 9 gelu(x) = x (1 - Phi(-x)) rounds to x; check at 9 itself and
 * below it with the 320-bit value (8 is not yet x).  Left of -39 |gelu(x)| <
 * phi(39) < 2^-1098, below half the smallest subnormal: -0. */
static void test_tails(void **state)
{
    mpfr_t r;
    (void)state;
    mpfr_init2(r, PREC);
    gelu_320(r, 9.0);
    assert_true(round_binary64(r) == 9.0);
    expect_truth(GA_GELU, 9.0, 9.0);
    gelu_320(r, 8.0);
    assert_true(round_binary64(r) < 8.0);
    expect_truth(GA_GELU, 8.0, round_binary64(r));
    gelu_320(r, -39.0);
    assert_true(mpfr_get_exp(r) < -1098 + 1);
    for (double x = -39; x > -1e300; x *= 1.7)
        expect_truth(GA_GELU, x, -0.0);
    for (double x = 9; x < 1e300; x *= 1.7)
        expect_truth(GA_GELU, x, x);
    mpfr_clear(r);
}

/* gelu(x) - gelu(-x) = x Phi(x) + x Phi(-x) = x.  Each correctly rounded
 * value is within half its ulp, so the rounded difference is within the sum
 * of those halves of x (computed exactly at 2200 bits); where gelu(|x|) = |x|
 * and gelu(-|x|) = -0 (|x| >= 40, test_tails) it is x exactly. */
static void test_odd_part_is_x(void **state)
{
    struct test_rng rng = test_rng(3);
    mpfr_t d, bound;

    (void)state;
    mpfr_inits2(2200, d, bound, (mpfr_ptr)0);
    for (size_t i = 0; i < test_scaled(3000); i++) {
        double x = random_double(&rng, -1074 + 52, 1000);
        double a = double_of(truth_bits(GA_GELU, x)), b = double_of(truth_bits(GA_GELU, -x));
        mpfr_set_d(d, a, MPFR_RNDN);
        mpfr_sub_d(d, d, b, MPFR_RNDN);
        mpfr_sub_d(d, d, x, MPFR_RNDN);  /* exact at 2200 bits */
        mpfr_abs(d, d, MPFR_RNDN);
        mpfr_set_d(bound, ga_ulp(f64, a), MPFR_RNDN);
        mpfr_add_d(bound, bound, ga_ulp(f64, b), MPFR_RNDN);
        mpfr_div_2ui(bound, bound, 1, MPFR_RNDN);
        if (mpfr_cmp(d, bound) > 0)
            fail_msg("x = %a: gelu(x) = %a, gelu(-x) = %a", x, a, b);
        if (fabs(x) >= 40)
            assert_true(mpfr_zero_p(d));
    }
    mpfr_clears(d, bound, (mpfr_ptr)0);
}

static struct ga_domain parse_ok(const char *spec)
{
    struct ga_domain d;
    char err[512] = "";
    if (ga_domain_parse(&d, spec, f64, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    return d;
}

static void parse_refused(const char *spec, const char *message)
{
    struct ga_domain d;
    char err[512] = "";
    assert_int_equal(ga_domain_parse(&d, spec, f64, err, sizeof err), -1);
    if (!strstr(err, message))
        fail_msg("%s: message '%s' lacks '%s'", spec, err, message);
    ga_domain_free(&d);
}

static ga_bits *fill_all(const struct ga_domain *d)
{
    ga_bits *v = malloc(d->size * sizeof *v);
    assert_non_null(v);
    assert_int_equal(ga_domain_fill(d, 0, d->size, v), 0);
    return v;
}

/* random:N draws all 64 bits: every binade, both signs, a few NaNs. */
static void test_random_domain(void **state)
{
    struct ga_domain d = parse_ok("random:200000:5"), again = parse_ok("random:200000:5");
    struct ga_domain other = parse_ok("random:200000:6");
    ga_bits *v = fill_all(&d), *w = fill_all(&again), *u = fill_all(&other);
    static bool seen[2048];
    size_t binades = 0, negative = 0, nan = 0, same = 0;

    (void)state;
    assert_memory_equal(v, w, d.size * sizeof *v);
    for (size_t i = 0; i < d.size; i++) {
        unsigned e = (unsigned)(v[i] >> 52 & 0x7ff);
        binades += !seen[e];
        seen[e] = true;
        negative += v[i] >> 63;
        nan += ga_is_nan(f64, v[i]);
        same += v[i] == u[i];
    }
    assert_int_equal(binades, 2048);  /* 200000 draws miss one of 2048 with chance 2^-130 */
    assert_true(negative > 99000 && negative < 101000);
    assert_true(nan > 20 && nan < 200);  /* 2^-11 of the encodings */
    assert_true(same == 0);
    free(v);
    free(w);
    free(u);
    ga_domain_free(&d);
    ga_domain_free(&again);
    ga_domain_free(&other);
}

/* range:A:B:N: N encodings from A on one stride in value order, all in
 * [A, B]; without N a range of float64 is too large; all and stride: are
 * refused; a default exists. */
static void test_range_and_refusals(void **state)
{
    struct ga_domain d = parse_ok("range:-40:10:100000");
    ga_bits *v = fill_all(&d);
    uint64_t stride = 0;

    (void)state;
    assert_int_equal(d.size, 100000);
    assert_true(v[0] == double_bits(-40.0));
    for (size_t i = 0; i < d.size; i++) {
        double x = double_of(v[i]);
        assert_true(x >= -40 && x <= 10);
        if (i > 0) {
            double prev = double_of(v[i - 1]);
            assert_true(prev < x || (prev == 0 && signbit(prev) && !signbit(x)));
            /* the key distance: encodings of the negative side count down */
            int64_t kp = signbit(prev) ? -(int64_t)(v[i - 1] & ~ga_sign_mask(f64)) - 1
                                       : (int64_t)v[i - 1];
            int64_t kx = signbit(x) ? -(int64_t)(v[i] & ~ga_sign_mask(f64)) - 1 : (int64_t)v[i];
            if (i == 1)
                stride = (uint64_t)(kx - kp);
            assert_true((uint64_t)(kx - kp) == stride);
        }
    }
    assert_true(stride > 1);
    free(v);
    ga_domain_free(&d);

    d = parse_ok("range:1:1.0000000000000009");  /* 5 encodings: every one */
    assert_int_equal(d.size, 5);
    ga_domain_free(&d);
    parse_refused("range:-40:10", "add :N");
    parse_refused("all", "float64 has 2^64 encodings");
    parse_refused("stride:4096", "float64 has 2^64 encodings");
    parse_refused("range:1:2:0", "N 0 is out of range");
    d = parse_ok(ga_domain_default(f64));
    assert_int_equal(d.size, 1048576);
    ga_domain_free(&d);

    /* joined: the parts' inputs in turn */
    d = parse_ok("random:10:1,range:-1:1:7");
    struct ga_domain a = parse_ok("random:10:1"), b = parse_ok("range:-1:1:7");
    ga_bits *all = fill_all(&d), *first = fill_all(&a), *second = fill_all(&b);
    assert_int_equal(d.size, 17);
    assert_memory_equal(all, first, 10 * sizeof *all);
    assert_memory_equal(all + 10, second, 7 * sizeof *all);
    free(all);
    free(first);
    free(second);
    ga_domain_free(&d);
    ga_domain_free(&a);
    ga_domain_free(&b);
}

/* file: reads a .npy '<f8' array; raw: 8 little-endian bytes per element. */
static void test_files(void **state)
{
    static const double values[] = { 1.0, -0.0, 0x1p-1074, -38.5, INFINITY, 0x1.8p1000 };
    enum { N = sizeof values / sizeof values[0] };
    ga_bits bits[N];
    char npy[64], raw[64], spec[80];
    unsigned char bytes[8 * N];
    FILE *out;

    (void)state;
    for (int i = 0; i < N; i++)
        bits[i] = double_bits(values[i]);
    snprintf(npy, sizeof npy, "float64_test_%ld.npy", (long)getpid());
    snprintf(raw, sizeof raw, "float64_test_%ld.bin", (long)getpid());
    assert_int_equal(ga_file_write(npy, GA_FILE_NPY, f64, bits, N, true, NULL), GA_IO_OK);
    for (int i = 0; i < N; i++)  /* little-endian, by hand */
        for (int k = 0; k < 8; k++)
            bytes[8 * i + k] = (unsigned char)(bits[i] >> (8 * k));
    out = fopen(raw, "wb");
    assert_non_null(out);
    assert_int_equal(fwrite(bytes, 1, sizeof bytes, out), sizeof bytes);
    fclose(out);
    for (int kind = 0; kind < 2; kind++) {
        snprintf(spec, sizeof spec, kind ? "raw:%s" : "file:%s", kind ? raw : npy);
        struct ga_domain d = parse_ok(spec);
        ga_bits *v = fill_all(&d);
        assert_int_equal(d.size, N);
        assert_memory_equal(v, bits, sizeof bits);
        free(v);
        ga_domain_free(&d);
    }
    /* the .npy header names the dtype */
    out = fopen(npy, "rb");
    assert_non_null(out);
    char head[128] = "";
    assert_true(fread(head, 1, sizeof head - 1, out) > 64);
    fclose(out);
    assert_non_null(memmem(head, sizeof head, "'<f8'", 5));
    unlink(npy);
    unlink(raw);
}

/* The double models: sane where their formulas do not cancel (within a few
 * ulps of the truth on [-1, 4]); the erf and tanh forms flush the left tail
 * to zero where 1 + erf or 1 + tanh rounds to 0, the erfc form does not: at
 * x = -20 its argument's two roundings (relative 2^-52 at most) are
 * amplified by erfc's condition number 2z^2 + 1.42 < 403 (z = 14.2), some
 * 4z^2 + 4 < 810 ulps with erfc's own error and the last products. */
static void test_models(void **state)
{
    static const char *const names[] = { "erf_f64", "erfc_f64", "tanh_f64" };
    struct test_rng rng = test_rng(4);

    (void)state;
    for (int k = 0; k < 3; k++) {
        const struct ga_impl *impl = ga_catalogue_find(names[k]);
        enum ga_function fn = k == 2 ? GA_GELU_TANH : GA_GELU;
        struct ga_run_failure why;
        assert_non_null(impl);
        assert_true(ga_impl_supports(impl, f64));
        assert_false(ga_impl_supports(impl, ga_format_get(GA_FLOAT32)));
        for (int i = 0; i < 2000; i++) {
            ga_bits x = double_bits(test_rng_between(&rng, -1, 4)), y;
            assert_int_equal(impl->run(impl, f64, &x, &y, 1, &why), 0);
            assert_true(ga_distance(f64, y, truth_bits(fn, double_of(x))) <= 8);
        }
        ga_bits x = double_bits(-20.0), y;
        assert_int_equal(impl->run(impl, f64, &x, &y, 1, &why), 0);
        if (k == 1)
            assert_true(ga_distance(f64, y, truth_bits(fn, -20.0)) <= 810);
        else
            assert_true(y == double_bits(-0.0) || y == double_bits(0.0));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_entry),
        cmocka_unit_test(test_truth_against_320_bits),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_tails),
        cmocka_unit_test(test_error_next_to_midpoints),
        cmocka_unit_test(test_odd_part_is_x),
        cmocka_unit_test(test_random_domain),
        cmocka_unit_test(test_range_and_refusals),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_models),
    };
    test_random_init();
    f64 = ga_format_get(GA_FLOAT64);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
