/* Report writers (src/report/text.c, csv.c, json.c, markdown.c) on small
 * results filled in by hand, and results summarized from a measurement
 * (src/report/result.c).  Each check reads one field where the format puts
 * it (a CSV column by its header name, a JSON key, a Markdown table cell, a
 * text line) and compares it with the value worked out by hand from the
 * result: no output of the writers is copied into this file. */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "impls/impl.h"
#include "report/result.h"

static const struct ga_format *f16;

/* "demo" on float16: 10 inputs, all in the core; 9 correctly rounded, all
 * faithful; worst 0.75 ulp at x = 1 (0x3c00), output 0x3abb
 * (0.84130859375), exact 0.8413447460685429 (gelu(1)). */
static struct ga_result demo(void)
{
    struct ga_result r;
    struct ga_summary s;
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    r.impl = "demo";
    r.models = "a \"quoted\" model";
    r.formula = "x*Phi(x)";
    r.computes = "double";
    r.format = f16;
    r.approximates = GA_GELU;
    r.reference = GA_GELU;
    snprintf(r.domain, sizeof r.domain, "range:-4:4");
    r.oracle = GA_ORACLE_MPFR;
    s.count = s.measured = s.finite = 10;
    s.correctly_rounded = 9;
    s.faithful = 10;
    s.max_ulp = (struct ga_point){ true, 0.75, 0x3c00, 0x3abb, { 0.8413447460685429, 0 } };
    s.max_rel = (struct ga_point){ true, 1e-3, 0x4000, 0x4000, { 0.5, 2 } };
    s.max_abs = (struct ga_point){ true, 0x1p-12, 0x4200, 0x4200, { 0.75, 2 } };
    s.mean_ulp = 0.125;
    s.p50 = 0;
    s.p95 = 0.5;
    s.p99 = 0.75;
    s.distance[0] = 9;
    s.distance[1] = 1;
    s.faithful_interval = (struct ga_faithful_interval){ .exists = true, .has_lo = true,
                                                         .has_hi = true, .lo = 0xc400, .hi = 0x4400,
                                                         .has_extent = true, .extent_lo = 0xc400,
                                                         .extent_hi = 0x4400 };
    for (int g = 0; g < GA_REGION_COUNT; g++) {
        r.region[g].region = (enum ga_region)g;
        r.region[g].max_ulp.has = r.region[g].max_rel.has = r.region[g].max_abs.has = false;
        r.region[g].mean_ulp = r.region[g].p50 = r.region[g].p95 = r.region[g].p99 = NAN;
    }
    r.region[GA_REGION_ALL] = s;
    r.region[GA_REGION_ALL].region = GA_REGION_ALL;
    r.region[GA_REGION_CORE] = s;
    r.region[GA_REGION_CORE].region = GA_REGION_CORE;
    return r;
}

/* The same kernel against the tanh formula, which it failed on two batches
 * apart: two spans. */
static struct ga_result demo_tanh_failed(void)
{
    struct ga_result r = demo();
    r.reference = GA_GELU_TANH;
    r.failed = true;
    r.failed_batches = 2;
    r.failed_inputs = 7;
    r.span_count = 2;
    r.spans[0] = (struct ga_failure_span){ 0xc000, 0xc002, 1, "killed by signal 11 (crash)" };
    r.spans[1] = (struct ga_failure_span){ 0x4000, 0x4000, 1, "timed out after 1 s" };
    r.region[GA_REGION_ALL].p99 = INFINITY;
    r.region[GA_REGION_ALL].has_zero_below = true;
    r.region[GA_REGION_ALL].zero_below = 0xc800;   /* -8 */
    r.region[GA_REGION_ALL].faithful_interval.exists = false;
    return r;
}

/* Render with one of the writers into memory. */
static char *render(int (*write)(FILE *, const struct ga_result *, size_t),
                    const struct ga_result *r, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    assert_int_equal(write(out, r, n), 0);
    assert_int_equal(fclose(out), 0);
    return buf;
}

static int write_text_one(FILE *out, const struct ga_result *r, size_t n)
{
    (void)n;
    return ga_write_text(out, r);
}

static int write_markdown_f16(FILE *out, const struct ga_result *r, size_t n)
{
    return ga_write_markdown(out, f16, r, n, "gelu-acc report --test");
}

/* ---- CSV ---- */

