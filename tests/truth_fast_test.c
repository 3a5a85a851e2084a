/* The fast oracle against the MPFR oracle: identical roundings, exact values
 * within GA_FAST_EXACT_REL_ERR, thresholds that are tight and hold beyond
 * themselves, error bounds that hold, and the C library accuracy they
 * assume.  Every 16-bit input is compared; float32 inputs are sampled,
 * weighted towards the tails, the thresholds, subnormals and the inputs
 * whose results lie nearest to a rounding boundary.
 *
 * Random inputs come from test_random.h: GELU_ACC_SEED sets the seed;
 * GELU_ACC_TEST_SCALE (default 1) multiplies the float32 sample sizes: the
 * default compares about 3.4e5 float32 inputs with MPFR (7 s), 3 about 10^6
 * (16 s). */
#include <inttypes.h>
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
#include "truth/fast.h"
#include "truth/fast_internal.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;
static struct test_rng rng;
static unsigned long mpfr_checked;  /* float32 inputs compared with MPFR */

/* |a/b - 1| for two exact values (1 when their exponents are far apart). */
static double relative_difference(const struct ga_exact *a, const struct ga_exact *b)
{
    long d = a->exp - b->exp;
    if (d < -2 || d > 2)
        return 1;
    return fabs(ldexp(a->mant, (int)d) - b->mant) / fabs(b->mant);
}

static struct ga_truth mpfr_truth(enum ga_function fn, const struct ga_format *f, ga_bits x)
{
    struct ga_truth t;
    assert_int_equal(ga_truth_mpfr(fn, f, x, &t), GA_TRUTH_OK);
    if (f == f32)
        mpfr_checked++;
    return t;
}

/* The fast and MPFR oracles agree on x: the same encoding, bit for bit, and
 * exact values within the documented bound (MPFR's own is 2^-53). */
static void check_agree(enum ga_function fn, const struct ga_format *f, ga_bits x)
{
    struct ga_truth fast, slow = mpfr_truth(fn, f, x);

    assert_int_equal(ga_truth_fast(fn, f, x, &fast), GA_TRUTH_OK);
    if (fast.rounded != slow.rounded || fast.direction != slow.direction)
        fail_msg("%s %s x = 0x%08x: fast 0x%08x direction %d, MPFR 0x%08x direction %d",
                 ga_function_name(fn), f->name, x, fast.rounded, fast.direction, slow.rounded,
                 slow.direction);
    if (isnan(slow.exact.mant) || isinf(slow.exact.mant) || slow.exact.mant == 0) {
        assert_true(isnan(slow.exact.mant) ? isnan(fast.exact.mant)
                                           : fast.exact.mant == slow.exact.mant);
        assert_int_equal(signbit(fast.exact.mant), signbit(slow.exact.mant));
        assert_int_equal(fast.exact.exp, slow.exact.exp);
        return;
    }
    if (relative_difference(&fast.exact, &slow.exact) > GA_FAST_EXACT_REL_ERR + 0x1p-52)
        fail_msg("%s %s x = 0x%08x: exact %a*2^%ld, MPFR %a*2^%ld", ga_function_name(fn),
                 f->name, x, fast.exact.mant, fast.exact.exp, slow.exact.mant, slow.exact.exp);
}

/* ---- special values ---- */

static void test_special_values(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int i = 0; i < 3; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = formats[i];
            ga_bits specials[] = {
                ga_infinity(f, false), ga_infinity(f, true), ga_zero(f, false),
                ga_zero(f, true), ga_quiet_nan(f), ga_quiet_nan(f) | 1,
                ga_negate(f, ga_quiet_nan(f)), ga_infinity(f, false) | 1,
                ga_max_finite(f, false), ga_max_finite(f, true),
                ga_min_subnormal(f, false), ga_min_subnormal(f, true),
            };
            for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++)
                check_agree(fn, f, specials[k]);
        }
}

/* ---- helpers ---- */

/* The bit-level helpers against independent references: ga_decode, the
 * hardware's double -> float conversion (round to nearest even), fma() and
 * floor() from the C library. */
