/* The command line's helpers (src/cli/cli.c, measure.c, progress.c),
 * compiled into this test: option values and their messages, the digits
 * that tell a format's values apart (checked to be enough and the fewest
 * that are), sweeps whose failures become messages and exit statuses,
 * results printed in three forms, a write error on standard output, and the
 * progress line shown only on a terminal.  Messages are read back from
 * stderr redirected to a file. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "cli/progress.h"
#include "impls/impl.h"

static const struct ga_format *f32, *f16, *bf16;

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* ---- capturing a standard stream ---- */

struct capture {
    int fd, saved;
    FILE *file;
};

static void capture_start(struct capture *c, int fd)
{
    fflush(fd == 1 ? stdout : stderr);
    c->file = tmpfile();
    assert_non_null(c->file);
    c->fd = fd;
    c->saved = dup(fd);
    assert_true(c->saved >= 0);
    assert_true(dup2(fileno(c->file), fd) >= 0);
}

/* What was written since capture_start (static buffer). */
static const char *capture_end(struct capture *c)
{
    static char text[1 << 16];
    size_t n;
    fflush(c->fd == 1 ? stdout : stderr);
    assert_true(dup2(c->saved, c->fd) >= 0);
    close(c->saved);
    rewind(c->file);
    n = fread(text, 1, sizeof text - 1, c->file);
    text[n] = '\0';
    fclose(c->file);
    return text;
}

/* ---- option values ---- */

static void test_format(void **state)
{
    struct capture c;
    (void)state;
    capture_start(&c, 2);
    assert_ptr_equal(ga_cli_format("float32"), f32);
    assert_ptr_equal(ga_cli_format("float16"), f16);
    assert_ptr_equal(ga_cli_format("bfloat16"), bf16);
    assert_string_equal(capture_end(&c), "");
    capture_start(&c, 2);
    assert_null(ga_cli_format("float128"));
    const char *msg = capture_end(&c);
    assert_true(starts_with(msg, "gelu-acc: unknown format 'float128' (known: "));
    assert_non_null(strstr(msg, "bfloat16"));
    assert_int_equal(msg[strlen(msg) - 1], '\n');
    capture_start(&c, 2);
    assert_null(ga_cli_format(NULL));
    assert_non_null(strstr(capture_end(&c), "gelu-acc: --format is required (one of "));
}

static void test_function_and_oracle(void **state)
{
    struct capture c;
    enum ga_function fn = GA_GELU;
    enum ga_oracle oracle = GA_ORACLE_FAST;
    (void)state;
    capture_start(&c, 2);
    assert_int_equal(ga_cli_function("gelu_tanh", &fn), 0);
    assert_int_equal(fn, GA_GELU_TANH);
    assert_int_equal(ga_cli_function("gelu", &fn), 0);
    assert_int_equal(fn, GA_GELU);
    assert_int_equal(ga_cli_oracle("mpfr", &oracle), 0);
    assert_int_equal(oracle, GA_ORACLE_MPFR);
    assert_int_equal(ga_cli_oracle("fast", &oracle), 0);
    assert_int_equal(oracle, GA_ORACLE_FAST);
    assert_string_equal(capture_end(&c), "");
    capture_start(&c, 2);
    assert_int_equal(ga_cli_function("tanh", &fn), -1);
    assert_int_equal(ga_cli_oracle("MPFR", &oracle), -1);
    assert_int_equal(ga_cli_oracle("f", &oracle), -1);
    assert_int_equal(ga_cli_oracle("", &oracle), -1);
    assert_string_equal(capture_end(&c),
                        "gelu-acc: unknown function 'tanh' (known: gelu, gelu_tanh)\n"
                        "gelu-acc: unknown oracle 'MPFR' (known: fast, mpfr)\n"
                        "gelu-acc: unknown oracle 'f' (known: fast, mpfr)\n"
                        "gelu-acc: unknown oracle '' (known: fast, mpfr)\n");
    assert_int_equal(fn, GA_GELU);            /* untouched on failure */
    assert_int_equal(oracle, GA_ORACLE_FAST);
}

/* --timeout: a number of seconds in (0, 86400], no atof leniency. */
static void test_timeout(void **state)
{
    static const char *const bad[] = { "0", "-1", "1e999", "inf", "nan", "5x", "", " 5",
                                       "86401", "1@2", "0b1", "0x1p-2", "1e3" };
    struct capture c;
    double seconds = 7;
    (void)state;
    assert_int_equal(ga_cli_timeout("sweep", "0.5", &seconds), 0);
    assert_true(seconds == 0.5);
    assert_int_equal(ga_cli_timeout("sweep", "0.25", &seconds), 0);
    assert_true(seconds == 0.25);
    assert_int_equal(ga_cli_timeout("sweep", "86400", &seconds), 0);
    assert_true(seconds == 86400);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[160];
        capture_start(&c, 2);
        assert_int_equal(ga_cli_timeout("sweep", bad[i], &seconds), -1);
        snprintf(want, sizeof want, "gelu-acc: sweep: --timeout takes a decimal number of "
                 "seconds above 0 and at most 86400, not '%s'\n", bad[i]);
        assert_string_equal(capture_end(&c), want);
    }
}