/* Field `column` of the row whose region is `region`, by header name. */
static const char *csv_field(const char *csv, const char *reference, const char *region,
                             const char *column)
{
    static char value[128];
    char *copy = strdup(csv), *save_line, *line = strtok_r(copy, "\n", &save_line);
    char *header[64];
    int ncol = 0, want = -1;
    for (char *save, *h = strtok_r(line, ",", &save); h; h = strtok_r(NULL, ",", &save))
        header[ncol++] = h;
    for (int i = 0; i < ncol; i++)
        if (strcmp(header[i], column) == 0)
            want = i;
    assert_true(want >= 0);
    value[0] = '\0';
    bool found = false;
    while ((line = strtok_r(NULL, "\n", &save_line)) != NULL) {
        char *cells[64];
        int n = 0;
        for (char *p = line;; p++) {   /* empty cells count: split by hand */
            cells[n++] = p;
            p = strchr(p, ',');
            if (!p)
                break;
            *p = '\0';
        }
        assert_int_equal(n, ncol);
        if (strcmp(cells[2], reference) == 0 && strcmp(cells[3], region) == 0) {
            snprintf(value, sizeof value, "%s", cells[want]);
            found = true;
        }
    }
    free(copy);
    assert_true(found);
    return value;
}

static void test_csv(void **state)
{
    struct ga_result r[2] = { demo(), demo_tanh_failed() };
    (void)state;
    char *csv = render(ga_write_csv, r, 2);
    /* "all" and core for each reference: four rows, regions without inputs left out */
    size_t lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 4);
    assert_string_equal(csv_field(csv, "gelu", "all", "impl"), "demo");
    assert_string_equal(csv_field(csv, "gelu", "all", "format"), "float16");
    assert_string_equal(csv_field(csv, "gelu", "all", "count"), "10");
    assert_string_equal(csv_field(csv, "gelu", "all", "correctly_rounded"), "9");
    assert_string_equal(csv_field(csv, "gelu", "all", "faithful"), "10");
    assert_string_equal(csv_field(csv, "gelu", "all", "max_ulp"), "0.75");
    assert_string_equal(csv_field(csv, "gelu", "all", "max_ulp_input"), "0x3c00");
    assert_string_equal(csv_field(csv, "gelu", "all", "mean_ulp"), "0.125");
    assert_string_equal(csv_field(csv, "gelu", "all", "p50"), "0");
    assert_string_equal(csv_field(csv, "gelu", "all", "p95"), "0.5");
    assert_string_equal(csv_field(csv, "gelu", "all", "max_rel"), "0.001");
    assert_string_equal(csv_field(csv, "gelu", "all", "max_rel_input"), "0x4000");
    assert_string_equal(csv_field(csv, "gelu", "all", "max_abs"), "0.0002441");   /* 2^-12 */
    assert_string_equal(csv_field(csv, "gelu", "all", "max_abs_input"), "0x4200");
    assert_string_equal(csv_field(csv, "gelu", "all", "faithful_lo"), "0xc400");
    assert_string_equal(csv_field(csv, "gelu", "all", "faithful_hi"), "0x4400");
    assert_string_equal(csv_field(csv, "gelu", "all", "zero_below"), "");
    assert_string_equal(csv_field(csv, "gelu", "core", "count"), "10");
    assert_string_equal(csv_field(csv, "gelu_tanh", "all", "p99"), "inf");
    assert_string_equal(csv_field(csv, "gelu_tanh", "all", "faithful_lo"), "");
    assert_string_equal(csv_field(csv, "gelu_tanh", "all", "zero_below"), "0xc800");
    free(csv);
}

/* ---- JSON ---- */

/* Brackets and braces balance outside strings, strings close, and escapes
 * are JSON's. */
static bool json_balanced(const char *s)
{
    char stack[64];
    int depth = 0;
    for (; *s; s++) {
        if (*s == '"') {
            for (s++; *s && *s != '"'; s++)
                if (*s == '\\') {
                    s++;
                    if (!strchr("\"\\/bfnrtu", *s))
                        return false;
                } else if ((unsigned char)*s < 0x20) {
                    return false;
                }
            if (!*s)
                return false;
        } else if (*s == '{' || *s == '[') {
            stack[depth++] = *s;
        } else if (*s == '}' || *s == ']') {
            if (depth == 0 || stack[--depth] != (*s == '}' ? '{' : '['))
                return false;
        }
    }
    return depth == 0;
}

