/* libgelu-acc through its public header alone, linked to the shared library
 * as a user's test is: the contract of every function (statuses, messages,
 * NULL arrays, encodings, aliasing, threads, struct sizes), values known
 * from the literature and from the conventions, and agreement between the
 * library's own paths (golden and grading, backward and derivative, grader
 * and per-element flags).  tests/library_mpfr_test.sh compares the goldens
 * with the MPFR-only oracle of the program. */
#include <math.h>
#include <pthread.h>
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

#include <gelu-acc/gelu-acc.h>

/* Random inputs from splitmix64 with a fixed seed (GELU_ACC_SEED changes
 * it): this test uses nothing of the suite but the public header. */
static uint64_t seed = 20240611u;

static uint64_t next_random(void)
{
    uint64_t z = (seed += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static float float_of_bits(uint32_t b)
{
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static void assert_message_has(const char *needle)
{
    if (!strstr(gelu_acc_last_error(), needle))
        fail_msg("message '%s' lacks '%s'", gelu_acc_last_error(), needle);
}

/* ---- names ---- */

static void test_names_round_trip(void **state)
{
    static const size_t sizes[GELU_ACC_FORMAT_COUNT] = { 8, 4, 2, 2, 1, 1, 1, 1, 1 };
    (void)state;
    for (int i = 0; i < GELU_ACC_FORMAT_COUNT; i++) {
        gelu_acc_format f;
        assert_non_null(gelu_acc_format_name((gelu_acc_format)i));
        assert_int_equal(gelu_acc_format_by_name(gelu_acc_format_name((gelu_acc_format)i), &f),
                         GELU_ACC_OK);
        assert_int_equal(f, i);
        assert_int_equal(gelu_acc_format_size((gelu_acc_format)i), sizes[i]);
    }
    for (int i = 0; i < GELU_ACC_FUNCTION_COUNT; i++) {
        gelu_acc_function fn;
        assert_int_equal(gelu_acc_function_by_name(gelu_acc_function_name((gelu_acc_function)i),
                                                   &fn), GELU_ACC_OK);
        assert_int_equal(fn, i);
    }
    assert_string_equal(gelu_acc_format_name(GELU_ACC_BFLOAT16), "bfloat16");
    assert_string_equal(gelu_acc_function_name(GELU_ACC_GELU_TANH_GRAD), "gelu_tanh_grad");
    assert_string_equal(gelu_acc_region_name(GELU_ACC_REGION_LEFT_TAIL), "left_tail");
    assert_string_equal(gelu_acc_region_name(GELU_ACC_REGION_ALL), "all");
    assert_null(gelu_acc_format_name((gelu_acc_format)GELU_ACC_FORMAT_COUNT));
    assert_null(gelu_acc_function_name((gelu_acc_function)-1));
    assert_int_equal(gelu_acc_format_size((gelu_acc_format)99), 0);
    assert_string_equal(gelu_acc_status_name(GELU_ACC_E_ENCODING), "GELU_ACC_E_ENCODING");
    assert_string_equal(gelu_acc_status_name(-5), "unknown status");
    assert_non_null(strchr(gelu_acc_version(), '.'));
}

static void test_unknown_names_are_refused(void **state)
{
    gelu_acc_format f;
    gelu_acc_function fn;
    (void)state;
    assert_int_equal(gelu_acc_format_by_name("bfloat17", &f), GELU_ACC_E_ARGUMENT);
    assert_message_has("bfloat17");
    assert_int_equal(gelu_acc_function_by_name("relu", &fn), GELU_ACC_E_ARGUMENT);
    assert_message_has("relu");
    assert_int_equal(gelu_acc_format_by_name(NULL, &f), GELU_ACC_E_ARGUMENT);
}

/* ---- the truth: values established outside the library ---- */

/* Phi(1) = 0.8413447460685429, phi(1) = 0.24197072451914337 (tables of the
 * normal distribution): gelu(1) = Phi(1), gelu(-1) = Phi(1) - 1,
 * gelu'(1) = Phi(1) + phi(1), gelu'(-1) = 1 - Phi(1) - phi(1), each rounded
 * once to float32 here. */
static void test_float32_values_from_tables(void **state)
{
    float x[3] = { 1.0f, -1.0f, 0.0f }, out[3];
    (void)state;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_FLOAT32, x, out, 3), GELU_ACC_OK);
    assert_int_equal(float_bits(out[0]), float_bits((float)0.8413447460685429));
    assert_int_equal(float_bits(out[1]), float_bits((float)-0.15865525393145707));
    assert_int_equal(float_bits(out[2]), 0u);
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU_GRAD, GELU_ACC_FLOAT32, x, out, 3), GELU_ACC_OK);
    assert_int_equal(float_bits(out[0]), float_bits((float)(0.8413447460685429 + 0.24197072451914337)));
    assert_int_equal(float_bits(out[1]), float_bits((float)-0.0833154705876863));
    assert_int_equal(float_bits(out[2]), float_bits(0.5f));
    assert_string_equal(gelu_acc_last_error(), "");
}

