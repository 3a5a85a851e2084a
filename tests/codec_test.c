/* Rounding into a format and stepping between encodings
 * (src/formats/codec.c, neighbors.c, round_mpfr.c), against references
 * that share no code with them: MPFR's own rounding to p bits with
 * subnormalization for doubles (bfloat16 has no hardware type here), the
 * hardware's float conversion, values past double precision next to every
 * midpoint of the 16-bit formats (where rounding through a double would
 * go wrong), and the order of the values themselves for ordinals, distances
 * and ulps. */
#include <float.h>
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

#include "formats/format.h"
#include "formats/round_mpfr.h"
#include "test_random.h"

static const struct ga_format *f32, *f16, *bf16;

/* v rounded to f by MPFR: p bits, exponent range cut to f's (MPFR's
 * exponents are IEEE's plus one), subnormals by mpfr_subnormalize; overflow
 * saturated in a format without infinities. */
static double mpfr_reference(const struct ga_format *f, double v)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t r;
    int inexact;
    double out;

    mpfr_set_emin(f->emin - f->precision + 2);
    mpfr_set_emax(f->emax + 1);
    mpfr_init2(r, f->precision);
    inexact = mpfr_set_d(r, v, MPFR_RNDN);
    inexact = mpfr_check_range(r, inexact, MPFR_RNDN);
    mpfr_subnormalize(r, inexact, MPFR_RNDN);
    out = mpfr_get_d(r, MPFR_RNDN);
    /* a format without infinities saturates instead (its default
     * convention); its largest finite is p ones times 2^(emax - p + 1), one
     * step less in E4M3FN, whose all-ones encoding is NaN (MPFR takes it for
     * a number: 480) */
    if (!ga_has_infinity(f)) {
        double ones = ldexp(1.0, f->precision) - 1 - (f->specials == GA_SPECIALS_NAN_ONLY);
        double largest = ldexp(ones, f->emax - f->precision + 1);
        if (fabs(out) > largest)
            out = copysign(largest, out);
    }
    mpfr_clear(r);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    return out;
}

static void check_round(const struct ga_format *f, double v)
{
    double want = mpfr_reference(f, v), got = ga_round(f, v);
    if (!(got == want && signbit(got) == signbit(want)))
        fail_msg("%s: round(%a) = %a, MPFR %a", f->name, v, got, want);
}

/* Doubles over each format's range, subnormals and overflow included, with
 * every third one a midpoint between neighbours or next to one. */
static void test_round_matches_mpfr(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        for (size_t i = 0; i < test_scaled(50000); i++) {
            int e = f->emin - f->precision - 2
                  + (int)test_rng_below(&rng, (uint64_t)(f->emax - f->emin + f->precision + 5));
            double v = ldexp(1 + test_rng_uniform(&rng), e);
            if (i % 3 == 0) {   /* a midpoint, or its neighbour in double */
                ga_bits x = ga_encode(f, v) & ~ga_sign_mask(f);
                if (ga_classify(f, ga_next_up(f, x)) == GA_INFINITE)
                    continue;
                v = (ga_decode(f, x) + ga_decode(f, ga_next_up(f, x))) / 2;
                v = i % 9 == 0 ? v : i % 9 == 3 ? nextafter(v, 0) : nextafter(v, INFINITY);
            }
            check_round(f, test_rng_below(&rng, 2) ? -v : v);
        }
        check_round(f, 0.0);
        check_round(f, -0.0);
        check_round(f, INFINITY);
        check_round(f, -INFINITY);
        check_round(f, DBL_MAX);
        check_round(f, 4.9e-324);
        assert_true(isnan(ga_round(f, NAN)));
    }
    /* float32 also against the hardware */
    for (size_t i = 0; i < test_scaled(100000); i++) {
        uint64_t bits = test_rng_next(&rng);
        double v;
        memcpy(&v, &bits, sizeof v);
        v = ldexp(frexp(v, &(int){0}), (int)test_rng_below(&rng, 300) - 160);
        if (!isnan(v))
            assert_true(ga_round(f32, v) == (double)(float)v);
    }
}

/* ---- round_mpfr: values a double cannot hold ---- */

static ga_bits round_value(const struct ga_format *f, mpfr_srcptr v)
{
    return ga_round_mpfr(f, v);
}

