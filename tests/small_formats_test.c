/* The small formats (float8_e4m3fn, float8_e5m2, float6_e2m3, float6_e3m2,
 * float4_e2m1), against their definitions written out here and nowhere else:
 * sign, exponent field, bias and fraction from the OCP OFP8 and MX specs,
 * decoded by arithmetic; the truth of every encoding recomputed with MPFR at
 * 320 bits and rounded by enumerating every finite value of the format
 * (nearest, ties to the even encoding, the zero of GELU's sign); the
 * overflow conventions; files of one byte per encoding; and the kernel
 * models' conversions, checked the same way. */
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
#include <mpfr.h>

#include "formats/format.h"
#include "impls/catalogue_internal.h"
#include "impls/impl.h"
#include "io/array_open.h"
#include "domain/domain.h"
#include "measure/sweep.h"
#include "truth/fast.h"
#include "truth/truth.h"

/* What each format's specification says (OCP OFP8 v1.0, OCP MX v1.0). */
enum kind {
    IEEE_LIKE,    /* exponent all ones: infinity (fraction 0) or NaN */
    NAN_ALL_ONES, /* no infinity; NaN only as S.1111.111 */
    FINITE_ONLY,  /* every encoding a number */
};

struct definition {
    const char *name;
    int exp_bits, frac_bits, bias;
    enum kind kind;
    double largest, smallest;  /* as the specs state them */
};

static const struct definition definitions[] = {
    { "float8_e4m3fn", 4, 3, 7, NAN_ALL_ONES, 448, 0x1p-9 },
    { "float8_e5m2", 5, 2, 15, IEEE_LIKE, 57344, 0x1p-16 },
    { "float6_e2m3", 2, 3, 1, FINITE_ONLY, 7.5, 0.125 },
    { "float6_e3m2", 3, 2, 3, FINITE_ONLY, 28, 0.0625 },
    { "float4_e2m1", 2, 1, 1, FINITE_ONLY, 6, 0.5 },
};
#define NDEF (sizeof definitions / sizeof definitions[0])

static int width(const struct definition *d) { return 1 + d->exp_bits + d->frac_bits; }
static unsigned count(const struct definition *d) { return 1u << width(d); }

/* The value of encoding h by the definition: NaN, +-inf, or a number. */
static double value_of(const struct definition *d, unsigned h)
{
    unsigned sign = h >> (d->exp_bits + d->frac_bits);
    unsigned e = (h >> d->frac_bits) & ((1u << d->exp_bits) - 1);
    unsigned m = h & ((1u << d->frac_bits) - 1);
    unsigned e_ones = (1u << d->exp_bits) - 1, m_ones = (1u << d->frac_bits) - 1;
    double v;

    if (d->kind == IEEE_LIKE && e == e_ones)
        v = m == 0 ? INFINITY : NAN;
    else if (d->kind == NAN_ALL_ONES && e == e_ones && m == m_ones)
        v = NAN;
    else if (e == 0)  /* subnormal: 0.m * 2^(1 - bias) */
        v = (double)m / (double)(1u << d->frac_bits) * pow(2.0, 1 - d->bias);
    else              /* normal: 1.m * 2^(e - bias) */
        v = (1.0 + (double)m / (double)(1u << d->frac_bits)) * pow(2.0, (int)e - d->bias);
    return sign ? -v : v;
}

static const struct ga_format *format_of(const struct definition *d)
{
    const struct ga_format *f = ga_format_by_name(d->name);
    assert_non_null(f);
    return f;
}