static void test_threads(void **state)
{
    static const char *const bad[] = { "0", "1025", "-3", "4x", "", "abc", " ",
                                       "99999999999999999999", "2.5", " 2", "+2", "0x2",
                                       "2 " };
    struct capture c;
    int threads = 7;
    (void)state;
    assert_int_equal(ga_cli_threads("sweep", "1", &threads), 0);
    assert_int_equal(threads, 1);
    assert_int_equal(ga_cli_threads("sweep", "1024", &threads), 0);
    assert_int_equal(threads, 1024);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[128];
        threads = 7;
        capture_start(&c, 2);
        assert_int_equal(ga_cli_threads("report", bad[i], &threads), -1);
        snprintf(want, sizeof want,
                 "gelu-acc: report: --threads takes a number from 1 to 1024, not '%s'\n", bad[i]);
        assert_string_equal(capture_end(&c), want);
        assert_int_equal(threads, 7);
    }
}

/* True when every non-NaN value of f printed with `digits` significant
 * digits reads back as itself (16-bit formats: all of them; float32: the
 * values of the hardest binade for 9 digits and a sample). */
static bool digits_suffice(const struct ga_format *f, int digits)
{
    char buf[64];
    uint64_t n = f->bits == 16 ? 0x10000 : 0;
    for (uint64_t x = 0; x < n; x++) {
        if (ga_classify(f, (ga_bits)x) == GA_NAN)
            continue;
        snprintf(buf, sizeof buf, "%.*g", digits, ga_decode(f, (ga_bits)x));
        if (!ga_same_encoding(f, ga_encode(f, strtod(buf, NULL)), (ga_bits)x))
            return false;
    }
    if (f->bits == 64)   /* [1, 2): 2^-52 steps, 1 + 2^-52 first */
        for (ga_bits x = 0x3ff0000000000001u; x < 0x4000000000000000u; x += 0x9e3779b97f4au) {
            snprintf(buf, sizeof buf, "%.*g", digits, ga_decode(f, x));
            if (ga_encode(f, strtod(buf, NULL)) != x)
                return false;
        }
    if (f->bits == 32)   /* [8, 16): 2^-20 steps, denser than 10^-7 of 9.x */
        for (ga_bits x = 0x41000000; x < 0x41800000; x += 97) {
            snprintf(buf, sizeof buf, "%.*g", digits, ga_decode(f, x));
            if (ga_encode(f, strtod(buf, NULL)) != x)
                return false;
        }
    return true;
}

static void test_digits(void **state)
{
    (void)state;
    /* ceil(1 + p log10 2) for p = 24, 11, 8, 53 */
    assert_int_equal(ga_cli_digits(ga_format_get(GA_FLOAT64)), 17);
    assert_int_equal(ga_cli_digits(f32), 9);
    assert_int_equal(ga_cli_digits(f16), 5);
    assert_int_equal(ga_cli_digits(bf16), 4);
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        assert_true(digits_suffice(f, ga_cli_digits(f)));
        /* the bound is tight for the wide formats; the small ones' narrow
         * exponent range may let fewer digits do */
        if (!ga_is_small_format(f))
            assert_false(digits_suffice(f, ga_cli_digits(f) - 1));
    }
}

/* ---- sweeps and results ---- */

static int failing_read(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        out[i] = (ga_bits)(first + i);
    return first + n > 100 ? -1 : 0;
}

static const char *failing_error(void *ctx)
{
    (void)ctx;
    return "inputs.npy: element 100 past the end";
}

static void test_sweep_statuses(void **state)
{
    struct ga_domain d;
    char err[256];
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST, .threads = 1 };
    struct ga_measurement m = { .impl = ga_catalogue_find("lut_f16"), .reference = GA_GELU };
    struct capture c;
    (void)state;
    assert_int_equal(ga_domain_parse(&d, "range:1:2", bf16, err, sizeof err), 0);
    capture_start(&c, 2);
    assert_int_equal(ga_cli_sweep("sweep", bf16, &d, &m, 1, so, "lut_f16"), GA_EXIT_USAGE);
    assert_string_equal(capture_end(&c),
                        "gelu-acc: sweep: an implementation has no bfloat16 version\n");
    ga_measurement_clear(&m);
    /* a source that fails: its own message */
    struct ga_domain src;
    ga_domain_from_source(&src, bf16, 5000,
                          (struct ga_source){ failing_read, failing_error, NULL }, "inputs.npy");
    m = (struct ga_measurement){ .impl = ga_catalogue_find("erf"), .reference = GA_GELU };
    capture_start(&c, 2);
    assert_int_equal(ga_cli_sweep("grade", bf16, &src, &m, 1, so, "erf"), GA_EXIT_USAGE);
    assert_string_equal(capture_end(&c),
                        "gelu-acc: grade: inputs.npy: element 100 past the end\n");
    ga_measurement_clear(&m);
    /* fine: no message, no progress line (stderr is a file) */
    m = (struct ga_measurement){ .impl = ga_catalogue_find("erf"), .reference = GA_GELU };
    capture_start(&c, 2);
    assert_int_equal(ga_cli_sweep("sweep", bf16, &d, &m, 1, so, "erf"), GA_EXIT_OK);
    assert_string_equal(capture_end(&c), "");
    ga_measurement_clear(&m);
    ga_domain_free(&d);
}