static void test_helpers(void **state)
{
    (void)state;
    for (size_t k = 0; k < 1000000; k++) {
        ga_bits x = test_rng_encoding(&rng, f32);
        uint64_t bits = test_rng_next(&rng);
        double v;

        if (ga_classify(f32, x) != GA_NAN && ga_classify(f32, x) != GA_INFINITE)
            assert_memory_equal(&(double){ ga_fast_decode_float32(x) },
                                &(double){ ga_decode(f32, x) }, sizeof(double));
        /* doubles in float's normal range; every 8th a tie or next to one */
        bits = (bits & 0x800fffffffffffffu) | (uint64_t)(1023 - 126 + (bits >> 52) % 253) << 52;
        if (k % 8 == 0)
            bits = (bits & ~(uint64_t)0x1fffffff) | 0x10000000u | (k % 16 == 0 ? 0 : 1);
        memcpy(&v, &bits, sizeof v);
        if (fabs((double)(float)v) >= 0x1p-126 && fabs(v) < 0x1p127)
            assert_int_equal(ga_fast_round_float32_normal(v), float_bits((float)v));
    }
    for (size_t k = 0; k < 100000; k++) {
        int ea = (int)test_rng_below(&rng, 200) - 100, eb = (int)test_rng_below(&rng, 200) - 100;
        double a = (test_rng_uniform(&rng) - 0.5) * ldexp(1, ea);
        double b = (test_rng_uniform(&rng) - 0.5) * ldexp(1, eb);
        double lo, hi = ga_fast_two_prod(a, b, &lo);
        double c = (test_rng_uniform(&rng) - 0.5) * ldexp(1, (int)test_rng_below(&rng, 62));
        assert_true(hi == a * b && lo == fma(a, b, -hi));
        assert_true(ga_fast_floor(c) == floor(c));
        assert_true(ga_fast_floor(nearbyint(c)) == nearbyint(c));
    }
}

/* ---- thresholds ---- */

/* Upper bound of gelu(x) - x/2 for tiny x (fast_thresholds.c), rounded up. */
static double tiny_excess_bound(enum ga_function fn, double x)
{
    /* 0x1.9884533d43651p-2 exceeds 1/sqrt(2 pi) by 2^-57 relatively; the
     * factor 1 + 2^-50 covers that and the roundings. */
    double b = x * x * 0x1.9884533d43651p-2 * (1 + 0x1p-50);
    if (fn == GA_GELU_TANH)
        b *= 1 + 0.044715 * x * x * (1 + 0x1p-50);
    return b;
}

/* The sufficient condition of the tiny region at x: x/2 + B(x) stays below
 * the rounding boundary above x/2 rounded with ties upwards. */
static int tiny_condition(enum ga_function fn, const struct ga_format *f, ga_bits x)
{
    double h = ga_decode(f, x) / 2;
    ga_bits r = ga_fast_half_up(f, x);
    double boundary = (ga_decode(f, r) + ga_decode(f, ga_next_up(f, r))) / 2;  /* exact */
    return tiny_excess_bound(fn, 2 * h) < boundary - h;                        /* exact difference */
}

/* The tiny threshold: the condition holds for every |x| <= tiny (checked at
 * the worst points of every binade: B grows with |x| and the distance to the
 * boundary is fixed in a binade, except at negative powers of two), fails
 * just above, and MPFR confirms both sides. */
static void check_tiny_threshold(enum ga_function fn, const struct ga_format *f, ga_bits tiny)
{
    int mbits = ga_mantissa_bits(f);
    ga_bits sign = tiny & ga_sign_mask(f), top = tiny & ~ga_sign_mask(f);
    ga_bits first_normal = (ga_bits)1 << mbits;
    double smallest = ga_decode(f, 1);

    /* Exponent fields 0 and 1: the boundary lies at least half the smallest
     * subnormal above x/2 (a tie moves up by half of it, then half more). */
    assert_true(top >= 2 * first_normal);
    assert_true(tiny_excess_bound(fn, ga_decode(f, 2 * first_normal - 1)) < smallest / 2);
    for (ga_bits e = 2; e <= top >> mbits; e++) {
        ga_bits last = (e << mbits) | (first_normal - 1);
        assert_true(tiny_condition(fn, f, sign | (last < top ? last : top)));
        assert_true(tiny_condition(fn, f, sign | (e << mbits)));
    }
    assert_false(tiny_condition(fn, f, sign | (top + 1)));
    assert_int_equal(mpfr_truth(fn, f, tiny).rounded, ga_fast_half_up(f, tiny));
    assert_int_not_equal(mpfr_truth(fn, f, sign | (top + 1)).rounded,
                         ga_fast_half_up(f, sign | (top + 1)));
}