static bool same_value(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

/* ---- the table and the codec ---- */

static void test_table_matches_definitions(void **state)
{
    (void)state;
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);
        double largest = 0, smallest = INFINITY;

        assert_int_equal(f->bits, width(d));
        assert_int_equal(ga_mantissa_bits(f), d->frac_bits);
        assert_int_equal(ga_exponent_bias(f), d->bias);
        assert_int_equal(ga_storage_bytes(f), 1);
        assert_true(ga_is_small_format(f));
        assert_int_equal(ga_has_infinity(f), d->kind == IEEE_LIKE);
        assert_int_equal(ga_has_nan(f), d->kind != FINITE_ONLY);
        for (unsigned h = 0; h < count(d); h++) {
            double v = value_of(d, h);
            if (isfinite(v) && v > largest)
                largest = v;
            if (isfinite(v) && v > 0 && v < smallest)
                smallest = v;
        }
        /* the arithmetic above gives the specs' figures */
        assert_true(largest == d->largest);
        assert_true(smallest == d->smallest);
        assert_true(ga_decode(f, ga_max_finite(f, false)) == d->largest);
        assert_true(ga_decode(f, ga_min_subnormal(f, false)) == d->smallest);
    }
}

/* Every encoding: decode, classify, encode back, hex text, neighbours. */
static void test_codec_round_trips(void **state)
{
    (void)state;
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);
        unsigned nan_count = 0;

        for (unsigned h = 0; h < count(d); h++) {
            double want = value_of(d, h), got = ga_decode(f, h);
            enum ga_class c = ga_classify(f, h);
            char text[16];
            ga_bits back;

            if (!same_value(got, want))
                fail_msg("%s 0x%02x: decode %a, definition %a", d->name, h, got, want);
            assert_int_equal(c == GA_NAN, isnan(want) != 0);
            assert_int_equal(c == GA_INFINITE, isinf(want) != 0);
            assert_int_equal(c == GA_ZERO, want == 0);
            nan_count += isnan(want) != 0;
            if (!isnan(want) && ga_encode(f, want) != h)
                fail_msg("%s 0x%02x: encode(decode) = 0x%02x", d->name, h, ga_encode(f, want));
            ga_format_bits(f, h, text);
            assert_int_equal(strlen(text), 2 + (size_t)(width(d) + 3) / 4);
            assert_int_equal(ga_parse_bits(f, text, &back), 0);
            assert_int_equal(back, h);
            /* next_up steps to the next larger value, or stays at the top */
            if (!isnan(want) && !(isinf(want) && want > 0)) {
                double up = ga_decode(f, ga_next_up(f, h));
                if (want == d->largest && d->kind != IEEE_LIKE)
                    assert_true(up == want);
                else
                    for (unsigned g = 0; g < count(d); g++) {
                        double v = value_of(d, g);
                        if (v > want && v < up)
                            fail_msg("%s: %a lies between 0x%02x and its next_up", d->name, v, h);
                    }
                if (!(want == d->largest && d->kind != IEEE_LIKE))
                    assert_true(up > want || (want == 0 && up > 0));
            }
        }
        assert_int_equal(nan_count, d->kind == IEEE_LIKE ? 2 * ((1u << d->frac_bits) - 1)
                                  : d->kind == NAN_ALL_ONES ? 2 : 0);
        /* wider than the format */
        assert_int_equal(ga_parse_bits(f, d->kind == FINITE_ONLY ? "0xff" : "0x100", &(ga_bits){ 0 }),
                         -2);
    }
}