/* bfloat16 [1, 2] with erf: 129 inputs, the result named and counted. */
static void measure_erf(struct ga_result *r, struct ga_domain *d)
{
    char err[256];
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST, .threads = 2 };
    struct ga_measurement m = { .impl = ga_catalogue_find("erf"), .reference = GA_GELU,
                                .want_profile = true };
    assert_int_equal(ga_domain_parse(d, "range:1:2", bf16, err, sizeof err), 0);
    assert_int_equal(ga_cli_measure("sweep", bf16, d, &m, &so, NULL, r), GA_EXIT_OK);
    assert_null(m.stats);        /* released */
    assert_null(r->profile);
}

static void test_measure_and_print(void **state)
{
    struct ga_result r;
    struct ga_domain d;
    struct capture c;
    (void)state;
    measure_erf(&r, &d);
    assert_string_equal(r.impl, "erf");
    assert_ptr_equal(r.format, bf16);
    assert_string_equal(r.domain, "range:1:2");
    assert_int_equal(r.region[GA_REGION_ALL].count, 129);
    assert_int_equal(r.region[GA_REGION_CORE].count, 129);
    assert_int_equal(r.oracle, GA_ORACLE_FAST);

    capture_start(&c, 1);
    assert_int_equal(ga_cli_print_result(&r, GA_CLI_TEXT), GA_EXIT_OK);
    assert_true(starts_with(capture_end(&c),
                            "erf on bfloat16 against gelu (domain range:1:2, fast oracle)\n"));
    capture_start(&c, 1);
    assert_int_equal(ga_cli_print_result(&r, GA_CLI_JSON), GA_EXIT_OK);
    const char *json = capture_end(&c);
    assert_true(starts_with(json, "[\n  {\"impl\": \"erf\", \"format\": \"bfloat16\""));
    assert_non_null(strstr(json, "\"count\": 129,"));
    capture_start(&c, 1);
    assert_int_equal(ga_cli_print_result(&r, GA_CLI_CSV), GA_EXIT_OK);
    const char *csv = capture_end(&c);
    assert_true(starts_with(csv, "impl,format,reference,region,count,"));
    assert_non_null(strstr(csv, "\nerf,bfloat16,gelu,all,129,"));
    assert_non_null(strstr(csv, "\nerf,bfloat16,gelu,core,129,"));

    /* a full disk: the write error is reported, with a usage status */
    struct capture err;
    int full = open("/dev/full", O_WRONLY);
    if (full < 0)
        skip();
    capture_start(&err, 2);
    fflush(stdout);
    int saved = dup(1);
    dup2(full, 1);
    int status = ga_cli_print_result(&r, GA_CLI_JSON);
    clearerr(stdout);
    dup2(saved, 1);
    close(saved);
    close(full);
    assert_int_equal(status, GA_EXIT_USAGE);
    assert_string_equal(capture_end(&err),
                        "gelu-acc: cannot write the results to standard output\n");
    ga_domain_free(&d);
}

/* The progress line goes to a terminal, and nowhere else. */
static void test_progress_only_on_terminal(void **state)
{
    struct ga_sweep_options so = { 0 };
    struct ga_progress p;
    struct capture c;
    (void)state;
    capture_start(&c, 2);
    ga_progress_attach(&p, &so, "erf");
    assert_null(so.progress);
    assert_string_equal(capture_end(&c), "");

    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        skip();
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    assert_true(slave >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(slave, 2);
    ga_progress_attach(&p, &so, "tanh");
    assert_non_null(so.progress);
    assert_ptr_equal(so.progress_ctx, &p);
    so.progress(so.progress_ctx, 50, 200);
    so.progress(so.progress_ctx, 200, 200);
    dup2(saved, 2);
    close(saved);
    close(slave);
    char text[512] = { 0 };
    size_t got = 0;
    fcntl(master, F_SETFL, O_NONBLOCK);
    for (int tries = 0; tries < 100 && !strstr(text, "200/200"); tries++) {
        ssize_t k = read(master, text + got, sizeof text - 1 - got);
        if (k > 0)
            got += (size_t)k;
        else
            usleep(1000);
    }
    close(master);
    assert_non_null(strstr(text, "\rtanh:  25.0% 50/200 "));
    assert_non_null(strstr(text, "\rtanh: 100.0% 200/200 "));
    assert_non_null(strstr(text, " left "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_function_and_oracle),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_digits),
        cmocka_unit_test(test_sweep_statuses),
        cmocka_unit_test(test_measure_and_print),
        cmocka_unit_test(test_progress_only_on_terminal),
    };
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests_name("cli_options", tests, NULL, NULL);
}
