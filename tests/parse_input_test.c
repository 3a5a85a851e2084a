/* What the user types as numbers and domains, strictly: the grammar of numbers
 * (formats/parse_value.h), whole numbers (io/parse_count.h), domain specs
 * (domain/domain.h) and the chunking of the largest domains (sweep.h).
 * Expected encodings are well-known IEEE values (1.0f = 0x3f800000). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "formats/parse_value.h"
#include "io/parse_count.h"
#include "domain/domain.h"
#include "measure/sweep.h"

static const struct ga_format *f32, *bf16;

static int setup(void **state)
{
    f32 = ga_format_by_name("float32");
    bf16 = ga_format_by_name("bfloat16");
    return 0;
}

static void value_is(const char *text, ga_bits expected)
{
    ga_bits x = 0;
    if (ga_parse_value(f32, text, &x) != 0)
        fail_msg("'%s' refused", text);
    if (x != expected)
        fail_msg("'%s' read as 0x%08llx, expected 0x%08llx", text, (unsigned long long)x,
                 (unsigned long long)expected);
}

static void not_a_number(const char *text, size_t bad_at)
{
    ga_bits x;
    size_t at = 12345;
    double d;

    if (ga_parse_value(f32, text, &x) == 0)
        fail_msg("'%s' accepted", text);
    assert_int_equal(ga_number_syntax(text, &at), -1);
    if (at != bad_at)
        fail_msg("'%s': bad at %zu, expected %zu", text, at, bad_at);
    assert_int_equal(ga_parse_real(text, &d), -1);
}

static void test_number_grammar(void **state)
{
    value_is("1", 0x3f800000);
    value_is("+1.", 0x3f800000);
    value_is(".5e1", 0x40a00000);
    value_is("-5.5", 0xc0b00000);
    value_is("0x1.8p-3", 0x3e400000);
    value_is("0X.8P+1", 0x3f800000);
    value_is("0x10", 0x41800000);
    value_is("1E-50", 0x00000000);
    value_is("-1e-50", 0x80000000);
    value_is("1e39", 0x7f800000);
    value_is("INF", 0x7f800000);
    value_is("-Infinity", 0xff800000);
    /* exponents beyond the long range: MPFR's own reading wrapped around
     * (found by fuzzing: this was +inf) */
    value_is(".00001e-400000000000000000000000000000000000000000000000000000000000000000002", 0);
    value_is("-.1e-99999999999999999999", 0x80000000);
    value_is("1000e99999999999999999999", 0x7f800000);
    value_is("0x.00001p-400000000000000000000000000000002", 0);
    value_is("1e-0000000000000000000000000000000000000001", 0x3dcccccd);
    assert_int_equal(ga_parse_value(f32, "nan", &(ga_bits){ 0 }), 0);
    assert_int_equal(ga_parse_value(f32, "-NaN", &(ga_bits){ 0 }), 0);
    /* MPFR's syntax beyond the README, C suffixes, blanks: refused */
    not_a_number("0b101", 1);
    not_a_number("1@2", 1);
    not_a_number("@inf@", 0);
    not_a_number("nan(1)", 0);
    not_a_number("1.5f", 3);
    not_a_number(" 1", 0);
    not_a_number("1 ", 1);
    not_a_number("", 0);
    not_a_number("-", 1);
    not_a_number(".", 1);
    not_a_number("0x", 2);
    not_a_number("0x.p1", 3);
    not_a_number("1e", 2);
    not_a_number("1e+", 3);
    not_a_number("0x1e3p", 6);
    not_a_number("1p3", 1);
    not_a_number("--1", 1);
    not_a_number("1_000", 1);
    not_a_number("infinit", 0);
}

static void test_real(void **state)
{
    double d = 0;

    assert_int_equal(ga_parse_real("2.5", &d), 0);
    assert_true(d == 2.5);
    assert_int_equal(ga_parse_real("0x1p-1074", &d), 0);
    assert_true(d == 0x1p-1074);
    assert_int_equal(ga_parse_real("1e999", &d), -2);
    assert_int_equal(ga_parse_real("-1e999", &d), -2);
    assert_int_equal(ga_parse_real("inf", &d), -1);
    assert_int_equal(ga_parse_real("nan", &d), -1);
}

