/* GELU fused with a cast (truth/truth.h ga_truth_cast, impls/cast.h,
 * measure/cast_sweep.h): every bfloat16 input cast into float8_e4m3fn and
 * float8_e5m2, against the formats' definitions written out here: GELU by
 * MPFR at 320 bits, rounded by enumerating every finite value of the format
 * (nearest, ties to the even fraction), overflow decided from the largest
 * finite value and its neighbour one ulp above, as the OCP OFP8 spec
 * defines rounding; bfloat16 decoded as the top half of a float32. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "formats/format.h"
#include "impls/cast.h"
#include "measure/cast_sweep.h"
#include "truth/truth.h"

/* OCP OFP8 v1.0. */
struct fp8 {
    const char *name;
    int exp_bits, frac_bits, bias;
    bool ieee;  /* E5M2: exponent all ones is inf/NaN; E4M3FN: only S.1111.111 is NaN */
};
static const struct fp8 e4m3 = { "float8_e4m3fn", 4, 3, 7, false };
static const struct fp8 e5m2 = { "float8_e5m2", 5, 2, 15, true };

static double fp8_value(const struct fp8 *d, unsigned h)
{
    unsigned e = (h >> d->frac_bits) & ((1u << d->exp_bits) - 1);
    unsigned m = h & ((1u << d->frac_bits) - 1);
    unsigned e_ones = (1u << d->exp_bits) - 1, m_ones = (1u << d->frac_bits) - 1;
    double v;

    if ((d->ieee && e == e_ones) || (!d->ieee && e == e_ones && m == m_ones))
        v = d->ieee && m == 0 ? INFINITY : NAN;
    else if (e == 0)
        v = ldexp((double)m, 1 - d->bias - d->frac_bits);
    else
        v = ldexp((double)((1u << d->frac_bits) + m), (int)e - d->bias - d->frac_bits);
    return h & 0x80 ? -v : v;
}

/* The largest finite positive encoding: the greatest finite value. */
static unsigned fp8_largest(const struct fp8 *d)
{
    unsigned best = 0;
    for (unsigned h = 0; h < 0x80; h++)
        if (isfinite(fp8_value(d, h)) && fp8_value(d, h) > fp8_value(d, best))
            best = h;
    return best;
}

/* v rounded into d under overflow convention o, from the definition. */
static unsigned fp8_round(const struct fp8 *d, mpfr_srcptr v, enum ga_overflow o)
{
    unsigned sign = mpfr_signbit(v) ? 0x80 : 0, top = fp8_largest(d), best = 0;
    double largest = fp8_value(d, top);
    double half_ulp = ldexp(1.0, (int)((top >> d->frac_bits) & 0x7f) - d->bias - d->frac_bits - 1);
    int beyond;
    mpfr_t a, dist, best_dist;

    mpfr_inits2(400, a, dist, best_dist, (mpfr_ptr)0);
    mpfr_abs(a, v, MPFR_RNDN);
    /* Past largest + ulp/2 it overflows; at the tie, when largest's
     * fraction is odd (the even neighbour is the one above). */
    beyond = mpfr_inf_p(a) || mpfr_cmp_d(a, largest + half_ulp) > 0
          || (mpfr_cmp_d(a, largest + half_ulp) == 0 && (top & 1));
    if (beyond) {
        mpfr_clears(a, dist, best_dist, (mpfr_ptr)0);
        if (o == GA_OVERFLOW_SATFINITE)
            return sign | top;
        if (o == GA_OVERFLOW_NAN)
            return sign | 0x7f;                    /* a NaN in both formats */
        return sign | (0x1fu << d->frac_bits);     /* E5M2's infinity */
    }
    mpfr_set_inf(best_dist, 1);
    for (unsigned h = 0; h <= top; h++) {
        int c;
        mpfr_sub_d(dist, a, fp8_value(d, h), MPFR_RNDN);  /* exact at 400 bits */
        mpfr_abs(dist, dist, MPFR_RNDN);
        c = mpfr_cmp(dist, best_dist);
        if (c < 0 || (c == 0 && !(h & 1))) {
            best = h;
            mpfr_set(best_dist, dist, MPFR_RNDN);
        }
    }
    mpfr_clears(a, dist, best_dist, (mpfr_ptr)0);
    return sign | best;
}