/* Overflow: values just past the largest, the ties, infinities. */
static void test_overflow_conventions(void **state)
{
    const struct ga_format *e4m3 = ga_format_by_name("float8_e4m3fn");
    const struct ga_format *e5m2 = ga_format_by_name("float8_e5m2");
    const struct ga_format *e2m1 = ga_format_by_name("float4_e2m1");
    (void)state;

    /* E4M3FN: the ulp at 448 is 32; 464 is the tie with 480 (odd fraction
     * 111 vs the next binade): it rounds to 448, anything above overflows */
    assert_int_equal(ga_encode(e4m3, 463.9), 0x7e);
    assert_int_equal(ga_encode(e4m3, 464), 0x7e);
    assert_int_equal(ga_encode(e4m3, 465), 0x7e);          /* satfinite by default */
    assert_int_equal(ga_encode(e4m3, -INFINITY), 0xfe);
    assert_int_equal(ga_encode_overflow(e4m3, 464, GA_OVERFLOW_NAN), 0x7e);
    assert_int_equal(ga_encode_overflow(e4m3, 465, GA_OVERFLOW_NAN), 0x7f);
    assert_int_equal(ga_encode_overflow(e4m3, -465, GA_OVERFLOW_NAN), 0xff);
    assert_int_equal(ga_encode_overflow(e4m3, INFINITY, GA_OVERFLOW_NAN), 0x7f);
    assert_true(ga_is_nan(e4m3, ga_encode(e4m3, NAN)));
    assert_false(ga_overflow_allowed(e4m3, GA_OVERFLOW_INFINITY));
    assert_true(ga_overflow_allowed(e4m3, GA_OVERFLOW_NAN));
    /* E5M2: IEEE; 61440 is the tie between 57344 (fraction 11) and 2^16 */
    assert_int_equal(ga_encode(e5m2, 61439), 0x7b);
    assert_int_equal(ga_encode(e5m2, 61440), 0x7c);
    assert_int_equal(ga_encode(e5m2, INFINITY), 0x7c);
    assert_int_equal(ga_encode_overflow(e5m2, 61440, GA_OVERFLOW_SATFINITE), 0x7b);
    assert_int_equal(ga_encode_overflow(e5m2, -INFINITY, GA_OVERFLOW_SATFINITE), 0xfb);
    assert_int_equal(ga_encode_overflow(e5m2, 61440, GA_OVERFLOW_NAN) & 0x7f, 0x7e);
    assert_int_equal(ga_encode_overflow(e5m2, INFINITY, GA_OVERFLOW_NAN), 0x7c);
    /* E2M1: no NaN, no infinity: saturation only */
    assert_int_equal(ga_encode(e2m1, 7), 0x7);
    assert_int_equal(ga_encode(e2m1, -INFINITY), 0xf);
    assert_false(ga_overflow_allowed(e2m1, GA_OVERFLOW_NAN));
    assert_false(ga_overflow_allowed(e2m1, GA_OVERFLOW_INFINITY));
    assert_false(ga_fits(e2m1, ga_quiet_nan(e2m1)));  /* the NaN marker is no encoding */
    assert_true(ga_is_nan(e2m1, ga_quiet_nan(e2m1)));
}

/* Nearest finite value of d to v (a double), ties to the even encoding, a
 * zero of v's sign; under satfinite.  The reference for conversions. */
static unsigned nearest(const struct definition *d, double v)
{
    unsigned best = 0;
    double best_d = INFINITY;

    for (unsigned h = 0; h < count(d); h++) {
        double w = value_of(d, h), dist = fabs(w - v);  /* exact: both on a fine grid */
        if (!isfinite(w) || (w == 0 && !signbit(w) != !signbit(v)))
            continue;
        if (dist < best_d || (dist == best_d && (h & 1) == 0)) {
            best = h;
            best_d = dist;
        }
    }
    return best;
}

/* Largest |value| <= |v| of v's sign: truncation. */
static unsigned toward_zero(const struct definition *d, double v)
{
    unsigned best = 0;
    double best_a = -1;

    for (unsigned h = 0; h < count(d); h++) {
        double w = value_of(d, h);
        if (!isfinite(w) || !signbit(w) != !signbit(v) || fabs(w) > fabs(v))
            continue;
        if (fabs(w) > best_a) {
            best = h;
            best_a = fabs(w);
        }
    }
    return best;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Rounding doubles: every midpoint between neighbouring values, the doubles
 * next to it, and the quarter points, of both signs. */
static void test_rounding_matches_enumeration(void **state)
{
    (void)state;
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);
        double values[256];
        size_t n = 0;

        for (unsigned h = 0; h < count(d); h++)
            if (isfinite(value_of(d, h)))
                values[n++] = value_of(d, h);
        qsort(values, n, sizeof values[0], by_value);
        for (size_t i = 0; i + 1 < n; i++) {
            double va = values[i], vb = values[i + 1];
            double probes[] = { (va + vb) / 2, nextafter((va + vb) / 2, INFINITY),
                                nextafter((va + vb) / 2, -INFINITY), va + (vb - va) / 4,
                                vb - (vb - va) / 4 };
            for (size_t j = 0; j < sizeof probes / sizeof probes[0]; j++) {
                double v = probes[j];
                if (ga_encode_overflow(f, v, GA_OVERFLOW_SATFINITE) != nearest(d, v))
                    fail_msg("%s: rn(%a) = 0x%02x, enumeration 0x%02x", d->name, v,
                             ga_encode_overflow(f, v, GA_OVERFLOW_SATFINITE), nearest(d, v));
                if (ga_encode_toward_zero(f, v) != toward_zero(d, v))
                    fail_msg("%s: rz(%a) = 0x%02x, enumeration 0x%02x", d->name, v,
                             ga_encode_toward_zero(f, v), toward_zero(d, v));
            }
        }
    }
}