static void test_json(void **state)
{
    struct ga_result r[2] = { demo(), demo_tanh_failed() };
    (void)state;
    char *json = render(ga_write_json, r, 2);
    assert_true(json_balanced(json));
    assert_non_null(strstr(json, "\"impl\": \"demo\", \"format\": \"float16\", "
                                 "\"reference\": \"gelu\", \"approximates\": \"gelu\""));
    assert_non_null(strstr(json, "\"models\": \"a \\\"quoted\\\" model\""));
    assert_non_null(strstr(json, "\"domain\": \"range:-4:4\", \"oracle\": \"mpfr\""));
    assert_non_null(strstr(json, "\"count\": 10, \"correctly_rounded\": 9, \"faithful\": 10"));
    assert_non_null(strstr(json, "\"max_ulp\": 0.75, \"max_ulp_input\": \"0x3c00\", "
                                 "\"max_ulp_output\": \"0x3abb\", "
                                 "\"max_ulp_exact\": \"0.841344746\""));
    assert_non_null(strstr(json, "\"mean_ulp\": 0.125, \"p50\": 0, \"p95\": 0.5, \"p99\": 0.75"));
    assert_non_null(strstr(json, "\"p99\": \"inf\""));          /* the tanh result */
    assert_non_null(strstr(json, "\"max_rel\": 0.001, \"max_rel_input\": \"0x4000\""));
    assert_non_null(strstr(json, "\"faithful_interval\": {\"lo\": \"0xc400\", "
                                 "\"hi\": \"0x4400\", \"from\": \"0xc400\", \"to\": \"0x4400\"}"));
    assert_non_null(strstr(json, "\"faithful_interval\": null"));
    assert_non_null(strstr(json, "\"zero_below\": \"0xc800\""));
    assert_non_null(strstr(json, "\"distance_histogram\": {\"0\": 9, \"1\": 1}"));
    assert_non_null(strstr(json, "\"failed\": false"));
    assert_non_null(strstr(json, "\"failure\": {\"what\": \"killed by signal 11 (crash)\", "
                                 "\"first_input\": \"0xc000\",\n    \"spans\": ["
                                 "{\"what\": \"killed by signal 11 (crash)\", \"first_input\": "
                                 "\"0xc000\", \"last_input\": \"0xc002\", \"batches\": 1},\n     "
                                 "{\"what\": \"timed out after 1 s\", \"first_input\": \"0x4000\", "
                                 "\"last_input\": \"0x4000\", \"batches\": 1}],\n    "
                                 "\"unlisted_spans\": 0, \"batches\": 2, "
                                 "\"inputs_not_measured\": 7, \"stopped_early\": false}"));
    /* an empty region: no maximum, no mean */
    assert_non_null(strstr(json, "\"far_left\": {\n     \"count\": 0, \"correctly_rounded\": 0, "
                                 "\"faithful\": 0,\n     \"max_ulp\": null, "
                                 "\"max_ulp_input\": null"));
    assert_non_null(strstr(json, "\"mean_ulp\": null"));
    /* one object per result, every region named */
    size_t objects = 0;
    for (const char *p = json; (p = strstr(p, "\"impl\": ")); p++)
        objects++;
    assert_int_equal(objects, 2);
    for (int g = 0; g < GA_REGION_COUNT; g++) {
        char key[64];
        snprintf(key, sizeof key, "\"%s\": {", ga_region_name((enum ga_region)g));
        assert_non_null(strstr(json, key));
    }
    free(json);
    /* control characters in names are escaped */
    struct ga_result odd = demo();
    odd.impl = "tab\there";
    json = render(ga_write_json, &odd, 1);
    assert_non_null(strstr(json, "\"impl\": \"tab\\u0009here\""));
    assert_true(json_balanced(json));
    free(json);
}

/* ---- Markdown ---- */