/* The conventions of the header: f(NaN) = NaN, gelu(+inf) = +inf,
 * gelu(-inf) = -0, gelu(+-0) = +-0; the derivatives 1, -0 and 1/2. */
static void test_special_values(void **state)
{
    float x[5] = { NAN, INFINITY, -INFINITY, 0.0f, -0.0f }, out[5];
    (void)state;
    for (int fn = GELU_ACC_GELU; fn <= GELU_ACC_GELU_TANH; fn++) {
        assert_int_equal(gelu_acc_truth((gelu_acc_function)fn, GELU_ACC_FLOAT32, x, out, 5), GELU_ACC_OK);
        assert_true(isnan(out[0]));
        assert_int_equal(float_bits(out[1]), 0x7f800000u);
        assert_int_equal(float_bits(out[2]), 0x80000000u);
        assert_int_equal(float_bits(out[3]), 0x00000000u);
        assert_int_equal(float_bits(out[4]), 0x80000000u);
    }
    for (int fn = GELU_ACC_GELU_GRAD; fn <= GELU_ACC_GELU_TANH_GRAD; fn++) {
        assert_int_equal(gelu_acc_truth((gelu_acc_function)fn, GELU_ACC_FLOAT32, x, out, 5), GELU_ACC_OK);
        assert_true(isnan(out[0]));
        assert_int_equal(float_bits(out[1]), float_bits(1.0f));
        assert_int_equal(float_bits(out[2]), 0x80000000u);
        assert_int_equal(float_bits(out[3]), float_bits(0.5f));
        assert_int_equal(float_bits(out[4]), float_bits(0.5f));
    }
}

/* ---- golden and grading agree ---- */

static uint64_t get(const void *a, size_t size, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)a + i * size, size);
    return v;
}

static void put(void *a, size_t size, size_t i, uint64_t v)
{
    memcpy((char *)a + i * size, &v, size);
}

/* Every encoding of every format of at most 16 bits, each function: the
 * golden is graded correctly rounded (ulp error at most 1/2, or NaN for a
 * NaN truth), and its neighbour one encoding up is not. */