/* The property each threshold region claims for x, per MPFR. */
enum region { TINY, RIGHT, LEFT };

static int region_holds(enum ga_function fn, const struct ga_format *f, enum region r, ga_bits x)
{
    ga_bits rounded = mpfr_truth(fn, f, x).rounded;
    return r == TINY ? rounded == ga_fast_half_up(f, x)
         : r == RIGHT ? rounded == x : rounded == ga_zero(f, true);
}

/* Right and left: the property holds at the threshold and not at the
 * encoding before it; it is monotone beyond (fast_thresholds.c), which the
 * samples check: every encoding within `near` of it, then `far` encodings
 * spread evenly up to the end of the range. */
static void check_monotone_threshold(enum ga_function fn, const struct ga_format *f,
                                     enum region r, ga_bits threshold, size_t near, size_t far)
{
    ga_bits sign = threshold & ga_sign_mask(f), m = threshold & ~ga_sign_mask(f);
    ga_bits end = ga_max_finite(f, false);

    assert_true(region_holds(fn, f, r, threshold));
    assert_false(region_holds(fn, f, r, sign | (m - 1)));
    for (size_t k = 0; k < near && m + k <= end; k++)
        assert_true(region_holds(fn, f, r, sign | (m + (ga_bits)k)));
    for (size_t k = 0; k < far; k++)
        assert_true(region_holds(fn, f, r, sign | (m + (ga_bits)((end - m) * (k + 1) / far))));
}

/* Tiny: every encoding within `near` below the threshold, `far` spread
 * evenly from 0, and `far` random subnormals. */
static void check_tiny_samples(enum ga_function fn, const struct ga_format *f, ga_bits tiny,
                               size_t near, size_t far)
{
    ga_bits sign = tiny & ga_sign_mask(f), m = tiny & ~ga_sign_mask(f);
    ga_bits first_normal = (ga_bits)1 << ga_mantissa_bits(f);

    for (size_t k = 0; k < near; k++)
        assert_true(region_holds(fn, f, TINY, sign | (m - (ga_bits)k)));
    for (size_t k = 1; k <= far; k++)
        assert_true(region_holds(fn, f, TINY, sign | (ga_bits)((uint64_t)m * k / far)));
    for (size_t k = 0; k < far; k++) {
        ga_bits subnormal = test_rng_encoding_in(&rng, 1, first_normal - 1);
        assert_true(region_holds(fn, f, TINY, sign | subnormal));
    }
}

static void test_thresholds_tight(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int i = 0; i < 3; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            const struct ga_format *f = formats[i];
            const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, f);
            check_tiny_threshold(fn, f, th->tiny_pos);
            check_tiny_threshold(fn, f, th->tiny_neg);
            check_monotone_threshold(fn, f, RIGHT, th->right, 1, 0);
            check_monotone_threshold(fn, f, LEFT, th->left, 1, 0);
            /* Between the thresholds the double evaluations apply: |x| < 15. */
            assert_true(ga_decode(f, th->right) < 15 && ga_decode(f, th->left) > -15);
            assert_true(ga_decode(f, th->left) > GA_FAST_TANH_DOUBLE_MIN);
            assert_true(ga_decode(f, th->right) >= 1 && ga_decode(f, th->left) <= -1);
            assert_true(ga_sign(f, th->tiny_neg) && ga_sign(f, th->left)
                        && !ga_sign(f, th->tiny_pos) && !ga_sign(f, th->right));
        }
}

/* float32 beyond each threshold (16-bit formats are covered exhaustively).
 * MPFR is slow just beyond GELU's left threshold (0.6 ms an input), so that
 * side gets fewer near samples. */
static void test_thresholds_hold_beyond(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, f32);
        check_monotone_threshold(fn, f32, RIGHT, th->right, test_scaled(2000), test_scaled(2000));
        check_monotone_threshold(fn, f32, LEFT, th->left,
                                 test_scaled(fn == GA_GELU ? 300 : 2000), test_scaled(2000));
        check_tiny_samples(fn, f32, th->tiny_pos, test_scaled(2000), test_scaled(2000));
        check_tiny_samples(fn, f32, th->tiny_neg, test_scaled(2000), test_scaled(2000));
    }
}