static void test_count(void **state)
{
    uint64_t v = 7;

    assert_int_equal(ga_parse_count("0", 10, &v), GA_COUNT_OK);
    assert_int_equal(v, 0);
    assert_int_equal(ga_parse_count("010", 10, &v), GA_COUNT_OK);
    assert_int_equal(v, 10);  /* decimal, not octal */
    assert_int_equal(ga_parse_count("18446744073709551615", UINT64_MAX, &v), GA_COUNT_OK);
    assert_true(v == UINT64_MAX);
    assert_int_equal(ga_parse_count("18446744073709551616", UINT64_MAX, &v), GA_COUNT_TOO_LARGE);
    assert_int_equal(ga_parse_count("99999999999999999999999999", UINT64_MAX, &v),
                     GA_COUNT_TOO_LARGE);
    assert_int_equal(ga_parse_count("11", 10, &v), GA_COUNT_TOO_LARGE);
    assert_int_equal(ga_parse_count("99999999999999999999999x", UINT64_MAX, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count("", 10, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count("-1", 10, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count("+1", 10, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count(" 1", 10, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count("1 ", 10, &v), GA_COUNT_SYNTAX);
    assert_int_equal(ga_parse_count("0x1", 10, &v), GA_COUNT_SYNTAX);
}

static void domain_ok(const struct ga_format *f, const char *spec, uint64_t size)
{
    struct ga_domain d;
    char err[512] = "";

    if (ga_domain_parse(&d, spec, f, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", spec, err);
    if (d.size != size)
        fail_msg("'%s': %llu inputs, expected %llu", spec, (unsigned long long)d.size,
                 (unsigned long long)size);
    ga_domain_free(&d);
}

static void domain_refused(const struct ga_format *f, const char *spec, const char *reason)
{
    struct ga_domain d;
    char err[512] = "";

    if (ga_domain_parse(&d, spec, f, err, sizeof err) == 0)
        fail_msg("'%s' accepted with %llu inputs", spec, (unsigned long long)d.size);
    assert_contains(err, reason);
}

static void test_domains(void **state)
{
    char spec[GA_DOMAIN_SPEC_LEN + 8];

    domain_ok(bf16, "all", 65536);
    domain_ok(bf16, "range:1:2", 0x4000 - 0x3f80 + 1);
    domain_ok(bf16, "range:-0:0", 2);
    domain_ok(bf16, "random:010", 10);                 /* decimal */
    domain_ok(f32, "random:4294967296:18446744073709551615", 4294967296u);
    domain_ok(bf16, "stride:65536:65535", 1);
    domain_ok(bf16, "stride:3:2", 21845);
    /* found loose: these measured 0 inputs, wrapped, or read octal */
    domain_refused(f32, "random:18446744073709551615", "N 18446744073709551615 is out of range (1 <= N <= 2^32)");
    domain_refused(f32, "random:18446744073709547521", "out of range");
    domain_refused(f32, "random:4294967297", "out of range");
    domain_refused(f32, "random: -1", "N ' -1' is not a decimal whole number");
    domain_refused(f32, "random:0x10", "not a decimal whole number");
    domain_refused(f32, "random:0", "N 0 is out of range");
    domain_refused(f32, "random:5:", "SEED '' is not a decimal whole number");
    domain_refused(f32, "random:5:18446744073709551616", "SEED 18446744073709551616 is out of range");
    domain_refused(f32, "random:5:6:7", "SEED '6:7'");
    domain_refused(f32, "random:1111111111111111111111111111111111111111111111111111111111111111x",
                   "is not a decimal whole number");
    domain_refused(f32, "stride:000000000000000000000000000000000000000000000000000000000000000001x",
                   "is not a decimal whole number");
    domain_refused(bf16, "stride:65537", "K 65537 is out of range (1 <= K <= 2^16)");
    domain_refused(bf16, "stride:4:4", "OFFSET 4 is out of range (OFFSET < K)");
    domain_refused(bf16, "stride:0", "out of range");
    domain_refused(bf16, "range:2:1", "A is above B");
    domain_refused(bf16, "range:1:0b101", "B '0b101' is not a number (at character 2");
    domain_refused(bf16, "range:nan:1", "A is NaN");
    domain_refused(bf16, "range:1", "expected range:A:B");
    domain_refused(bf16, "range:1:2:3:4", "N '3:4' is not a decimal whole number");
    domain_refused(bf16, "all ", "unknown domain");
    domain_refused(bf16, "file:", "expected file:PATH");
    domain_refused(bf16, "file:/nonexistent/x", "cannot open");
    memset(spec, '1', sizeof spec);
    memcpy(spec, "range:1:", 8);
    spec[GA_DOMAIN_SPEC_LEN] = '\0';
    domain_refused(bf16, spec, "is longer than");
    spec[GA_DOMAIN_SPEC_LEN - 1] = '\0';
    domain_ok(bf16, spec, 0x7f80 - 0x3f80 + 1);  /* read whole: B is huge, +inf in bfloat16 */
}

static void test_chunk_count(void **state)
{
    assert_true(ga_sweep_chunk_count(0) == 0);
    assert_true(ga_sweep_chunk_count(1) == 1);
    assert_true(ga_sweep_chunk_count(GA_SWEEP_CHUNK) == 1);
    assert_true(ga_sweep_chunk_count(GA_SWEEP_CHUNK + 1) == 2);
    /* sizes whose rounding up to a whole chunk wraps around 2^64 */
    assert_true(ga_sweep_chunk_count(UINT64_MAX) == (UINT64_MAX >> 12) + 1);
    assert_true(ga_sweep_chunk_count(UINT64_MAX - 4094) == (UINT64_MAX >> 12) + 1);
    assert_true(ga_sweep_chunk_count(UINT64_MAX - 4095) == UINT64_MAX >> 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_number_grammar),
        cmocka_unit_test(test_real),
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_domains),
        cmocka_unit_test(test_chunk_count),
    };
    return cmocka_run_group_tests_name("parse_input", tests, setup, NULL);
}