static void test_golden_graded_correct_everywhere(void **state)
{
    static const gelu_acc_format formats[] = {
        GELU_ACC_BFLOAT16, GELU_ACC_FLOAT16, GELU_ACC_FLOAT8_E4M3FN, GELU_ACC_FLOAT8_E5M2,
        GELU_ACC_FLOAT6_E2M3, GELU_ACC_FLOAT6_E3M2, GELU_ACC_FLOAT4_E2M1,
    };
    static const size_t counts[] = { 65536, 65536, 256, 256, 64, 64, 16 };
    (void)state;
    for (size_t k = 0; k < sizeof formats / sizeof *formats; k++) {
        size_t size = gelu_acc_format_size(formats[k]), n = counts[k];
        void *x = malloc(n * size), *y = malloc(n * size), *up = malloc(n * size);
        double *ulp = malloc(n * sizeof *ulp);
        uint32_t *flags = malloc(n * sizeof *flags);
        for (size_t i = 0; i < n; i++)
            put(x, size, i, i);
        for (int fn = 0; fn < GELU_ACC_FUNCTION_COUNT; fn++) {
            assert_int_equal(gelu_acc_truth((gelu_acc_function)fn, formats[k], x, y, n), GELU_ACC_OK);
            assert_int_equal(gelu_acc_ulp_error((gelu_acc_function)fn, formats[k], x, y, n, ulp,
                                                flags), GELU_ACC_OK);
            for (size_t i = 0; i < n; i++) {
                if (!(flags[i] & GELU_ACC_CORRECTLY_ROUNDED) || !(ulp[i] <= 0.5 || isnan(ulp[i])))
                    fail_msg("%s %s(0x%zx): golden 0x%llx graded flags 0x%x, %g ulp",
                             gelu_acc_format_name(formats[k]), gelu_acc_function_name((gelu_acc_function)fn),
                             i, (unsigned long long)get(y, size, i), flags[i], ulp[i]);
                /* one encoding further from zero (within the positive or negative finite range) */
                put(up, size, i, get(y, size, i) + 1 < n ? get(y, size, i) + 1 : get(y, size, i));
            }
            assert_int_equal(gelu_acc_ulp_error((gelu_acc_function)fn, formats[k], x, up, n, ulp,
                                                flags), GELU_ACC_OK);
            for (size_t i = 0; i < n; i++)
                if (get(up, size, i) != get(y, size, i) && !isnan(ulp[i]) && ulp[i] != INFINITY
                    && (flags[i] & GELU_ACC_CORRECTLY_ROUNDED))
                    fail_msg("%s: 0x%llx graded correctly rounded for x = 0x%zx, golden 0x%llx",
                             gelu_acc_format_name(formats[k]), (unsigned long long)get(up, size, i), i,
                             (unsigned long long)get(y, size, i));
        }
        free(x);
        free(y);
        free(up);
        free(ulp);
        free(flags);
    }
}

/* RN(1 * d(x)) = RN(d(x)): the backward truth with dy = 1 is the
 * derivative's golden, by two separate paths of the library (the backward
 * product's rounding, the derivative oracle); and with dy = 2, twice it
 * (no overflow or underflow for these x). */
static void test_backward_with_dy_one_is_the_derivative(void **state)
{
    enum { N = 65536 };
    uint16_t *x = malloc(N * 2), *dy = malloc(N * 2), *dx = malloc(N * 2), *d = malloc(N * 2);
    (void)state;
    for (int fn = GELU_ACC_GELU; fn <= GELU_ACC_GELU_TANH; fn++) {
        for (uint32_t i = 0; i < N; i++) {
            x[i] = (uint16_t)i;
            dy[i] = 0x3f80;  /* bfloat16 1 */
        }
        assert_int_equal(gelu_acc_backward((gelu_acc_function)fn, GELU_ACC_BFLOAT16, x, dy, dx, N),
                         GELU_ACC_OK);
        assert_int_equal(gelu_acc_truth((gelu_acc_function)(fn + 2), GELU_ACC_BFLOAT16, x, d, N),
                         GELU_ACC_OK);
        for (uint32_t i = 0; i < N; i++) {
            int nan_d = (d[i] & 0x7fff) > 0x7f80, nan_dx = (dx[i] & 0x7fff) > 0x7f80;
            if (nan_d != nan_dx || (!nan_d && d[i] != dx[i]))
                fail_msg("x = 0x%04x: backward(dy = 1) 0x%04x, derivative 0x%04x", i, dx[i], d[i]);
        }
        for (uint32_t i = 0; i < N; i++)
            dy[i] = 0x4000;  /* 2 */
        assert_int_equal(gelu_acc_backward((gelu_acc_function)fn, GELU_ACC_BFLOAT16, x, dy, dx, N),
                         GELU_ACC_OK);
        for (uint32_t i = 0; i < N; i++) {
            unsigned e = (d[i] >> 7) & 0xff;
            if (e >= 2 && e <= 250 && dx[i] != d[i] + 0x80)
                fail_msg("x = 0x%04x: backward(dy = 2) 0x%04x, derivative 0x%04x", i, dx[i], d[i]);
        }
    }
    free(x);
    free(dy);
    free(dx);
    free(d);
}

/* The same in float32, on every bfloat16 value widened (the vector paths'
 * backward product against their derivative, on whichever path
 * GELU_ACC_ORACLE_PATH forces: vec_oracle_test.sh runs each). */