/* ---- the truth ---- */

enum { PREC = 320 };

/* gelu(x) (or the tanh form, as x/(1 + exp(-2u)), the same real) at PREC
 * bits in the widest exponent range; 0 when it underflows even that. */
static void gelu_ref(mpfr_t g, double x, bool tanh_form)
{
    mpfr_t t, u;

    mpfr_inits2(PREC, t, u, (mpfr_ptr)0);
    if (tanh_form) {
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_ui_div(t, 2, t, MPFR_RNDN);
        mpfr_sqrt(t, t, MPFR_RNDN);                    /* sqrt(2/pi) */
        mpfr_set_str(g, "0.044715", 10, MPFR_RNDN);    /* the real 0.044715 */
        mpfr_set_d(u, x, MPFR_RNDN);
        mpfr_pow_ui(u, u, 3, MPFR_RNDN);
        mpfr_mul(u, u, g, MPFR_RNDN);                  /* 0.044715 x^3 */
        mpfr_add_d(u, u, x, MPFR_RNDN);
        mpfr_mul(u, u, t, MPFR_RNDN);                  /* u */
        mpfr_mul_si(u, u, -2, MPFR_RNDN);
        mpfr_exp(u, u, MPFR_RNDN);
        mpfr_add_ui(u, u, 1, MPFR_RNDN);
        mpfr_set_d(g, x, MPFR_RNDN);
        mpfr_div(g, g, u, MPFR_RNDN);
    } else {
        mpfr_sqrt_ui(t, 2, MPFR_RNDN);
        mpfr_set_d(u, -x, MPFR_RNDN);
        mpfr_div(u, u, t, MPFR_RNDN);
        mpfr_erfc(u, u, MPFR_RNDN);
        mpfr_mul_d(g, u, x, MPFR_RNDN);
        mpfr_div_2ui(g, g, 1, MPFR_RNDN);
    }
    mpfr_clears(t, u, (mpfr_ptr)0);
}

/* The correctly rounded encoding of g (from x) by enumeration: the nearest
 * finite value, decided with a margin of 2^-250 relative (far above the
 * error of g at 320 bits, far below any distance between two candidates'
 * distances unless g is a midpoint, which a transcendental value is not);
 * the zero of x's sign; E5M2's overflow to infinity from the midpoint
 * between the largest and 2^16 on (never reached: |gelu(x)| <= |x|). */