static double bfloat16_value(unsigned h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* gelu(x) = (x/2) erfc(-x/sqrt(2)) at 320 bits, in the widest exponent
 * range.  For x > 0, gelu(x) < x strictly; where 320 bits round it to x
 * itself (x above about 26), the value is the 320-bit number just below x:
 * no rounding boundary of a float8 format lies between the two. */
static void gelu_320(mpfr_ptr r, double x)
{
    mpfr_t t;

    mpfr_init2(t, 320);
    mpfr_sqrt_ui(t, 2, MPFR_RNDN);
    mpfr_set_d(r, -x, MPFR_RNDN);
    mpfr_div(t, r, t, MPFR_RNDN);
    mpfr_erfc(t, t, MPFR_RNDN);
    mpfr_mul_d(r, t, x / 2, MPFR_RNDN);
    if (x > 0 && mpfr_cmp_d(r, x) >= 0) {
        mpfr_set_d(r, x, MPFR_RNDN);
        mpfr_nextbelow(r);
    }
    mpfr_clear(t);
}

/* The independent truth of the cast, specials included. */
static unsigned expected_truth(const struct fp8 *d, unsigned x, enum ga_overflow o)
{
    double xd = bfloat16_value(x);
    unsigned y;
    mpfr_t r;

    if (isnan(xd))
        return 0x7f;
    if (xd == 0 || xd == -INFINITY)   /* gelu(+-0) = +-0, gelu(-inf) = -0 */
        return signbit(xd) ? 0x80 : 0;
    /* gelu(+inf) = +inf: exact where the format has infinities, and only
     * saturation replaces it (format.h, enum ga_overflow) */
    if (xd == INFINITY && d->ieee && o != GA_OVERFLOW_SATFINITE)
        return 0x1fu << d->frac_bits;
    mpfr_init2(r, 320);
    if (isinf(xd))
        mpfr_set_inf(r, 1);
    else
        gelu_320(r, xd);
    y = fp8_round(d, r, o);
    mpfr_clear(r);
    return y;
}

static void check_truth(const struct fp8 *d, enum ga_overflow o)
{
    const struct ga_format *in = ga_format_get(GA_BFLOAT16), *out = ga_format_by_name(d->name);
    unsigned beyond = 0;

    for (unsigned x = 0; x < 0x10000; x++) {
        struct ga_truth t;
        unsigned want = expected_truth(d, x, o);
        assert_int_equal(ga_truth_cast(in, x, out, o, &t), GA_TRUTH_OK);
        if (!ga_same_encoding(out, t.rounded, want))
            fail_msg("%s %s: bfloat16 0x%04x (%g): oracle 0x%02x, definition 0x%02x", d->name,
                     ga_overflow_name(o), x, bfloat16_value(x), t.rounded, want);
        beyond += !isnan(bfloat16_value(x)) && isnan(fp8_value(d, expected_truth(d, x, GA_OVERFLOW_NAN)));
    }
    assert_true(beyond > 0);  /* the conventions do part somewhere */
}

static void test_truth_e4m3fn(void **state)
{
    (void)state;
    mpfr_set_emin(mpfr_get_emin_min());
    check_truth(&e4m3, GA_OVERFLOW_SATFINITE);
    check_truth(&e4m3, GA_OVERFLOW_NAN);
}

static void test_truth_e5m2(void **state)
{
    (void)state;
    mpfr_set_emin(mpfr_get_emin_min());
    check_truth(&e5m2, GA_OVERFLOW_INFINITY);
    check_truth(&e5m2, GA_OVERFLOW_SATFINITE);
    check_truth(&e5m2, GA_OVERFLOW_NAN);
}

/* Known points: gelu(1000) is 448 saturated and NaN otherwise; 464 is the
 * tie that stays at 448 (and gelu(464) < 464); 468 overflows. */
static void test_known_points(void **state)
{
    const struct ga_format *in = ga_format_get(GA_BFLOAT16);
    const struct ga_format *out = ga_format_get(GA_FLOAT8_E4M3FN);
    struct ga_truth t;
    (void)state;

    assert_int_equal(ga_truth_cast(in, 0x447a, out, GA_OVERFLOW_SATFINITE, &t), GA_TRUTH_OK);
    assert_int_equal(t.rounded, 0x7e);  /* 1000 -> 448 */
    assert_int_equal(ga_truth_cast(in, 0x447a, out, GA_OVERFLOW_NAN, &t), GA_TRUTH_OK);
    assert_true(ga_is_nan(out, t.rounded));
    assert_int_equal(ga_truth_cast(in, 0x43e8, out, GA_OVERFLOW_NAN, &t), GA_TRUTH_OK);
    assert_int_equal(t.rounded, 0x7e);  /* 464 -> 448 */
    assert_int_equal(ga_truth_cast(in, 0x43ea, out, GA_OVERFLOW_NAN, &t), GA_TRUTH_OK);
    assert_true(ga_is_nan(out, t.rounded));  /* 468 -> NaN */
}

/* erf_satfinite and erf_overflow_nan differ exactly on the inputs whose
 * float32 GELU (correctly rounded here from MPFR: near the threshold it is
 * x itself) rounds past the largest finite value by the definition. */
static void check_models_part(const struct fp8 *d)
{
    const struct ga_format *in = ga_format_get(GA_BFLOAT16), *out = ga_format_by_name(d->name);
    unsigned differ = 0;
    mpfr_t r, y32;

    mpfr_inits2(320, r, y32, (mpfr_ptr)0);
    for (unsigned x = 0; x < 0x10000; x++) {
        double xd = bfloat16_value(x);
        ga_bits sat = ga_gelu_erf_cast(in, x, out, GA_SMALL_SATFINITE);
        ga_bits nan = ga_gelu_erf_cast(in, x, out, GA_SMALL_OVERFLOW_NAN);
        bool beyond;

        if (isnan(xd) || xd == -INFINITY) {
            beyond = false;
        } else {
            if (isinf(xd))
                mpfr_set_inf(r, 1);
            else
                gelu_320(r, xd);
            mpfr_set_d(y32, (double)mpfr_get_flt(r, MPFR_RNDN), MPFR_RNDN);
            beyond = isnan(fp8_value(d, fp8_round(d, y32, GA_OVERFLOW_NAN)));
        }
        if (beyond != !ga_same_encoding(out, sat, nan))
            fail_msg("%s: bfloat16 0x%04x (%g): satfinite 0x%02x, overflow_nan 0x%02x, beyond %d",
                     d->name, x, xd, sat, nan, beyond);
        if (beyond) {  /* NaN; an infinite GELU stays infinite in E5M2 */
            assert_int_equal(sat & 0x7f, fp8_largest(d));
            assert_true(ga_is_nan(out, nan) || (d->ieee && isinf(xd) && isinf(ga_decode(out, nan))));
        }
        differ += beyond;
    }
    mpfr_clears(r, y32, (mpfr_ptr)0);
    assert_true(differ > 1000);
}

static void test_models_part_at_threshold(void **state)
{
    (void)state;
    mpfr_set_emin(mpfr_get_emin_min());
    check_models_part(&e4m3);
    check_models_part(&e5m2);
}

/* The measurement tells them apart: against the saturating truth the
 * saturating model has no NaN beyond the input NaNs and -inf, the other
 * one NaN on every input beyond the threshold, and the other way round. */
static void test_sweep_tells_conventions_apart(void **state)
{
    const struct ga_format *in = ga_format_get(GA_BFLOAT16);
    const struct ga_format *out = ga_format_get(GA_FLOAT8_E4M3FN);
    struct ga_cast_result *r = malloc(sizeof *r);
    struct ga_domain d;
    char err[128];
    ga_bits undecided;
    const struct ga_cast_tally *sat_sat = NULL, *nan_sat = NULL, *sat_nan = NULL, *nan_nan = NULL;
    (void)state;

    assert_non_null(r);
    assert_int_equal(ga_domain_parse(&d, "all", in, err, sizeof err), 0);
    assert_int_equal(ga_cast_sweep(&d, out, r, &undecided), GA_CAST_OK);
    assert_int_equal(r->inputs, 65536);
    for (size_t i = 0; i < r->n; i++) {
        const struct ga_cast_tally *t = &r->tally[i];
        bool sat_model = t->model->how == GA_SMALL_SATFINITE;
        bool nan_model = t->model->how == GA_SMALL_OVERFLOW_NAN;
        if (t->truth == GA_OVERFLOW_SATFINITE)
            sat_sat = sat_model ? t : sat_sat, nan_sat = nan_model ? t : nan_sat;
        if (t->truth == GA_OVERFLOW_NAN)
            sat_nan = sat_model ? t : sat_nan, nan_nan = nan_model ? t : nan_nan;
    }
    assert_non_null(sat_sat);
    assert_non_null(nan_nan);
    /* 254 NaN encodings of bfloat16, and -inf (float32's -inf * 0) */
    assert_int_equal(sat_sat->nan, 255);
    assert_int_equal(nan_nan->nan, 255 + r->beyond);
    assert_int_equal(sat_nan->correct, sat_sat->correct - r->beyond);
    assert_int_equal(nan_sat->correct, nan_nan->correct - r->beyond);
    assert_true(sat_sat->correct == nan_nan->correct);
    ga_domain_free(&d);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_points),
        cmocka_unit_test(test_truth_e4m3fn),
        cmocka_unit_test(test_truth_e5m2),
        cmocka_unit_test(test_models_part_at_threshold),
        cmocka_unit_test(test_sweep_tells_conventions_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