/* ---- agreement ---- */

static void test_all_16bit_inputs(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };
    (void)state;
    for (int i = 0; i < 2; i++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            for (ga_bits x = 0; x <= 0xffff; x++)
                check_agree(fn, formats[i], x);
}

/* A float32 with |x| log-uniform in [lo, hi], of the given sign. */
static ga_bits log_uniform(double lo, double hi, int negative)
{
    float x = (float)(lo * pow(hi / lo, test_rng_uniform(&rng)));
    return float_bits(negative ? -x : x);
}

/* Random float32 inputs between the tiny and the outer thresholds (where the
 * double evaluation decides), and in the tails: [-20, -5] and [4, 8]. */
static void test_float32_random(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        for (size_t k = 0; k < test_scaled(60000); k++) {
            check_agree(fn, f32, log_uniform(4e-8, 16, 0));
            check_agree(fn, f32, log_uniform(4e-8, 3, 1));
        }
        /* MPFR costs 0.1-0.6 ms an input for GELU below -3 */
        for (size_t k = 0; k < test_scaled(fn == GA_GELU ? 1500 : 20000); k++) {
            check_agree(fn, f32, float_bits((float)(-3 - 17 * test_rng_uniform(&rng))));
            check_agree(fn, f32, float_bits((float)(4 + 4 * test_rng_uniform(&rng))));
        }
    }
}

/* Where float32 results become subnormal (|f(x)| = 2^-126, near x = -13.2
 * for GELU and -9.9 for the tanh form), the decision leaves the integer
 * rounding for ga_encode: every encoding within 300 of that point. */
static void test_float32_subnormal_results(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        double lo = -15, hi = -5, rel_err;
        for (int i = 0; i < 60; i++) {  /* bisection: |f| increases with x here */
            double mid = (lo + hi) / 2;
            double v = fn == GA_GELU ? ga_fast_gelu_double(mid, &rel_err)
                                     : ga_fast_gelu_tanh_double(mid, &rel_err);
            if (fabs(v) < 0x1p-126)
                lo = mid;
            else
                hi = mid;
        }
        for (int k = -300; k < 300; k++)
            check_agree(fn, f32, float_bits((float)lo) + (ga_bits)k);
    }
}

/* The inputs whose results lie nearest to a rounding boundary, measured in
 * units of the fast bound: the fast path falls back to MPFR below 1.  Out of
 * `scan` random inputs between the thresholds, the `keep` nearest are
 * compared (ga_truth_fast then gives MPFR's answer or its own). */
struct candidate { ga_bits x; double margin; };

static int by_margin(const void *a, const void *b)
{
    double d = ((const struct candidate *)a)->margin - ((const struct candidate *)b)->margin;
    return (d > 0) - (d < 0);
}

static double boundary_margin(enum ga_function fn, ga_bits x)
{
    double xd = ga_decode(f32, x), rel_err;
    double v = fn == GA_GELU ? ga_fast_gelu_double(xd, &rel_err)
                             : ga_fast_gelu_tanh_double(xd, &rel_err);
    ga_bits r = ga_encode(f32, v);
    double mid_up = (ga_decode(f32, r) + ga_decode(f32, ga_next_up(f32, r))) / 2;
    double mid_down = (ga_decode(f32, r) + ga_decode(f32, ga_next_down(f32, r))) / 2;
    return fmin(mid_up - v, v - mid_down) / (fabs(v) * rel_err);
}

static void test_float32_near_boundaries(void **state)
{
    size_t scan = test_scaled(1000000), keep = test_scaled(400);
    struct candidate *c = malloc(scan * sizeof *c);
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, f32);
        size_t n = 0, fallbacks = 0;
        while (n < scan) {
            ga_bits x = test_rng_encoding(&rng, f32);
            ga_bits m = x & 0x7fffffff;
            if (x & 0x80000000 ? m <= (th->tiny_neg & 0x7fffffff) || m >= (th->left & 0x7fffffff)
                               : m <= th->tiny_pos || m >= th->right)
                continue;
            c[n].x = x;
            c[n++].margin = boundary_margin(fn, x);
        }
        qsort(c, scan, sizeof *c, by_margin);
        for (size_t k = 0; k < keep; k++) {
            struct ga_truth t;
            fallbacks += !ga_truth_fast_only(fn, f32, c[k].x, &t);
            check_agree(fn, f32, c[k].x);
        }
        printf("# %s: nearest margin %.3g bounds (x = 0x%08" PRIx64 "), %zu of %zu scanned fall back\n",
               ga_function_name(fn), c[0].margin, c[0].x, fallbacks, scan);
    }
    free(c);
}