static unsigned round_ref(const struct definition *d, mpfr_srcptr g, double x)
{
    unsigned best = 0, second = 0;
    mpfr_t dist, best_d, second_d, margin;
    bool negative = x < 0;

    mpfr_inits2(PREC + 64, dist, best_d, second_d, margin, (mpfr_ptr)0);
    mpfr_set_inf(best_d, 1);
    mpfr_set_inf(second_d, 1);
    for (unsigned h = 0; h < count(d); h++) {
        double w = value_of(d, h);
        if (!isfinite(w) || (w == 0 && (signbit(w) != 0) != negative))
            continue;
        mpfr_sub_d(dist, g, w, MPFR_RNDN);
        mpfr_abs(dist, dist, MPFR_RNDN);
        if (mpfr_less_p(dist, best_d) || (mpfr_equal_p(dist, best_d) && (h & 1) == 0)) {
            mpfr_set(second_d, best_d, MPFR_RNDN);
            second = best;
            mpfr_set(best_d, dist, MPFR_RNDN);
            best = h;
        } else if (mpfr_less_p(dist, second_d)) {
            mpfr_set(second_d, dist, MPFR_RNDN);
            second = h;
        }
    }
    /* the two nearest are told apart by far more than g's error */
    mpfr_sub(margin, second_d, best_d, MPFR_RNDN);
    mpfr_abs(dist, g, MPFR_RNDN);
    mpfr_mul_2si(dist, dist, -250, MPFR_RNDN);
    if (!mpfr_zero_p(g) && value_of(d, best) != value_of(d, second)
        && !mpfr_greater_p(margin, dist))
        fail_msg("%s: x = %a: the rounding is not decided at %d bits", d->name, x, PREC);
    if (d->kind == IEEE_LIKE) {  /* infinity: exponent all ones, fraction 0 */
        double top = d->largest + ldexp(1.0, (int)ilogb(d->largest) - d->frac_bits - 1);
        if (mpfr_cmp_d(g, top) >= 0 || mpfr_cmp_d(g, -top) <= 0)
            best = ((1u << d->exp_bits) - 1) << d->frac_bits | (negative ? 1u << (width(d) - 1) : 0);
    }
    mpfr_clears(dist, best_d, second_d, margin, (mpfr_ptr)0);
    return best;
}

/* The truth by definition, special inputs included: f(NaN) = NaN,
 * f(+inf) = +inf, f(-inf) = -0, f(+-0) = +-0.  NaN is returned as
 * count(d) (any NaN encoding matches). */
static unsigned truth_ref(const struct definition *d, unsigned h, bool tanh_form)
{
    double x = value_of(d, h);
    unsigned sign = 1u << (width(d) - 1);
    mpfr_t g;
    unsigned r;

    if (isnan(x))
        return count(d);
    if (isinf(x))
        return x > 0 ? h : sign;
    if (x == 0)
        return h;
    mpfr_init2(g, PREC);
    gelu_ref(g, x, tanh_form);
    r = round_ref(d, g, x);
    mpfr_clear(g);
    return r;
}

static void check_every_truth(enum ga_function fn)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();

    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);

        assert_false(ga_truth_fast_covers(fn, f));  /* MPFR answers the small formats */
        for (unsigned h = 0; h < count(d); h++) {
            unsigned want = truth_ref(d, h, fn == GA_GELU_TANH);
            struct ga_truth fast, slow;

            assert_int_equal(ga_truth(GA_ORACLE_FAST, fn, f, h, &fast), GA_TRUTH_OK);
            assert_int_equal(ga_truth_mpfr(fn, f, h, &slow), GA_TRUTH_OK);
            if (want == count(d) ? !ga_is_nan(f, fast.rounded) : fast.rounded != want)
                fail_msg("%s %s(0x%02x = %a): truth 0x%02x, definition 0x%02x", d->name,
                         ga_function_name(fn), h, value_of(d, h), fast.rounded, want);
            assert_true(ga_same_encoding(f, fast.rounded, slow.rounded));
            /* the truth of a finite input never overflows: |gelu(x)| <= |x| */
            if (isfinite(value_of(d, h)))
                assert_true(fabs(ga_decode(f, fast.rounded)) <= fabs(value_of(d, h)));
        }
    }
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
}

static void test_gelu_truth_every_encoding(void **state)
{
    (void)state;
    check_every_truth(GA_GELU);
}

static void test_gelu_tanh_truth_every_encoding(void **state)
{
    (void)state;
    check_every_truth(GA_GELU_TANH);
}

/* ---- files: one byte per encoding ---- */

