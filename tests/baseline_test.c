/* Baseline files: the parser against the grammar of the README
 * ("Baselines"), every refusal with its file, line and reason, the writer
 * read back, and the comparison of measured summaries with the bounds.
 * Expected values are written by hand from the text of each file (1.0f is
 * 0x3f800000, -5.125f is 0xc0a40000). */
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

#include "check/baseline.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/baseline_test.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/b.baseline", dir);
    return 0;
}

static int teardown(void **state)
{
    unlink(path);
    return rmdir(dir);
}

/* Write len bytes of text as the baseline file. */
static void write_file(const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void read_ok(const char *text, struct ga_baseline *b)
{
    char err[1024] = "";

    write_file(text, strlen(text));
    if (ga_baseline_read(path, b, err, sizeof err) != 0)
        fail_msg("refused: %s", err);
}

/* The file is refused with "PATH:LINE" and reason in the message. */
static void refused_n(const char *text, size_t len, int line, const char *reason)
{
    struct ga_baseline b;
    char err[1024] = "", where[160];

    write_file(text, len);
    if (ga_baseline_read(path, &b, err, sizeof err) == 0)
        fail_msg("accepted: %.*s", (int)len, text);
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d:", path, line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    assert_contains(err, where);
    assert_contains(err, reason);
    assert_null(b.entries);
}

static void refused(const char *text, int line, const char *reason)
{
    refused_n(text, strlen(text), line, reason);
}

#define HEAD "[k]\nkernel = erf\nformat = float32\n"

static void test_reads_the_readme_example(void **state)
{
    struct ga_baseline b;
    const struct ga_baseline_entry *e;
    const struct ga_bounds *all, *tail;

    read_ok("# comment\n"
            "[example-tanh]                       # one section per kernel\n"
            "kernel = plugin:libexample.so:gelu_tanh_f32   # or a catalogue name\n"
            "format = float32\r\n"
            "reference = gelu_tanh\n"
            "domain = stride:4096\n"
            "max_ulp = 2.5  # at x = ...\n"
            "correctly_rounded = 1043000\n"
            "flushed_to_zero = 0\n"
            "nan = 0\n"
            "inf = 7\n"
            "wrong_zero_sign = 18446744073709551615\n"
            "faithful_interval = 0xc0a40000 inf\n"
            "zero_below = none\n"
            "left_tail.max_ulp = 2.5e1\n"
            "\n"
            "[second]\n"
            "\tkernel = erf\t\n"
            "format = bfloat16\n"
            "faithful_interval = -inf 0x3f80\n"
            "zero_below = 0xc100\n", &b);
    assert_int_equal(b.count, 2);
    e = &b.entries[0];
    assert_string_equal(e->name, "example-tanh");
    assert_string_equal(e->kernel, "plugin:libexample.so:gelu_tanh_f32");
    assert_string_equal(e->format->name, "float32");
    assert_int_equal(e->reference, GA_GELU_TANH);
    assert_string_equal(e->domain, "stride:4096");
    assert_int_equal(e->line, 2);
    all = &e->region[GA_REGION_ALL];
    assert_true(all->has_max_ulp && all->max_ulp == 2.5);
    assert_true(all->has_correct && all->correctly_rounded == 1043000);
    assert_true(all->has_inf && all->inf == 7);
    assert_true(all->has_zero_sign && all->wrong_zero_sign == UINT64_MAX);
    assert_true(all->has_interval && all->faithful_interval.exists);
    assert_true(all->faithful_interval.has_lo && !all->faithful_interval.has_hi);
    assert_int_equal(all->faithful_interval.lo, 0xc0a40000);
    assert_true(all->has_zero_below && !all->zero_below_exists);
    tail = &e->region[GA_REGION_LEFT_TAIL];
    assert_true(tail->present && tail->has_max_ulp && tail->max_ulp == 25);
    assert_false(e->region[GA_REGION_CORE].present);

    e = &b.entries[1];
    assert_string_equal(e->name, "second");
    assert_string_equal(e->kernel, "erf");
    assert_int_equal(e->reference, GA_GELU);
    assert_string_equal(e->domain, "all");  /* the bfloat16 default */
    all = &e->region[GA_REGION_ALL];
    assert_false(all->faithful_interval.has_lo);
    assert_true(all->faithful_interval.has_hi && all->faithful_interval.hi == 0x3f80);
    assert_true(all->zero_below_exists && all->zero_below == 0xc100);
    ga_baseline_free(&b);
}

static void test_max_ulp_values(void **state)
{
    struct ga_baseline b;

    read_ok(HEAD "max_ulp = inf\n", &b);
    assert_true(isinf(b.entries[0].region[GA_REGION_ALL].max_ulp));
    ga_baseline_free(&b);
    read_ok(HEAD "max_ulp = 0x1.8p1\n", &b);
    assert_true(b.entries[0].region[GA_REGION_ALL].max_ulp == 3);
    ga_baseline_free(&b);
    read_ok(HEAD "max_ulp = 1.7976931348623157e308\n", &b);
    assert_true(b.entries[0].region[GA_REGION_ALL].max_ulp == 0x1.fffffffffffffp1023);
    ga_baseline_free(&b);
}

/* Each case found loose, refused now with the line and the reason. */
static void test_refusals(void **state)
{
    char domain[400], name[300], kernel[1200];

    refused(HEAD "max_ulp = 1\nmax_ulp = 2\n", 5, "'max_ulp' is given twice in this section (first at line 4)");
    refused(HEAD "left_tail.nan = 1\nleft_tail.nan = 1\n", 5, "'left_tail.nan' is given twice");
    refused(HEAD "kernel = tanh\n", 4, "'kernel' is given twice");
    refused(HEAD "[k]\nkernel = tanh\nformat = float32\n", 4, "section [k] is given twice (first at line 1)");
    refused(HEAD "zero_below = 0xc1000000\nformat = bfloat16\n", 5, "'format' is given twice");
    refused("[k]\nkernel = erf\nmax_ulp = 1\nformat = float32\n", 3, "'format' must come before");
    refused(HEAD "faithful_interval = 0x40a00000 0xc0a00000\n", 4, "LO 0x40a00000 is not below 0");
    refused(HEAD "faithful_interval = -inf 0x80000000\n", 4, "HI 0x80000000 is not above 0");
    refused(HEAD "faithful_interval = 0xffc00000 inf\n", 4, "is a NaN");
    refused(HEAD "faithful_interval = -inf inf inf\n", 4, "takes 'LO HI'");
    refused(HEAD "faithful_interval = -inf\n", 4, "takes 'LO HI'");
    refused(HEAD "zero_below = 0x1ffffffff\n", 4, "wider than float32's 32 bits");
    refused(HEAD "max_ulp = 1e999\n", 4, "beyond the double range");
    refused(HEAD "max_ulp = -1\n", 4, "not a non-negative number");
    refused(HEAD "max_ulp = nan\n", 4, "not a non-negative number");
    refused(HEAD "max_ulp = 1@2\n", 4, "not a non-negative number");
    refused(HEAD "max_ulp = 2.5 x\n", 4, "not a non-negative number");
    refused(HEAD "nan = 18446744073709551616\n", 4, "above 2^64 - 1");
    refused(HEAD "nan = +0\n", 4, "not a count");
    refused(HEAD "nan = 010x\n", 4, "not a count");
    refused(HEAD "nan = 0x10\n", 4, "not a count");
    refused(HEAD "left_tailx.max_ulp = 1\n", 4, "unknown region 'left_tailx'");
    refused(HEAD "left_tail.kernel = erf\n", 4, "unknown key 'left_tail.kernel'");
    refused(HEAD "maxulp = 1\n", 4, "unknown key 'maxulp'");
    refused(HEAD "= 1\n", 4, "expected 'key = value'");
    refused(HEAD "domain =\n", 4, "'domain' has no value");
    refused(HEAD "domain = random:0\nmax_ulp = 1\n", 4, "domain 'random:0': N 0 is out of range");
    refused("[k]\nkernel = erf\ndomain = range:1:2e\nformat = bfloat16\n[j]\n", 3,
            "B '2e' is not a number");
    refused(HEAD "reference = gelu2\n", 4, "unknown reference");
    refused("[k]\nkernel = erf\nformat = float128\n", 3, "unknown format 'float128'");
    refused("kernel = erf\n", 1, "before the first section");
    refused("[k\nkernel = erf\n", 1, "expected a section header");
    refused("[k]x\nkernel = erf\n", 1, "expected a section header");
    refused("[]\n", 1, "expected a section header");
    refused("[ k ]\nkernel = erf\nformat = float32\n", 1, "blanks around the section name");
    refused("[k]\nformat = float32\n[j]\n", 1, "section [k] has no 'kernel'");
    refused("[k]\nkernel = outputs:o.npy\nformat = float32\n", 1, "needs 'inputs'");
    refused("# nothing\n", 0, "no section");
    refused("[k]\nkernel = outputs:o.npy\ninputs = i.npy\nformat = float32\ndomain = all\n", 5,
            "'domain' does not apply to an outputs: kernel");
    refused("[k]\nkernel = erf\ninputs = i.npy\nformat = float32\n[j]\n", 3,
            "'inputs' applies only to an outputs: kernel");
    refused_n(HEAD "kernel = erf\0 junk\n", sizeof HEAD + 17, 4, "4:13: NUL byte");
    refused(HEAD "nan = 0\rx\n", 4, "carriage return inside the line");

    /* A value longer than its field is refused, never cut: a range whose
     * upper bound lost its exponent at 255 characters used to become
     * [1, +inf]. */
    snprintf(domain, sizeof domain, HEAD "domain = range:1:1.%0300de9\n", 0);
    struct ga_baseline b;
    read_ok(domain, &b);
    assert_int_equal(strlen(b.entries[0].domain), strlen("range:1:1.") + 300 + 2);
    ga_baseline_free(&b);
    snprintf(name, sizeof name, "[%0200d]\nkernel = erf\nformat = float32\n", 0);
    refused(name, 1, "section name longer than 127 characters");
    snprintf(kernel, sizeof kernel, "[k]\nformat = float32\nkernel = %01100d\n", 0);
    refused(kernel, 3, "'kernel' is longer than 1023 characters");
}

/* A line of more than 4096 bytes is refused, not read in pieces. */
static void test_long_line(void **state)
{
    size_t len = 5000;
    char *text = malloc(len + 1);

    assert_non_null(text);
    snprintf(text, len + 1, HEAD "domain = range:1:");
    memset(text + strlen(text), '1', len - strlen(text));
    text[len - 1] = '\n';
    text[len] = '\0';
    refused(text, 4, "line longer than 4096 bytes");
    free(text);
}

/* A summary with hand-chosen figures for the writer and the comparison. */
static void make_summary(struct ga_summary s[GA_REGION_COUNT + 1])
{
    memset(s, 0, (GA_REGION_COUNT + 1) * sizeof *s);
    for (int r = 0; r <= GA_REGION_COUNT; r++)
        s[r].region = (enum ga_region)r;
    s[GA_REGION_ALL].count = 1000;
    s[GA_REGION_ALL].max_ulp = (struct ga_point){ .has = true, .error = 1.00001, .x = 0x3f800000,
                                                  .y = 0x3f57625e };
    s[GA_REGION_ALL].correctly_rounded = 990;
    s[GA_REGION_ALL].flushed_to_zero = 3;
    s[GA_REGION_ALL].faithful_interval = (struct ga_faithful_interval){
        .exists = true, .has_lo = true, .lo = 0xc0a40000, .has_hi = false };
    s[GA_REGION_ALL].has_zero_below = true;
    s[GA_REGION_ALL].zero_below = 0xc1000000;
    s[GA_REGION_CORE].count = 10;
    s[GA_REGION_CORE].correctly_rounded = 9;
}

static void test_written_entry_reads_back(void **state)
{
    struct ga_summary s[GA_REGION_COUNT + 1];
    struct ga_baseline_entry e = { .name = "w", .kernel = "erf", .domain = "range:-1:1",
                                   .reference = GA_GELU };
    struct ga_baseline b;
    char err[1024];
    FILE *out;

    make_summary(s);
    e.format = ga_format_by_name("float32");
    out = fopen(path, "w");
    assert_non_null(out);
    assert_int_equal(ga_baseline_write_entry(out, &e, s), 0);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(ga_baseline_read(path, &b, err, sizeof err), 0);
    assert_int_equal(b.count, 1);
    assert_string_equal(b.entries[0].domain, "range:-1:1");
    assert_true(b.entries[0].region[GA_REGION_ALL].max_ulp == 1.001);  /* rounded up */
    assert_int_equal(b.entries[0].region[GA_REGION_ALL].correctly_rounded, 990);
    assert_int_equal(b.entries[0].region[GA_REGION_ALL].faithful_interval.lo, 0xc0a40000);
    assert_int_equal(b.entries[0].region[GA_REGION_ALL].zero_below, 0xc1000000);
    assert_int_equal(b.entries[0].region[GA_REGION_CORE].correctly_rounded, 9);
    /* the measurement it was written from meets it */
    assert_int_equal(ga_baseline_compare(stdout, &b.entries[0], s), 0);
    ga_baseline_free(&b);
}

static int compare_text(const char *bounds, const struct ga_summary s[GA_REGION_COUNT + 1],
                        char *text, size_t size)
{
    struct ga_baseline b;
    FILE *out = fmemopen(text, size, "w");
    int n;

    read_ok(bounds, &b);
    assert_non_null(out);
    n = ga_baseline_compare(out, &b.entries[0], s);
    fclose(out);
    ga_baseline_free(&b);
    return n;
}

static void test_compare(void **state)
{
    struct ga_summary s[GA_REGION_COUNT + 1];
    char text[4096];

    make_summary(s);
    assert_int_equal(compare_text(HEAD "max_ulp = 1.00001\ncorrectly_rounded = 990\n"
                                  "flushed_to_zero = 3\nfaithful_interval = 0xc0a40000 inf\n"
                                  "zero_below = 0xc1000000\n", s, text, sizeof text), 0);
    /* a better kernel passes */
    assert_int_equal(compare_text(HEAD "max_ulp = 2\ncorrectly_rounded = 980\n"
                                  "flushed_to_zero = 5\nfaithful_interval = 0xc0000000 0x40000000\n"
                                  "zero_below = 0xc0000000\n", s, text, sizeof text), 0);
    assert_int_equal(compare_text(HEAD "max_ulp = 0.5\n", s, text, sizeof text), 1);
    assert_contains(text, "k: max_ulp 0.5 -> 1");
    assert_contains(text, "worst input 0x3f800000");
    assert_int_equal(compare_text(HEAD "correctly_rounded = 991\nflushed_to_zero = 2\n", s,
                                  text, sizeof text), 2);
    assert_contains(text, "k: correctly_rounded 991 -> 990");
    assert_contains(text, "k: flushed_to_zero 2 -> 3");
    /* a count names an input it counts: the worst input for correctly_rounded
     * only because its error, above 1/2 ulp, shows it is not correctly rounded */
    assert_contains(text, "k: correctly_rounded 991 -> 990; e.g. input 0x3f800000 ");
    s[GA_REGION_ALL].max_ulp.error = 0.5;
    assert_int_equal(compare_text(HEAD "correctly_rounded = 991\n", s, text, sizeof text), 1);
    assert_string_equal(text, "k: correctly_rounded 991 -> 990\n");
    s[GA_REGION_ALL].first_fault[GA_FAULT_NAN] = (struct ga_point){ .has = true, .x = 0x3f800000,
                                                                    .y = 0x7fc00000 };
    assert_int_equal(compare_text(HEAD "correctly_rounded = 991\n", s, text, sizeof text), 1);
    assert_contains(text, "k: correctly_rounded 991 -> 990; e.g. input 0x3f800000 (1): output 0x7fc00000");
    make_summary(s);
    /* the interval's end that moved in; the old zero_below, which gives 0 now */
    assert_int_equal(compare_text(HEAD "faithful_interval = -inf inf\n", s, text, sizeof text), 1);
    assert_contains(text, "; input 0xc0a40000 (-5.125) is not faithful");
    assert_int_equal(compare_text(HEAD "zero_below = 0xc2000000\n", s, text, sizeof text), 1);
    assert_contains(text, "zero_below -32 -> -8; input 0xc2000000 (-32) gives +-0 now");
    assert_int_equal(compare_text(HEAD "core.correctly_rounded = 10\n", s, text, sizeof text), 1);
    assert_contains(text, "k: core.correctly_rounded 10 -> 9");
    /* inf bounds nothing, none bounds nothing */
    assert_int_equal(compare_text(HEAD "max_ulp = inf\nfaithful_interval = none\nzero_below = none\n",
                                  s, text, sizeof text), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_the_readme_example),
        cmocka_unit_test(test_max_ulp_values),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_written_entry_reads_back),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests_name("baseline", tests, setup, teardown);
}