/* ---- error bounds ---- */

/* The double evaluations err by less than the bound they return, measured
 * against MPFR's exact value, over their whole range [-36 or -20, 40]. */
static void test_double_bounds_hold(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        double lo = fn == GA_GELU ? GA_FAST_GELU_DOUBLE_MIN : GA_FAST_TANH_DOUBLE_MIN;
        double worst = 0, bound = 0;
        for (size_t k = 0; k < test_scaled(fn == GA_GELU ? 600 : 6000); k++) {
            ga_bits x = float_bits((float)(lo + (40 - lo) * test_rng_uniform(&rng)));
            struct ga_truth t = mpfr_truth(fn, f32, x);
            double rel_err, v = fn == GA_GELU ? ga_fast_gelu_double(ga_decode(f32, x), &rel_err)
                                              : ga_fast_gelu_tanh_double(ga_decode(f32, x), &rel_err);
            struct ga_exact e = ga_fast_exact_from_double(v);
            double d = relative_difference(&e, &t.exact);
            assert_true(d <= rel_err * (1 + 0x1p-40) + 0x1p-52);
            worst = fmax(worst, d);
            bound = fmax(bound, rel_err);
        }
        printf("# %s double evaluation: largest error seen 2^%.1f (bound 2^%.1f)\n",
               ga_function_name(fn), log2(worst), log2(bound));
    }
}

/* The far left tail (logarithmic form) and the clamp to GA_EXACT_EXP_MIN. */
static void test_left_tail_exact(void **state)
{
    (void)state;
    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
        double start = fn == GA_GELU ? -GA_FAST_GELU_DOUBLE_MIN : -GA_FAST_TANH_DOUBLE_MIN;
        for (size_t k = 0; k < test_scaled(3000); k++)
            check_agree(fn, f32, log_uniform(start, 3e38, 1));
        /* every encoding just beyond the switch to the tail */
        for (ga_bits m = float_bits((float)start) - 200; m < float_bits((float)start) + 200; m++)
            check_agree(fn, f32, m | 0x80000000u);
    }
    /* Around the clamp, |f(x)| = 2^GA_EXACT_EXP_MIN = 2^-2^40: from the leading
     * terms x^2/(2 ln 2) = 2^40 for GELU and (2 beta kappa/ln 2)|x|^3 = 2^40
     * for the tanh form (the other terms move it by less than an encoding). */
    for (int k = -300; k < 300; k++) {
        float gelu_clamp = (float)sqrt(0x1p41 * M_LN2);
        float tanh_clamp = (float)cbrt(0x1p40 * M_LN2 / (2 * 0.7978845608028654 * 0.044715));
        check_agree(GA_GELU, f32, (float_bits(gelu_clamp) + (ga_bits)k) | 0x80000000u);
        check_agree(GA_GELU_TANH, f32, (float_bits(tanh_clamp) + (ga_bits)k) | 0x80000000u);
    }
}

/* The C library's erfc, exp and exp2 against MPFR: the assumption
 * GA_FAST_LIBM_REL_ERR must hold with a factor of 16 to spare on the
 * arguments the fast oracle uses, densest where erfc is hardest (t > 5). */
static double libm_error(int which, double t)
{
    mpfr_t a, r;
    double got, err;

    mpfr_inits2(80, a, r, (mpfr_ptr)0);
    mpfr_set_d(a, t, MPFR_RNDN);
    if (which == 0) {
        mpfr_erfc(r, a, MPFR_RNDN);
        got = erfc(t);
    } else if (which == 1) {
        mpfr_exp(r, a, MPFR_RNDN);
        got = exp(t);
    } else {
        mpfr_exp2(r, a, MPFR_RNDN);
        got = exp2(t);
    }
    mpfr_sub_d(a, r, got, MPFR_RNDN);
    mpfr_div(a, a, r, MPFR_RNDN);
    err = fabs(mpfr_get_d(a, MPFR_RNDN));
    mpfr_clears(a, r, (mpfr_ptr)0);
    return err;
}