static void test_files_one_byte_per_encoding(void **state)
{
    char dir[] = "/tmp/small_formats_test.XXXXXX", path[64];
    (void)state;

    assert_non_null(mkdtemp(dir));
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);
        ga_bits all[256], *back;
        size_t n;
        struct ga_io_error err;

        for (unsigned h = 0; h < count(d); h++)
            all[h] = h;
        for (int kind = 0; kind < 2; kind++) {
            enum ga_file_kind fk = kind ? GA_FILE_NPY : GA_FILE_RAW;
            snprintf(path, sizeof path, "%s/%s.%s", dir, d->name, kind ? "npy" : "raw");
            assert_int_equal(ga_file_write(path, fk, f, all, count(d), true, &err), GA_IO_OK);
            assert_int_equal(ga_file_read(path, fk, f, &back, &n, &err), GA_IO_OK);
            assert_int_equal(n, count(d));
            assert_memory_equal(back, all, n * sizeof *back);
            free(back);
            if (kind) {  /* '|u1' does not say which small format */
                assert_int_equal(ga_file_read(path, fk, NULL, &back, &n, &err), GA_IO_UNSUPPORTED);
                assert_non_null(strstr(err.message, "|u1"));
            } else {
                FILE *fp = fopen(path, "rb");
                long size;
                assert_non_null(fp);
                fseek(fp, 0, SEEK_END);
                size = ftell(fp);
                fclose(fp);
                assert_int_equal(size, (long)count(d));
            }
            unlink(path);
        }
        if (width(d) < 8) {  /* a byte with bits above the format is refused */
            snprintf(path, sizeof path, "%s/wide.raw", dir);
            FILE *fp = fopen(path, "wb");
            assert_non_null(fp);
            fputc(0x00, fp);
            fputc((int)count(d), fp);
            fclose(fp);
            assert_int_equal(ga_file_read(path, GA_FILE_RAW, f, &back, &n, &err), GA_IO_RANGE);
            assert_non_null(strstr(err.message, "element 1"));
            unlink(path);
        }
    }
    rmdir(dir);
}

/* ---- the kernel models ---- */

static void run_model(const char *name, const struct ga_format *f, ga_bits *out)
{
    const struct ga_impl *impl = ga_catalogue_find(name);
    ga_bits in[256];
    struct ga_run_failure why;

    assert_non_null(impl);
    for (ga_bits h = 0; h < ga_encoding_count(f); h++)
        in[h] = h;
    assert_int_equal(impl->run(impl, f, in, out, (size_t)ga_encoding_count(f), &why), 0);
}

/* Each conversion model's output is its float32 value converted as stated,
 * by enumeration; lut_small's table is its formula. */
static void test_models_convert_as_stated(void **state)
{
    (void)state;
    for (size_t k = 0; k < NDEF; k++) {
        const struct definition *d = &definitions[k];
        const struct ga_format *f = format_of(d);
        ga_bits sat[256], trunc_out[256], lut[256];

        run_model("erf_satfinite", f, sat);
        run_model("erf_truncate", f, trunc_out);
        run_model("lut_small", f, lut);
        for (unsigned h = 0; h < count(d); h++) {
            double x = value_of(d, h);
            float y = ga_gelu_erf_f32((float)x), t = ga_gelu_tanh_factored_f32((float)x);
            if (isnan(x) || isnan(y)) {
                assert_true(ga_is_nan(f, sat[h]) && ga_is_nan(f, trunc_out[h]));
                continue;
            }
            if (isinf(y)) {  /* E5M2 +inf: saturated, or kept by truncation */
                assert_int_equal(sat[h], ga_max_finite(f, y < 0));
                assert_int_equal(trunc_out[h], ga_infinity(f, y < 0));
            } else {
                assert_int_equal(sat[h], nearest(d, y));
                assert_int_equal(trunc_out[h], toward_zero(d, y));
            }
            if (isnan(t))
                assert_true(ga_is_nan(f, lut[h]));
            else
                assert_int_equal(lut[h], isinf(t) ? ga_max_finite(f, t < 0) : nearest(d, t));
        }
        /* the entries restricted to the small formats */
        assert_false(ga_impl_supports(ga_catalogue_find("erf_satfinite"),
                                      ga_format_get(GA_FLOAT32)));
        assert_false(ga_impl_supports(ga_catalogue_find("lut_small"),
                                      ga_format_get(GA_BFLOAT16)));
        assert_int_equal(ga_impl_supports(ga_catalogue_find("erf_overflow_nan"), f),
                         width(d) == 8);
    }
}