static void test_float32_backward_with_dy_one_is_the_derivative(void **state)
{
    enum { N = 65536 };
    uint32_t *x = malloc(N * 4), *dy = malloc(N * 4), *dx = malloc(N * 4), *d = malloc(N * 4);
    (void)state;
    for (int fn = GELU_ACC_GELU; fn <= GELU_ACC_GELU_TANH; fn++) {
        for (uint32_t i = 0; i < N; i++) {
            x[i] = i << 16;
            dy[i] = 0x3f800000u;  /* 1 */
        }
        assert_int_equal(gelu_acc_backward((gelu_acc_function)fn, GELU_ACC_FLOAT32, x, dy, dx, N),
                         GELU_ACC_OK);
        assert_int_equal(gelu_acc_truth((gelu_acc_function)(fn + 2), GELU_ACC_FLOAT32, x, d, N),
                         GELU_ACC_OK);
        for (uint32_t i = 0; i < N; i++) {
            int nan_d = (d[i] & 0x7fffffffu) > 0x7f800000u;
            int nan_dx = (dx[i] & 0x7fffffffu) > 0x7f800000u;
            if (nan_d != nan_dx || (!nan_d && d[i] != dx[i]))
                fail_msg("x = 0x%08x: backward(dy = 1) 0x%08x, derivative 0x%08x", x[i], dx[i],
                         d[i]);
        }
        for (uint32_t i = 0; i < N; i++)
            dy[i] = 0x40000000u;  /* 2 */
        assert_int_equal(gelu_acc_backward((gelu_acc_function)fn, GELU_ACC_FLOAT32, x, dy, dx, N),
                         GELU_ACC_OK);
        for (uint32_t i = 0; i < N; i++) {
            unsigned e = (d[i] >> 23) & 0xff;
            if (e >= 2 && e <= 250 && dx[i] != d[i] + 0x800000u)
                fail_msg("x = 0x%08x: backward(dy = 2) 0x%08x, derivative 0x%08x", x[i], dx[i],
                         d[i]);
        }
    }
    free(x);
    free(dy);
    free(dx);
    free(d);
}

/* A grader's counts are the per-element flags' counts, and its worst input
 * the per-element maximum. */
static void test_grader_matches_flags(void **state)
{
    enum { N = 65536 };
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2);
    double *ulp = malloc(N * sizeof *ulp);
    uint32_t *flags = malloc(N * sizeof *flags);
    uint64_t correct = 0, faithful = 0, flushed = 0, nan = 0, zero_sign = 0;
    double worst = -1;
    uint16_t worst_x = 0;
    struct gelu_acc_summary s;
    gelu_acc_grader *g;
    (void)state;
    for (uint32_t i = 0; i < N; i++)
        x[i] = (uint16_t)i;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, N), GELU_ACC_OK);
    /* a kernel with faults: flushes below -10, loses the last bit on a
     * stride, answers NaN at 3 and +0 for negative zeros */
    for (uint32_t i = 0; i < N; i++) {
        float v = float_of_bits((uint32_t)i << 16);
        if (v < -10)
            y[i] = 0;
        else if (i % 7 == 0 && (y[i] & 0x7f80) != 0x7f80)
            y[i] ^= 1;
        if (i == 0x4040)
            y[i] = 0x7fc1;
    }
    assert_int_equal(gelu_acc_ulp_error(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, N, ulp, flags),
                     GELU_ACC_OK);
    for (uint32_t i = 0; i < N; i++) {
        correct += (flags[i] & GELU_ACC_CORRECTLY_ROUNDED) != 0;
        faithful += (flags[i] & GELU_ACC_FAITHFUL) != 0;
        flushed += (flags[i] & GELU_ACC_FLUSHED) != 0;
        nan += (flags[i] & GELU_ACC_NAN) != 0;
        zero_sign += (flags[i] & GELU_ACC_ZERO_SIGN) != 0;
        if (!isnan(ulp[i]) && ulp[i] > worst) {
            worst = ulp[i];
            worst_x = (uint16_t)i;
        }
    }
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &g), GELU_ACC_OK);
    /* in two pieces, to exercise the accumulation */
    assert_int_equal(gelu_acc_grader_add(g, x, y, 1000), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_add(g, x + 1000, y + 1000, N - 1000), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_summary(g, GELU_ACC_REGION_ALL, &s, sizeof s), GELU_ACC_OK);
    assert_int_equal(s.count, N);
    assert_int_equal(s.correctly_rounded, correct);
    assert_int_equal(s.faithful, faithful);
    assert_int_equal(s.flushed_to_zero, flushed);
    assert_int_equal(s.nan, nan);
    assert_int_equal(s.wrong_zero_sign, zero_sign);
    assert_true(flushed > 0 && nan == 1 && correct < faithful);
    assert_true(s.max_ulp.has);
    assert_int_equal(s.max_ulp.x, worst_x);
    assert_true(s.first_nan.has);
    assert_int_equal(s.first_nan.x, 0x4040);
    assert_int_equal(s.first_nan.y, 0x7fc1);
    gelu_acc_grader_free(g);
    free(x);
    free(y);
    free(ulp);
    free(flags);
}