static void test_libm_assumption(void **state)
{
    static const struct { int which; double lo, hi; size_t n; const char *name; } ranges[] = {
        { 0, -6, 26, 1500, "erfc on [-6, 26]" },   /* MPFR's erfc is slow: fewer */
        { 0, 5, 26, 1500, "erfc on [5, 26]" },
        { 1, -708, 604, 4000, "exp on [-708, 604]" },
        { 1, -2, 2, 4000, "exp on [-2, 2]" },
        { 2, 0, 1, 4000, "exp2 on [0, 1]" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        double worst = 0;
        for (size_t k = 0; k < test_scaled(ranges[i].n); k++) {
            double t = ranges[i].lo + (ranges[i].hi - ranges[i].lo) * test_rng_uniform(&rng);
            worst = fmax(worst, libm_error(ranges[i].which, t));
        }
        printf("# %s: largest relative error seen %.2f * 2^-52\n", ranges[i].name, worst * 0x1p52);
        assert_true(worst <= GA_FAST_LIBM_REL_ERR / 16);
    }
}

/* ---- batch and threads ---- */

/* The batch equals single calls; concurrent threads give the same results. */
static void test_batch_and_threads(void **state)
{
    enum { N = 1 << 16 };
    ga_bits *x = malloc(N * sizeof *x);
    struct ga_truth *serial = malloc(N * sizeof *serial), *parallel = malloc(N * sizeof *parallel);
    (void)state;
    for (size_t i = 0; i < N; i++)
        x[i] = i % 3 == 0 ? test_rng_encoding(&rng, f32) : log_uniform(1e-9, 16, (int)(i & 1));
    for (int fn = 0; fn < GA_ALL_FUNCTION_COUNT; fn++) {
        assert_int_equal(ga_truth_fast_batch(fn, f32, x, serial, N), 0);
        for (size_t i = 0; i < N; i += 97) {
            struct ga_truth one;
            assert_int_equal(ga_truth_fast(fn, f32, x[i], &one), GA_TRUTH_OK);
            assert_int_equal(one.rounded, serial[i].rounded);
            assert_int_equal(one.direction, serial[i].direction);
            assert_memory_equal(&one.exact, &serial[i].exact, sizeof one.exact);
        }
#pragma omp parallel for schedule(dynamic, 256)
        for (size_t i = 0; i < N; i += 256)
            ga_truth_fast_batch(fn, f32, x + i, parallel + i, 256);
        for (size_t i = 0; i < N; i++) {
            assert_int_equal(parallel[i].rounded, serial[i].rounded);
            assert_int_equal(parallel[i].direction, serial[i].direction);
            assert_memory_equal(&parallel[i].exact, &serial[i].exact, sizeof serial[i].exact);
        }
    }
    free(x);
    free(serial);
    free(parallel);
}

/* ---- the derivatives ---- */

static const enum ga_function grads[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

/* Every 16-bit input of both derivatives, and the special values of float32. */
static void test_grad_16bit_and_specials(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };
    (void)state;
    for (int g = 0; g < 2; g++) {
        for (int i = 0; i < 2; i++)
            for (ga_bits x = 0; x <= 0xffff; x++)
                check_agree(grads[g], formats[i], x);
        ga_bits specials[] = { 0x7f800000u, 0xff800000u, 0, 0x80000000u, 0x7fc00000u,
                               0x7f7fffffu, 0xff7fffffu, 1, 0x80000001u };
        for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++)
            check_agree(grads[g], f32, specials[k]);
    }
}

/* Random float32 inputs: log-uniform on each side of 0 (the tiny region,
 * the root, the left tail), and uniform where the regions meet; the share
 * the fast path leaves to MPFR is printed. */