static void test_markdown(void **state)
{
    struct ga_result r[2] = { demo(), demo_tanh_failed() };
    (void)state;
    char *md = render(write_markdown_f16, r, 1);
    assert_true(strncmp(md, "# GELU accuracy in float16\n", 27) == 0);
    assert_non_null(strstr(md, "Generated by `gelu-acc report --test` — do not edit by hand. "
                               "Domain: `range:-4:4`."));
    /* the summary row, cell by cell: inputs, cr %, faithful %, max ulp, at x,
     * mean, p99, max rel, flushed, NaN, inf, wrong sign, faithful on, all 0 below */
    assert_non_null(strstr(md, "| `demo` | 10 | 90.000 | 100 | 0.75 | 1 | 0.125 | 0.75 | 0.001 "
                               "| 0 | 0 | 0 | 0 | (-4, 4) | - |\n"));
    /* by region: the core row, without the last two columns */
    assert_non_null(strstr(md, "### core: 2^-10 <= |x| <= 3\n"));
    assert_non_null(strstr(md, "| `demo` | 10 | 90.000 | 100 | 0.75 | 1 | 0.125 | 0.75 | 0.001 "
                               "| 0 | 0 | 0 | 0 |\n"));
    /* an empty region: dashes */
    assert_non_null(strstr(md, "| `demo` | 0 | - | - | - | - | - | - | - | 0 | 0 | 0 | 0 |\n"));
    /* worst inputs: value and encoding of x and output, the exact value */
    assert_non_null(strstr(md, "| `demo` | 0.75 | 1 (`0x3c00`) | 0.84131 (`0x3abb`) "
                               "| 0.841344746 |\n"));
    assert_non_null(strstr(md, "| `demo` | gelu | `x*Phi(x)` | double | a \"quoted\" model |\n"));
    assert_null(strstr(md, "Tanh-form"));
    free(md);
    md = render(write_markdown_f16, r, 2);
    assert_non_null(strstr(md, "## Tanh-form implementations against the tanh formula"));
    assert_non_null(strstr(md, "| 0 | 0 | 0 | 0 | none | -8 |\n"));   /* the tanh row */
    free(md);
}

/* ---- text ---- */

/* The line of the text report that starts with `start` (after spaces). */
static const char *text_line(const char *text, const char *start)
{
    static char line[512];
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        const char *q = p + strspn(p, " ");
        if (strncmp(q, start, strlen(start)) == 0) {
            size_t n = strcspn(q, "\n");
            snprintf(line, sizeof line, "%.*s", (int)n, q);
            return line;
        }
    }
    fail_msg("no line starting with '%s'", start);
    return NULL;
}