/* A summary passed with a smaller size is filled that far and no further. */
static void test_summary_size(void **state)
{
    uint16_t x = 0x3f80, y;
    unsigned char buf[sizeof(struct gelu_acc_summary) + 16];
    size_t part = offsetof(struct gelu_acc_summary, max_ulp);
    gelu_acc_grader *g;
    (void)state;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &x, &y, 1), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &g), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_add(g, &x, &y, 1), GELU_ACC_OK);
    memset(buf, 0xa5, sizeof buf);
    assert_int_equal(gelu_acc_grader_summary(g, GELU_ACC_REGION_ALL, (struct gelu_acc_summary *)buf,
                                             part), GELU_ACC_OK);
    for (size_t i = part; i < sizeof buf; i++)
        assert_int_equal(buf[i], 0xa5);
    assert_int_equal(((struct gelu_acc_summary *)buf)->count, 1);
    gelu_acc_grader_free(g);
}

/* ---- checks against bounds ---- */

static gelu_acc_grader *flushing_grader(void)
{
    enum { N = 65536 };
    uint16_t *x = malloc(N * 2), *y = malloc(N * 2);
    gelu_acc_grader *g;
    for (uint32_t i = 0; i < N; i++)
        x[i] = (uint16_t)i;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, N), GELU_ACC_OK);
    for (uint32_t i = 0; i < N; i++)
        if (float_of_bits((uint32_t)i << 16) < -10)
            y[i] &= 0x8000;  /* a zero of the right sign: flushed where the truth is not zero */
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &g), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_add(g, x, y, N), GELU_ACC_OK);
    free(x);
    free(y);
    return g;
}

static void test_check_bounds(void **state)
{
    gelu_acc_grader *g = flushing_grader();
    char report[4096];
    int exceeded = -1;
    (void)state;
    assert_int_equal(gelu_acc_grader_check_bounds(g, "max_ulp = inf\nnan = 0\n", &exceeded, report,
                                                  sizeof report), GELU_ACC_OK);
    assert_int_equal(exceeded, 0);
    assert_string_equal(report, "");
    assert_int_equal(gelu_acc_grader_check_bounds(g, "flushed_to_zero = 0\nleft_tail.max_ulp = 1\n",
                                                  &exceeded, report, sizeof report), GELU_ACC_OK);
    assert_true(exceeded >= 1);
    assert_non_null(strstr(report, "flushed_to_zero 0 ->"));
    /* a report too small is cut, with its NUL */
    assert_int_equal(gelu_acc_grader_check_bounds(g, "flushed_to_zero = 0\n", &exceeded, report, 8),
                     GELU_ACC_OK);
    assert_int_equal(strlen(report), 7);
    /* bad bounds: the caller's line numbers */
    assert_int_equal(gelu_acc_grader_check_bounds(g, "max_ulp = 1\nmax_ulps = 2\n", &exceeded,
                                                  NULL, 0), GELU_ACC_E_ARGUMENT);
    assert_message_has("bounds:2:");
    assert_message_has("max_ulps");
    assert_int_equal(gelu_acc_grader_check_bounds(g, "max_ulp = nan\n", &exceeded, NULL, 0),
                     GELU_ACC_E_ARGUMENT);
    assert_message_has("bounds:1:");
    assert_int_equal(gelu_acc_grader_check_bounds(g, "[other]\nmax_ulp = 1\n", &exceeded, NULL, 0),
                     GELU_ACC_E_ARGUMENT);
    gelu_acc_grader_free(g);
}