/* mid = (a + b) / 2 exactly, then mid, mid + 2^-90 mid and mid - 2^-90 mid. */
static void check_midpoint(const struct ga_format *f, ga_bits a, ga_bits b, mpfr_t mid,
                           mpfr_t v)
{
    ga_bits sign = a & ga_sign_mask(f);
    ga_bits even = (a & 1) == 0 ? a : b;
    ga_bits away = (a & ~ga_sign_mask(f)) > (b & ~ga_sign_mask(f)) ? a : b;   /* larger magnitude */
    ga_bits toward = away == a ? b : a;
    mpfr_set_d(mid, ga_decode(f, a), MPFR_RNDN);
    mpfr_add_d(mid, mid, ga_decode(f, b), MPFR_RNDN);
    mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
    assert_int_equal(round_value(f, mid), even);
    mpfr_mul_2si(v, mid, -90, MPFR_RNDN);
    mpfr_add(v, mid, v, MPFR_RNDN);               /* further from zero */
    assert_int_equal(round_value(f, v), away);
    mpfr_mul_2si(v, mid, -90, MPFR_RNDN);
    mpfr_sub(v, mid, v, MPFR_RNDN);               /* closer to zero */
    if (round_value(f, v) != toward)
        fail_msg("%s: just below the midpoint of 0x%x and 0x%x (sign 0x%x): 0x%x", f->name,
                 (unsigned)a, (unsigned)b, (unsigned)sign, (unsigned)round_value(f, v));
}

static void test_round_mpfr_midpoints(void **state)
{
    mpfr_t mid, v;
    struct test_rng rng = test_rng(1);
    (void)state;
    mpfr_inits2(200, mid, v, (mpfr_ptr)0);
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        ga_bits max = ga_max_finite(f, false);
        if (f->bits == 16) {
            for (ga_bits x = 0; x < max; x++) {
                check_midpoint(f, x, x + 1, mid, v);
                check_midpoint(f, x | ga_sign_mask(f), (x + 1) | ga_sign_mask(f), mid, v);
            }
        } else {
            for (size_t i = 0; i < test_scaled(20000); i++) {
                ga_bits x = test_rng_encoding_in(&rng, 0, max - 1);
                check_midpoint(f, x, x + 1, mid, v);
                check_midpoint(f, x | ga_sign_mask(f), (x + 1) | ga_sign_mask(f), mid, v);
            }
        }
        /* past the largest finite: half an ulp up goes to infinity (the
         * next value, 2^(emax+1), is even), a little less does not */
        mpfr_set_d(v, ga_decode(f, max), MPFR_RNDN);
        mpfr_set_ui_2exp(mid, 1, f->emax - f->precision, MPFR_RNDN);   /* half an ulp */
        mpfr_add(v, v, mid, MPFR_RNDN);
        assert_int_equal(round_value(f, v), ga_infinity(f, false));
        mpfr_nextbelow(v);
        assert_int_equal(round_value(f, v), max);
        mpfr_neg(v, v, MPFR_RNDN);
        assert_int_equal(round_value(f, v), max | ga_sign_mask(f));
        /* half the smallest subnormal goes to zero, with its sign */
        mpfr_set_si_2exp(v, -1, f->emin - f->precision, MPFR_RNDN);
        assert_int_equal(round_value(f, v), ga_zero(f, true));
        mpfr_nextbelow(v);   /* a little more magnitude */
        assert_int_equal(round_value(f, v), ga_min_subnormal(f, true));
        /* far outside the double range */
        mpfr_set_si_2exp(v, 3, 5000, MPFR_RNDN);
        assert_int_equal(round_value(f, v), ga_infinity(f, false));
        mpfr_set_si_2exp(v, -3, -5000, MPFR_RNDN);
        assert_int_equal(round_value(f, v), ga_zero(f, true));
        mpfr_set_inf(v, -1);
        assert_int_equal(round_value(f, v), ga_infinity(f, true));
        mpfr_set_zero(v, -1);
        assert_int_equal(round_value(f, v), ga_zero(f, true));
        mpfr_set_nan(v);
        assert_int_equal(ga_classify(f, round_value(f, v)), GA_NAN);
    }
    mpfr_clears(mid, v, (mpfr_ptr)0);
}

/* ---- neighbours, ordinals, distances, ulps ---- */

struct valued {
    double v;
    ga_bits x;
};

static int by_value(const void *a, const void *b)
{
    double d = ((const struct valued *)a)->v - ((const struct valued *)b)->v;
    return (d > 0) - (d < 0);
}

/* All non-NaN encodings sorted by value: ordinals climb by one between
 * distinct values and stay put between -0 and +0; next_up and next_down
 * walk the same order; distance counts the steps. */