static void test_text(void **state)
{
    struct ga_result r = demo(), failed = demo_tanh_failed();
    (void)state;
    char *text = render(write_text_one, &r, 1);
    assert_string_equal(text_line(text, "demo on"),
                        "demo on float16 against gelu (domain range:-4:4, mpfr oracle)");
    assert_string_equal(text_line(text, "models"), "models     a \"quoted\" model");
    assert_string_equal(text_line(text, "inputs"),
                        "inputs     10: correctly rounded 90.000 %, faithful 100 %");
    assert_string_equal(text_line(text, "max ulp"), "max ulp    0.75 at x = 1 (0x3c00): output "
                        "0.84131 (0x3abb), exact 0.841344746");
    assert_string_equal(text_line(text, "ulp "), "ulp        mean 0.125, p50 0, p95 0.5, p99 0.75");
    assert_string_equal(text_line(text, "max rel"), "max rel    0.001 at x = 2 (0x4000): output "
                        "2 (0x4000), exact 2");
    assert_string_equal(text_line(text, "faithful "), "faithful   on (-4, 4)");
    assert_null(strstr(text, "FAILED"));
    /* the region table: core only, its numbers in order */
    char core[512], *save, *tok[16];
    int n = 0;
    snprintf(core, sizeof core, "%s", text_line(text, "core "));
    for (char *t = strtok_r(core, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
        tok[n++] = t;
    assert_int_equal(n, 9);
    const char *want[] = { "core", "10", "90.000", "100", "0.75", "0.125", "0", "0", "0" };
    for (int i = 0; i < 9; i++)
        assert_string_equal(tok[i], want[i]);
    assert_null(strstr(text, "\n  tiny "));
    free(text);
    text = render(write_text_one, &failed, 1);
    assert_string_equal(text_line(text, "FAILED"), "FAILED     killed by signal 11 (crash) on "
                        "inputs 0xc000..0xc002 (1 batch)");
    assert_string_equal(text_line(text, "timed out"), "timed out after 1 s on inputs "
                        "0x4000..0x4000 (1 batch)");
    assert_string_equal(text_line(text, "2 failed"), "2 failed batches, 7 inputs not measured");
    assert_string_equal(text_line(text, "faithful "),
                        "faithful   nowhere around 0: an input +-0 is not faithful; every "
                        "output is 0 below x = -8");
    free(text);
}

/* ---- results from a measurement ---- */

static int read_list(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    memcpy(out, (const ga_bits *)ctx + first, n * sizeof *out);
    return 0;
}

static const char *no_error(void *ctx)
{
    (void)ctx;
    return NULL;
}

/* Outputs computed elsewhere: the correctly rounded results of 20 inputs,
 * one moved by an encoding.  The result is named, counted, and a failure
 * recorded in the measurement comes out as the inputs it names. */
static void test_result_from_measurement(void **state)
{
    enum { N = 20 };
    static ga_bits in[N], out[N];
    struct ga_domain d;
    struct ga_measurement m;
    struct ga_result r;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_MPFR, .threads = 1 };
    ga_bits where;
    (void)state;
    for (size_t i = 0; i < N; i++) {
        struct ga_truth t;
        in[i] = ga_encode(f16, 0.25 + 0.125 * (double)i);   /* 0.25 .. 2.625: core */
        assert_int_equal(ga_truth_mpfr(GA_GELU, f16, in[i], &t), GA_TRUTH_OK);
        out[i] = t.rounded + (i == 13);
    }
    ga_domain_from_source(&d, f16, N, (struct ga_source){ read_list, no_error, in }, "mine.npy");
    memset(&m, 0, sizeof m);
    m.reference = GA_GELU;
    m.outputs = (struct ga_source){ read_list, no_error, out };
    assert_int_equal(ga_sweep_run(f16, &d, &m, 1, &so, &where), GA_SWEEP_OK);
    assert_int_equal(ga_result_from_measurement(&r, &m, &d, GA_ORACLE_MPFR, "mine"), 0);
    assert_string_equal(r.impl, "mine");
    assert_string_equal(r.models, "outputs computed elsewhere");
    assert_string_equal(r.formula, "-");
    assert_int_equal(r.approximates, GA_GELU);
    assert_string_equal(r.domain, "mine.npy");
    assert_ptr_equal(r.format, f16);
    assert_int_equal(r.oracle, GA_ORACLE_MPFR);
    assert_false(r.failed);
    assert_int_equal(r.region[GA_REGION_ALL].count, N);
    assert_int_equal(r.region[GA_REGION_ALL].correctly_rounded, N - 1);
    assert_int_equal(r.region[GA_REGION_CORE].count, N);
    assert_int_equal(r.region[GA_REGION_TINY].count, 0);
    assert_int_equal(r.region[GA_REGION_ALL].max_ulp.x, in[13]);
    assert_int_equal(r.region[GA_REGION_ALL].region, GA_REGION_ALL);
    /* recorded failures: domain indices become their inputs; records whose
     * failing inputs run on (12 then 13) with the same failure merge */
    m.failed = true;
    m.failure_count = 3;
    m.failure_spans = 4;
    m.failures[0] = (struct ga_failure_record){ 0, 3, 12, "killed by signal 11" };
    m.failures[1] = (struct ga_failure_record){ 13, 13, 15, "killed by signal 11" };
    m.failures[2] = (struct ga_failure_record){ 16, 18, 18, "killed by signal 11" };
    m.failed_batches = 4;   /* one span more than kept */
    assert_int_equal(ga_result_from_measurement(&r, &m, &d, GA_ORACLE_MPFR, "mine"), 0);
    assert_true(r.failed);
    assert_int_equal(r.span_count, 2);
    assert_int_equal(r.spans[0].first, in[3]);
    assert_int_equal(r.spans[0].last, in[15]);
    assert_int_equal(r.spans[0].batches, 2);
    assert_int_equal(r.spans[1].first, in[18]);
    assert_int_equal(r.spans[1].last, in[18]);
    assert_int_equal(r.spans[1].batches, 1);
    assert_string_equal(r.spans[1].what, "killed by signal 11");
    assert_int_equal(r.unlisted_spans, 1);
    assert_int_equal(r.failed_batches, 4);
    /* a catalogue implementation names itself */
    m.impl = ga_catalogue_find("erf");
    m.failed = false;
    assert_int_equal(ga_result_from_measurement(&r, &m, &d, GA_ORACLE_FAST, "ignored"), 0);
    assert_string_equal(r.impl, "erf");
    assert_string_equal(r.models, m.impl->models);
    ga_measurement_clear(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_markdown),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_result_from_measurement),
    };
    f16 = ga_format_get(GA_FLOAT16);
    return cmocka_run_group_tests_name("report_writers", tests, NULL, NULL);
}