static void test_check_baseline(void **state)
{
    gelu_acc_grader *g = flushing_grader();
    char path[] = "/tmp/library_test_XXXXXX";
    int fd = mkstemp(path), exceeded = -1;
    FILE *f = fdopen(fd, "w");
    char report[4096];
    (void)state;
    fprintf(f, "[ok]\nkernel = k\nformat = bfloat16\nreference = gelu\nmax_ulp = inf\n"
               "[strict]\nkernel = k\nformat = bfloat16\nreference = gelu\nflushed_to_zero = 0\n"
               "[tanh]\nkernel = k\nformat = bfloat16\nreference = gelu_tanh\nmax_ulp = 1\n");
    fclose(f);
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, "ok", &exceeded, report,
                                                    sizeof report), GELU_ACC_OK);
    assert_int_equal(exceeded, 0);
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, "strict", &exceeded, report,
                                                    sizeof report), GELU_ACC_OK);
    assert_int_equal(exceeded, 1);
    assert_non_null(strstr(report, "strict: flushed_to_zero 0 ->"));
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, "tanh", &exceeded, NULL, 0),
                     GELU_ACC_E_MISMATCH);
    assert_message_has("gelu_tanh");
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, NULL, &exceeded, NULL, 0),
                     GELU_ACC_E_MISMATCH);
    assert_message_has("3 sections");
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, "absent", &exceeded, NULL, 0),
                     GELU_ACC_E_MISMATCH);
    unlink(path);
    assert_int_equal(gelu_acc_grader_check_baseline(g, path, "ok", &exceeded, NULL, 0),
                     GELU_ACC_E_FILE);
    assert_message_has(path);
    gelu_acc_grader_free(g);
}

/* ---- bad arguments ---- */

static void test_bad_arguments(void **state)
{
    uint16_t x[4] = { 0 }, y[4];
    uint8_t small[4] = { 0x01, 0x02, 0x3f, 0x40 };
    double ulp[4];
    gelu_acc_grader *g = (gelu_acc_grader *)&g;
    (void)state;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, NULL, y, 4), GELU_ACC_E_ARGUMENT);
    assert_message_has("x is NULL");
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, NULL, NULL, 0), GELU_ACC_OK);
    assert_int_equal(gelu_acc_truth((gelu_acc_function)7, GELU_ACC_BFLOAT16, x, y, 4),
                     GELU_ACC_E_ARGUMENT);
    assert_message_has("function 7");
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, (gelu_acc_format)-1, x, y, 4), GELU_ACC_E_ARGUMENT);
    assert_message_has("format -1");
    /* a 6-bit format: 0x40 has a bit above its width, the 4th element */
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_FLOAT6_E2M3, small, small, 4),
                     GELU_ACC_E_ENCODING);
    assert_message_has("x[3] = 0x40");
    assert_int_equal(gelu_acc_ulp_error(GELU_ACC_GELU, GELU_ACC_FLOAT6_E2M3, small, small, 4, ulp,
                                        NULL), GELU_ACC_E_ENCODING);
    assert_int_equal(gelu_acc_ulp_error(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, 4, NULL, NULL),
                     GELU_ACC_E_ARGUMENT);
    assert_int_equal(gelu_acc_backward(GELU_ACC_GELU, GELU_ACC_FLOAT64, x, x, y, 0), GELU_ACC_E_FORMAT);
    assert_message_has("float64");
    assert_int_equal(gelu_acc_backward(GELU_ACC_GELU_GRAD, GELU_ACC_BFLOAT16, x, x, y, 4),
                     GELU_ACC_E_ARGUMENT);
    assert_message_has("gelu_grad");
    assert_int_equal(gelu_acc_backward(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, NULL, y, 4),
                     GELU_ACC_E_ARGUMENT);
    assert_message_has("dy is NULL");
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU_GRAD, GELU_ACC_BFLOAT16, &g),
                     GELU_ACC_E_ARGUMENT);
    assert_null(g);
    assert_int_equal(gelu_acc_grader_add(NULL, x, y, 4), GELU_ACC_E_ARGUMENT);
    gelu_acc_grader_free(NULL);
    /* a success clears the message */
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, 4), GELU_ACC_OK);
    assert_string_equal(gelu_acc_last_error(), "");
}

static void test_merge_mismatch(void **state)
{
    gelu_acc_grader *a, *b;
    (void)state;
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &a), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_FLOAT16, &b), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_merge(a, b), GELU_ACC_E_MISMATCH);
    assert_message_has("float16");
    gelu_acc_grader_free(a);
    gelu_acc_grader_free(b);
}