static void test_order_of_values(void **state)
{
    static struct valued all[0x10000];
    (void)state;
    for (int k = 0; k < 2; k++) {
        const struct ga_format *f = k ? bf16 : f16;
        size_t n = 0;
        for (ga_bits x = 0; x <= 0xffff; x++)
            if (ga_classify(f, x) != GA_NAN)
                all[n++] = (struct valued){ ga_decode(f, x), x };
        qsort(all, n, sizeof all[0], by_value);
        for (size_t i = 1; i < n; i++) {
            ga_bits lo = all[i - 1].x, hi = all[i].x;
            if (all[i].v == all[i - 1].v) {   /* the two zeros */
                assert_true(all[i].v == 0);
                assert_int_equal(ga_ordinal(f, lo), ga_ordinal(f, hi));
                assert_int_equal(ga_distance(f, lo, hi), 0);
                continue;
            }
            assert_int_equal(ga_ordinal(f, hi), ga_ordinal(f, lo) + 1);
            assert_int_equal(ga_distance(f, lo, hi), 1);
            assert_int_equal(ga_distance(f, hi, lo), 1);
            if (all[i].v != 0 && all[i - 1].v != 0) {
                assert_int_equal(ga_next_up(f, lo), hi);
                assert_int_equal(ga_next_down(f, hi), lo);
            }
        }
        /* the ends, and the steps through zero */
        assert_int_equal(ga_next_up(f, ga_infinity(f, false)), ga_infinity(f, false));
        assert_int_equal(ga_next_down(f, ga_infinity(f, true)), ga_infinity(f, true));
        assert_int_equal(ga_next_up(f, ga_zero(f, true)), ga_min_subnormal(f, false));
        assert_int_equal(ga_next_down(f, ga_zero(f, false)), ga_min_subnormal(f, true));
        assert_int_equal(ga_next_up(f, ga_min_subnormal(f, true)), ga_zero(f, true));
        assert_int_equal(ga_next_up(f, ga_quiet_nan(f)), ga_quiet_nan(f));
        assert_int_equal(ga_distance(f, ga_infinity(f, true), ga_infinity(f, false)),
                         2 * (uint64_t)ga_ordinal(f, ga_infinity(f, false)));
        assert_int_equal(ga_distance(f, ga_max_finite(f, false), ga_infinity(f, false)), 1);
    }
}

/* The ulp of a representable value is the gap above it in its binade; of
 * any value of a binade, the same; of zero and subnormals, the subnormal
 * step; of infinity, the top binade's. */
static void test_ulp_is_the_gap(void **state)
{
    struct test_rng rng = test_rng(2);
    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        ga_bits max = ga_max_finite(f, false);
        for (size_t i = 0; i < 70000; i++) {
            ga_bits x = f->bits == 16 ? (ga_bits)(i % max) : test_rng_encoding_in(&rng, 0, max - 1);
            double v = ga_decode(f, x), gap = ga_decode(f, x + 1) - v;
            assert_true(ga_ulp(f, v) == gap);
            assert_true(ga_ulp(f, -v) == gap);
            /* anywhere in [v, next): same binade, same ulp */
            assert_true(ga_ulp(f, v + gap * test_rng_uniform(&rng)) == gap);
        }
        double sub = ldexp(1, f->emin - f->precision + 1);
        assert_true(ga_ulp(f, 0) == sub);
        assert_true(ga_ulp(f, sub / 3) == sub);          /* below the smallest subnormal */
        assert_true(ga_ulp(f, INFINITY) == ldexp(1, f->emax - f->precision + 1));
        assert_int_equal(ga_ulp_exponent(f, f->emin - 5), f->emin - f->precision + 1);
        assert_int_equal(ga_ulp_exponent(f, 0), 1 - f->precision);
        assert_int_equal(ga_ulp_exponent(f, f->emax), f->emax - f->precision + 1);
    }
}

/* Every encoding of the 16-bit formats (decoded from a table in sweeps)
 * against its value built here from the definition with ldexp, bit for bit:
 * (-1)^s 1.m 2^(e - bias), 0.m 2^emin for e = 0, infinity and NaN for the
 * all-ones exponent. */
static void test_decode_every_16bit_encoding(void **state)
{
    const struct ga_format *formats[] = { f16, bf16 };

    (void)state;
    for (size_t k = 0; k < 2; k++) {
        const struct ga_format *f = formats[k];
        int mbits = f->precision - 1, ebits = f->bits - 1 - mbits;
        for (uint32_t x = 0; x < (1u << 16); x++) {
            uint32_t m = x & ((1u << mbits) - 1), e = (x >> mbits) & ((1u << ebits) - 1);
            double want, got = ga_decode(f, x);
            if (e == (1u << ebits) - 1)
                want = m ? NAN : INFINITY;
            else if (e == 0)
                want = ldexp((double)m, f->emin - mbits);
            else
                want = ldexp((double)(m | (1u << mbits)), (int)e - (1 - f->emin) - mbits);
            if (x >> 15)
                want = -want;
            if (isnan(want) ? !isnan(got) : memcmp(&want, &got, sizeof got) != 0)
                fail_msg("%s 0x%04x: decoded %a, defined %a", f->name, x, got, want);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_matches_mpfr),
        cmocka_unit_test(test_round_mpfr_midpoints),
        cmocka_unit_test(test_order_of_values),
        cmocka_unit_test(test_ulp_is_the_gap),
        cmocka_unit_test(test_decode_every_16bit_encoding),
    };
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    return cmocka_run_group_tests_name("codec", tests, NULL, NULL);
}