static void test_grad_float32_random(void **state)
{
    (void)state;
    for (int g = 0; g < 2; g++) {
        enum ga_function fn = grads[g];
        size_t fallbacks = 0, scanned = 0;
        struct ga_truth t;
        for (size_t k = 0; k < test_scaled(20000); k++) {
            ga_bits a = log_uniform(1e-12, 10, 0), b = log_uniform(1e-12, 50, 1);
            check_agree(fn, f32, a);
            check_agree(fn, f32, b);
            fallbacks += !ga_truth_fast_only(fn, f32, a, &t) + !ga_truth_fast_only(fn, f32, b, &t);
            scanned += 2;
        }
        /* around the root, -36 and -20 (the tails), 8 (the region of 1) */
        for (size_t k = 0; k < test_scaled(3000); k++) {
            check_agree(fn, f32, float_bits((float)(-0.7 - 0.1 * test_rng_uniform(&rng))));
            check_agree(fn, f32, float_bits((float)(-35 - 2 * test_rng_uniform(&rng))));
            check_agree(fn, f32, float_bits((float)(-19 - 2 * test_rng_uniform(&rng))));
            check_agree(fn, f32, float_bits((float)(7.5 + test_rng_uniform(&rng))));
        }
        printf("# %s: %zu of %zu log-uniform float32 inputs left to MPFR\n",
               ga_function_name(fn), fallbacks, scanned);
    }
}

/* The regions decided without evaluating, at their edges, in every covered
 * format: every encoding within 64 of 8, of -36 or -20, and of the tiny
 * bounds 2^-(p+1) (x > 0) and -2^-(p+2). */
static void test_grad_region_edges(void **state)
{
    const struct ga_format *formats[] = { f32, f16, bf16 };
    (void)state;
    for (int g = 0; g < 2; g++)
        for (int i = 0; i < 3; i++) {
            const struct ga_format *f = formats[i];
            double edges[] = { 8, grads[g] == GA_GELU_GRAD ? -36 : -20,
                               ldexp(1, -f->precision - 1), -ldexp(1, -f->precision - 2) };
            for (int e = 0; e < 4; e++) {
                ga_bits at = ga_encode(f, edges[e]);
                for (int k = -64; k <= 64; k++)
                    check_agree(grads[g], f, at + (ga_bits)k);
            }
        }
}

/* The facts the regions rest on, from MPFR: d(8) - 1 below 2^-44 through
 * the bounds the proof uses (they decrease for larger x), |d(-36)| and
 * |d(-20)| below 2^-850 (gelu' and the tanh form's), and the tiny region's
 * bound |d - 1/2| < beta |x| (1 + 2 kappa x^2) on a sample of x. */
static void test_grad_region_facts(void **state)
{
    const struct ga_format *f64 = ga_format_get(GA_FLOAT64);
    (void)state;
    mpfr_t a, b;

    /* d(8) - 1 < 8 phi(8) for gelu', < (2 + 2|P|) e^(-2w) for the tanh form
     * (doc/oracle.md), each below 2^-44, rounded upwards */
    mpfr_inits2(128, a, b, (mpfr_ptr)0);
    mpfr_const_pi(a, MPFR_RNDD);
    mpfr_mul_ui(a, a, 2, MPFR_RNDD);
    mpfr_sqrt(a, a, MPFR_RNDD);                       /* sqrt(2 pi) from below */
    mpfr_set_si(b, -32, MPFR_RNDU);
    mpfr_exp(b, b, MPFR_RNDU);
    mpfr_mul_ui(b, b, 8, MPFR_RNDU);
    mpfr_div(b, b, a, MPFR_RNDU);                     /* 8 phi(8) */
    assert_true(mpfr_cmp_si_2exp(b, 1, -44) < 0);
    mpfr_set_d(a, 2 * 0.7978845608028655 * (8 + 0.044715 * 512) * (1 - 0x1p-40), MPFR_RNDD);
    mpfr_neg(a, a, MPFR_RNDU);
    mpfr_exp(a, a, MPFR_RNDU);                        /* e^(-2w), 2w from below */
    mpfr_mul_d(a, a, 2 + 2 * 8 * 0.7978845608028655 * (1 + 3 * 0.044715 * 64) * (1 + 0x1p-40),
               MPFR_RNDU);
    assert_true(mpfr_cmp_si_2exp(a, 1, -44) < 0);
    mpfr_clears(a, b, (mpfr_ptr)0);
    for (int g = 0; g < 2; g++) {
        struct ga_truth t = mpfr_truth(grads[g], f64, ga_encode(f64, 8.0));
        assert_true(t.exact.exp == 1 && t.exact.mant >= 0.5);  /* d(8) >= 1 */
        t = mpfr_truth(grads[g], f64, ga_encode(f64, grads[g] == GA_GELU_GRAD ? -36.0 : -20.0));
        assert_true(t.exact.mant < 0 && t.exact.exp < -850);
        for (int k = 0; k < 200; k++) {
            double x = ldexp(1 + test_rng_uniform(&rng), -(int)(8 + k % 40)) * (k & 1 ? -1 : 1);
            t = mpfr_truth(grads[g], f64, ga_encode(f64, x));
            /* exact within 2^-53 of d, so d - 1/2 (Sterbenz) within 2^-54 */
            double d = ldexp(t.exact.mant, (int)t.exact.exp) - 0.5;
            assert_true(fabs(d) < GA_FAST_BETA * fabs(x) * (1 + 0.1 * x * x) + 0x1p-54);
            assert_true(d * x > 0);
        }
    }
}