/* ---- aliasing, threads, inputs ---- */

static void test_in_place(void **state)
{
    enum { N = 1000 };
    float x[N], copy[N], out[N];
    (void)state;
    for (int i = 0; i < N; i++)
        x[i] = copy[i] = float_of_bits((uint32_t)next_random());
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU_TANH, GELU_ACC_FLOAT32, copy, out, N), GELU_ACC_OK);
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU_TANH, GELU_ACC_FLOAT32, x, x, N), GELU_ACC_OK);
    assert_memory_equal(x, out, sizeof x);
}

struct thread_job {
    gelu_acc_function fn;
    gelu_acc_format format;
    const void *x;
    void *out;
    size_t n;
    int status;
};

static void *run_job(void *arg)
{
    struct thread_job *j = arg;
    j->status = gelu_acc_truth(j->fn, j->format, j->x, j->out, j->n);
    return NULL;
}

/* Threads racing on the first use of the tables and on float32: the same
 * bits as one thread afterwards. */
static void test_threads(void **state)
{
    enum { N = 65536, THREADS = 8 };
    uint32_t *x = malloc(N * 4);
    uint32_t *outs = malloc((size_t)THREADS * N * 4), *once = malloc(N * 4);
    struct thread_job jobs[THREADS];
    pthread_t tid[THREADS];
    (void)state;
    for (int i = 0; i < N; i++)
        x[i] = (uint32_t)next_random();
    for (int t = 0; t < THREADS; t++) {
        /* half the threads take float16 (the table), half float32 */
        jobs[t] = (struct thread_job){ (gelu_acc_function)(t % 4), t % 2 ? GELU_ACC_FLOAT16
                                                                        : GELU_ACC_FLOAT32,
                                       x, outs + (size_t)t * N, t % 2 ? N / 2 : N, -1 };
        assert_int_equal(pthread_create(&tid[t], NULL, run_job, &jobs[t]), 0);
    }
    for (int t = 0; t < THREADS; t++) {
        assert_int_equal(pthread_join(tid[t], NULL), 0);
        assert_int_equal(jobs[t].status, GELU_ACC_OK);
        assert_int_equal(gelu_acc_truth(jobs[t].fn, jobs[t].format, x, once, jobs[t].n), GELU_ACC_OK);
        assert_memory_equal(once, jobs[t].out, jobs[t].n * gelu_acc_format_size(jobs[t].format));
    }
    free(x);
    free(outs);
    free(once);
}

static void test_inputs(void **state)
{
    void *x;
    size_t n;
    (void)state;
    assert_int_equal(gelu_acc_inputs(GELU_ACC_BFLOAT16, "all", &x, &n), GELU_ACC_OK);
    assert_int_equal(n, 65536);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(((uint16_t *)x)[i], i);
    gelu_acc_free(x);
    assert_int_equal(gelu_acc_inputs(GELU_ACC_FLOAT32, "range:1:2", &x, &n), GELU_ACC_OK);
    assert_int_equal(n, (1u << 23) + 1);
    assert_true(((float *)x)[0] == 1.0f && ((float *)x)[n - 1] == 2.0f);
    gelu_acc_free(x);
    assert_int_equal(gelu_acc_inputs(GELU_ACC_FLOAT32, "stride:0", &x, &n), GELU_ACC_E_ARGUMENT);
    assert_message_has("stride:0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_round_trip),
        cmocka_unit_test(test_unknown_names_are_refused),
        cmocka_unit_test(test_float32_values_from_tables),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_golden_graded_correct_everywhere),
        cmocka_unit_test(test_backward_with_dy_one_is_the_derivative),
        cmocka_unit_test(test_float32_backward_with_dy_one_is_the_derivative),
        cmocka_unit_test(test_grader_matches_flags),
        cmocka_unit_test(test_summary_size),
        cmocka_unit_test(test_check_bounds),
        cmocka_unit_test(test_check_baseline),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_merge_mismatch),
        cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_inputs),
    };

    if (getenv("GELU_ACC_SEED"))
        seed = strtoull(getenv("GELU_ACC_SEED"), NULL, 10);
    printf("# GELU_ACC_SEED=%llu\n", (unsigned long long)seed);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