/* Sweep results of one model over every encoding of f. */
static void sweep_all(const char *name, const struct ga_format *f, struct ga_summary *out)
{
    struct ga_domain dom;
    struct ga_measurement m;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_MPFR, .threads = 1 };
    char err[256];
    ga_bits where;

    assert_int_equal(ga_domain_parse(&dom, "all", f, err, sizeof err), 0);
    memset(&m, 0, sizeof m);
    m.impl = ga_catalogue_find(name);
    m.reference = GA_GELU;
    assert_int_equal(ga_sweep_run(f, &dom, &m, 1, &so, &where), GA_SWEEP_OK);
    assert_int_equal(ga_stats_summarize(m.stats, GA_REGION_ALL, out), GA_STATS_OK);
    ga_stats_free(m.stats);
    ga_domain_free(&dom);
}

static unsigned nan_outputs(const struct ga_format *f, const ga_bits *out)
{
    unsigned n = 0;
    for (ga_bits h = 0; h < ga_encoding_count(f); h++)
        n += ga_is_nan(f, out[h]);
    return n;
}

/* Saturation and NaN on overflow.  E5M2: the sweeps tell them apart at
 * +inf (saturated to 57344, or kept).  E4M3FN: no finite input's float32
 * GELU exceeds 448 (it lies between x/2 and x), so the two give the same
 * outputs on every input, NaN only for the two NaN inputs; they differ only
 * for values GELU never produces (test_overflow_conventions). */
static void test_satfinite_and_overflow_nan(void **state)
{
    const struct ga_format *e4m3 = ga_format_by_name("float8_e4m3fn");
    const struct ga_format *e5m2 = ga_format_by_name("float8_e5m2");
    ga_bits sat[256], nan_out[256];
    struct ga_summary s_sat, s_nan;
    (void)state;

    run_model("erf_satfinite", e5m2, sat);
    run_model("erf_overflow_nan", e5m2, nan_out);
    assert_int_equal(sat[0x7c], 0x7b);      /* +inf -> 57344 */
    assert_int_equal(nan_out[0x7c], 0x7c);  /* +inf kept */
    sweep_all("erf_satfinite", e5m2, &s_sat);
    sweep_all("erf_overflow_nan", e5m2, &s_nan);
    assert_int_equal(s_nan.correctly_rounded, s_sat.correctly_rounded + 1);
    assert_int_equal(s_sat.max_ulp.x, 0x7c);  /* the saturated infinity: infinitely wrong */

    run_model("erf_satfinite", e4m3, sat);
    run_model("erf_overflow_nan", e4m3, nan_out);
    assert_memory_equal(sat, nan_out, sizeof sat);
    assert_int_equal(nan_outputs(e4m3, sat), 2);
    assert_int_equal(nan_outputs(e4m3, nan_out), 2);
    for (ga_bits h = 0; h < 256; h++)  /* |float32 gelu(x)| <= 448 on every finite input */
        if (!ga_is_nan(e4m3, h))
            assert_true(fabsf(ga_gelu_erf_f32((float)ga_decode(e4m3, h))) <= 448.0f);
    sweep_all("erf_satfinite", e4m3, &s_sat);
    sweep_all("erf_overflow_nan", e4m3, &s_nan);
    assert_int_equal(s_sat.nan, s_nan.nan);
    assert_int_equal(s_sat.correctly_rounded, s_nan.correctly_rounded);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_definitions),
        cmocka_unit_test(test_codec_round_trips),
        cmocka_unit_test(test_overflow_conventions),
        cmocka_unit_test(test_rounding_matches_enumeration),
        cmocka_unit_test(test_gelu_truth_every_encoding),
        cmocka_unit_test(test_gelu_tanh_truth_every_encoding),
        cmocka_unit_test(test_files_one_byte_per_encoding),
        cmocka_unit_test(test_models_convert_as_stated),
        cmocka_unit_test(test_satfinite_and_overflow_nan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