/* The double evaluations' absolute bounds hold, against MPFR's exact
 * values, on [-36, 8] and [-20, 8]; the largest error seen is printed. */
static void test_grad_double_bounds_hold(void **state)
{
    (void)state;
    for (int g = 0; g < 2; g++) {
        double lo = grads[g] == GA_GELU_GRAD ? GA_FAST_GELU_DOUBLE_MIN : GA_FAST_TANH_DOUBLE_MIN;
        double worst = 0;
        for (size_t k = 0; k < test_scaled(3000); k++) {
            ga_bits x = k % 2 ? float_bits((float)(lo + (8 - lo) * test_rng_uniform(&rng)))
                              : log_uniform(1e-6, 8, (int)(k % 4 == 0));
            struct ga_truth t = mpfr_truth(grads[g], f32, x);
            double err, v = grads[g] == GA_GELU_GRAD
                            ? ga_fast_gelu_grad_double(ga_decode(f32, x), &err)
                            : ga_fast_gelu_tanh_grad_double(ga_decode(f32, x), &err);
            double d = fabs(v - ldexp(t.exact.mant, (int)t.exact.exp));  /* within 2^-53 |d| */
            assert_true(d <= err + 0x1p-52 * fabs(v));
            worst = fmax(worst, d / err);
        }
        printf("# %s double evaluation: largest error seen %.3f of its bound\n",
               ga_function_name(grads[g]), worst);
    }
}

/* The left tails' exact values (logarithmic form) and the clamp. */
static void test_grad_left_tail_exact(void **state)
{
    (void)state;
    for (int g = 0; g < 2; g++) {
        double start = grads[g] == GA_GELU_GRAD ? 36 : 20;
        for (size_t k = 0; k < test_scaled(1000); k++)
            check_agree(grads[g], f32, log_uniform(start, 3e38, 1));
    }
    for (int k = -100; k < 100; k++) {
        float gelu_clamp = (float)sqrt(0x1p41 * M_LN2);
        float tanh_clamp = (float)cbrt(0x1p40 * M_LN2 / (2 * 0.7978845608028654 * 0.044715));
        check_agree(GA_GELU_GRAD, f32, (float_bits(gelu_clamp) + (ga_bits)k) | 0x80000000u);
        check_agree(GA_GELU_TANH_GRAD, f32, (float_bits(tanh_clamp) + (ga_bits)k) | 0x80000000u);
    }
}

static int report_count(void **state)
{
    (void)state;
    printf("# float32 inputs compared with MPFR: %lu\n", mpfr_checked);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_helpers),
        cmocka_unit_test(test_thresholds_tight),
        cmocka_unit_test(test_thresholds_hold_beyond),
        cmocka_unit_test(test_all_16bit_inputs),
        cmocka_unit_test(test_float32_random),
        cmocka_unit_test(test_float32_subnormal_results),
        cmocka_unit_test(test_float32_near_boundaries),
        cmocka_unit_test(test_double_bounds_hold),
        cmocka_unit_test(test_left_tail_exact),
        cmocka_unit_test(test_libm_assumption),
        cmocka_unit_test(test_batch_and_threads),
        cmocka_unit_test(test_grad_16bit_and_specials),
        cmocka_unit_test(test_grad_float32_random),
        cmocka_unit_test(test_grad_region_edges),
        cmocka_unit_test(test_grad_region_facts),
        cmocka_unit_test(test_grad_double_bounds_hold),
        cmocka_unit_test(test_grad_left_tail_exact),
    };

    rng = test_rng(0);
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests(tests, NULL, report_count);
}
