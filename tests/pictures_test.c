/* Pictures and HTML pages of a report (src/report/pictures.c, html.c,
 * approx_curves.c, underflow.c): the files a report promises exist, are
 * well-formed, are the same bytes when written twice, reference only files
 * that exist, and escape every text; the figures drawn from the oracle agree
 * with values established apart (double-precision erfc, doc/mathematics.md). */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "impls/impl.h"
#include "report/html.h"
#include "report/picture_set.h"
#include "report/pictures.h"
#include "report/picture_set.h"
#include "report/report_file.h"
#include "report/result.h"
#include "measure/sweep.h"

/* A small float16 sweep: erf (exact form) and tanh (against both
 * references), every third encoding, with profiles. */
#define NRESULTS 3
#define DOMAIN "stride:3"

static const struct ga_format *f16;
static struct ga_domain domain;
static struct ga_measurement m[NRESULTS];
static struct ga_result results[NRESULTS];
static char root[64];

static int setup(void **state)
{
    (void)state;
    char err[256];
    ga_bits undecided;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST };

    f16 = ga_format_get(GA_FLOAT16);
    m[0] = (struct ga_measurement){ .impl = ga_catalogue_find("erf"), .reference = GA_GELU,
                                    .want_profile = true };
    m[1] = (struct ga_measurement){ .impl = ga_catalogue_find("tanh"), .reference = GA_GELU,
                                    .want_profile = true };
    m[2] = (struct ga_measurement){ .impl = ga_catalogue_find("tanh"),
                                    .reference = GA_GELU_TANH, .want_profile = true };
    if (!m[0].impl || !m[1].impl || ga_domain_parse(&domain, DOMAIN, f16, err, sizeof err) != 0)
        return -1;
    if (ga_sweep_run(f16, &domain, m, NRESULTS, &so, &undecided) != GA_SWEEP_OK)
        return -1;
    for (int i = 0; i < NRESULTS; i++)
        if (ga_result_from_measurement(&results[i], &m[i], &domain, so.oracle, NULL) != 0)
            return -1;
    snprintf(root, sizeof root, "/tmp/pictures_test.XXXXXX");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    for (int i = 0; i < NRESULTS; i++)
        ga_measurement_clear(&m[i]);
    ga_domain_free(&domain);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* ---- Helpers ---- */

static char *read_all(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    char *buf = NULL;
    long size;

    if (!in)
        return NULL;
    if (fseek(in, 0, SEEK_END) == 0 && (size = ftell(in)) >= 0 && fseek(in, 0, SEEK_SET) == 0
        && (buf = malloc((size_t)size + 1)) != NULL) {
        *len = fread(buf, 1, (size_t)size, in);
        buf[*len] = '\0';
    }
    fclose(in);
    return buf;
}

static bool is_file(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void fresh_dir(char *out, size_t size, const char *name)
{
    snprintf(out, size, "%s/%s", root, name);
    assert_int_equal(mkdir(out, 0777), 0);
}

/* A reference after '&': a name, "#digits" or "#xhex", then ';'. */
static const char *entity_end(const char *s)
{
    const char *p = s + 1;
    if (*p == '#') {
        p++;
        bool hex = *p == 'x';
        p += hex;
        const char *start = p;
        while ((*p >= '0' && *p <= '9')
               || (hex && ((*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))))
            p++;
        return p > start && *p == ';' ? p + 1 : NULL;
    }
    const char *start = p;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
        p++;
    return p > start && *p == ';' ? p + 1 : NULL;
}

static const char *name_end(const char *p)
{
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')
           || *p == '-' || *p == '_' || *p == ':' || *p == '.')
        p++;
    return p;
}

/* A small XML checker: one root element named `root`, tags balanced and
 * named alike at both ends, attribute values quoted, every '&' a
 * reference, no '<' in text or attribute values.  Returns NULL when
 * well-formed, else what is wrong. */
static const char *xml_problem(const char *s, const char *root_name)
{
    const char *stack[128];
    size_t len[128], depth = 0, roots = 0;
    const char *p = s;

    while (*p) {
        if (*p == '&') {
            if (!(p = entity_end(p)))
                return "'&' that is not a reference";
            continue;
        }
        if (*p != '<') {
            if (depth == 0 && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r')
                return "text outside the root element";
            p++;
            continue;
        }
        if (strncmp(p, "<!--", 4) == 0) {
            if (!(p = strstr(p, "-->")))
                return "unterminated comment";
            p += 3;
            continue;
        }
        if (p[1] == '/') {
            const char *n = p + 2, *e = name_end(n);
            if (depth == 0 || (size_t)(e - n) != len[depth - 1]
                || strncmp(n, stack[depth - 1], len[depth - 1]) != 0)
                return "end tag that does not match the open element";
            depth--;
            p = e;
            while (*p == ' ' || *p == '\n')
                p++;
            if (*p != '>')
                return "junk in an end tag";
            p++;
            continue;
        }
        const char *n = p + 1, *e = name_end(n);
        if (e == n)
            return "'<' that starts no tag";
        if (depth == 0 && (roots++ > 0 || (size_t)(e - n) != strlen(root_name)
                           || strncmp(n, root_name, (size_t)(e - n)) != 0))
            return "not a single root element of the expected name";
        p = e;
        for (;;) {   /* attributes */
            while (*p == ' ' || *p == '\n' || *p == '\t')
                p++;
            if (*p == '>' || (p[0] == '/' && p[1] == '>'))
                break;
            const char *a = p;
            p = name_end(p);
            if (p == a || *p++ != '=' || (*p != '"' && *p != '\''))
                return "malformed attribute";
            char quote = *p++;
            while (*p && *p != quote) {
                if (*p == '<')
                    return "'<' in an attribute value";
                if (*p == '&') {
                    if (!(p = entity_end(p)))
                        return "'&' in an attribute value that is not a reference";
                } else {
                    p++;
                }
            }
            if (*p++ != quote)
                return "unterminated attribute value";
        }
        if (*p == '/') {
            p += 2;
        } else {
            if (depth == 128)
                return "nesting too deep";
            stack[depth] = n;
            len[depth++] = (size_t)(e - n);
            p++;
        }
    }
    if (depth != 0)
        return "unclosed elements at the end";
    return roots == 1 ? NULL : "no root element";
}

/* Names in DIR/plots, sorted. */
static size_t list_plots(const char *dir, char names[][GA_PICTURE_PATH_LEN], size_t max)
{
    char path[4096];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/plots", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL && n < max)
        if (e->d_name[0] != '.')
            snprintf(names[n++], GA_PICTURE_PATH_LEN, "%s", e->d_name);
    closedir(d);
    qsort(names, n, GA_PICTURE_PATH_LEN, (int (*)(const void *, const void *))strcmp);
    return n;
}

/* ---- Tests ---- */

static void test_xml_checker(void **state)
{
    (void)state;
    /* The checker itself, on cases decided by the XML specification. */
    assert_null(xml_problem("<svg a=\"1\"><g><text>a &amp; b &#8722;</text></g>"
                            "<path d=\"M0 0\"/></svg>\n", "svg"));
    assert_non_null(xml_problem("<svg><g></svg>", "svg"));
    assert_non_null(xml_problem("<svg><text>a & b</text></svg>", "svg"));
    assert_non_null(xml_problem("<svg a=\"<\"/>", "svg"));
    assert_non_null(xml_problem("<svg/><svg/>", "svg"));
    assert_non_null(xml_problem("<html/>", "svg"));
    assert_non_null(xml_problem("<svg>", "svg"));
}

static void test_files_written(void **state)
{
    (void)state;
    char dir[128], path[GA_PICTURE_PATH_LEN];
    struct ga_io_error err;
    static const char *const expected[] = {
        "plots/float16-erf-gelu.svg", "plots/float16-tanh-gelu.svg",
        "plots/float16-tanh-gelu_tanh.svg", "plots/float16-erf-distance.svg",
        "plots/float16-tanh-distance.svg", "plots/float16-overview.svg",
        GA_PICTURE_APPROXIMATIONS, GA_PICTURE_APPROXIMATIONS_TANH,
    };

    fresh_dir(dir, sizeof dir, "files");
    assert_int_equal(ga_write_pictures(dir, f16, results, NRESULTS, &err), GA_IO_OK);
    for (size_t k = 0; k < sizeof expected / sizeof expected[0]; k++) {
        if (!is_file(dir, expected[k]))
            fail_msg("%s was not written", expected[k]);
    }
    /* The path functions name the same files; one distance plot per
     * implementation. */
    assert_string_equal(ga_picture_error_path(results, NRESULTS, 2, path),
                        "plots/float16-tanh-gelu_tanh.svg");
    assert_string_equal(ga_picture_distance_path(results, NRESULTS, 1, path),
                        "plots/float16-tanh-distance.svg");
    assert_null(ga_picture_distance_path(results, NRESULTS, 2, path));
    char names[64][GA_PICTURE_PATH_LEN];
    assert_int_equal(list_plots(dir, names, 64), sizeof expected / sizeof expected[0]);

    /* No results: an empty overview and a page of empty tables. */
    char empty[160];
    snprintf(empty, sizeof empty, "%s/empty", root);
    assert_int_equal(mkdir(empty, 0777), 0);
    assert_int_equal(ga_write_pictures(empty, f16, results, 0, &err), GA_IO_OK);
    assert_true(is_file(empty, "plots/float16-overview.svg"));
    assert_int_equal(ga_write_html_page(empty, f16, results, 0, "none", NULL, NULL, NULL, &err),
                     GA_IO_OK);

    /* A file where the directory should be is an error, not a crash. */
    char blocked[160];
    snprintf(blocked, sizeof blocked, "%s/blocked", root);
    assert_int_equal(mkdir(blocked, 0777), 0);
    snprintf(path, sizeof path, "%s/plots", blocked);
    FILE *file = fopen(path, "w");
    assert_non_null(file);
    fclose(file);
    assert_int_equal(ga_write_pictures(blocked, f16, results, NRESULTS, &err), GA_IO_SYSTEM);
}

static void test_well_formed_and_deterministic(void **state)
{
    (void)state;
    char a[128], b[128], names[64][GA_PICTURE_PATH_LEN], path[4096];
    struct ga_io_error err;
    size_t n;

    fresh_dir(a, sizeof a, "first");
    fresh_dir(b, sizeof b, "second");
    assert_int_equal(ga_write_pictures(a, f16, results, NRESULTS, &err), GA_IO_OK);
    assert_int_equal(ga_write_pictures(b, f16, results, NRESULTS, &err), GA_IO_OK);
    n = list_plots(a, names, 64);
    assert_true(n >= 8);
    for (size_t k = 0; k < n; k++) {
        size_t la, lb;
        snprintf(path, sizeof path, "%s/plots/%s", a, names[k]);
        char *x = read_all(path, &la);
        snprintf(path, sizeof path, "%s/plots/%s", b, names[k]);
        char *y = read_all(path, &lb);
        assert_non_null(x);
        assert_non_null(y);
        const char *why = xml_problem(x, "svg");
        if (why)
            fail_msg("%s: %s", names[k], why);
        if (la != lb || memcmp(x, y, la) != 0)
            fail_msg("%s differs between two writes", names[k]);
        /* Axis labels with units, on every error plot. */
        if (strstr(names[k], "-gelu") && !strstr(x, "ulp error (ulps of the exact value)"))
            fail_msg("%s lacks its y axis label", names[k]);
        free(x);
        free(y);
    }
}

/* Every src="..." and href="..." of a page: a file that exists, or "#id"
 * with that id on the page; nothing outside (offline). */
static void check_references(const char *dir, const char *page)
{
    char path[4096], ref[1024], id[1100];
    size_t len;
    snprintf(path, sizeof path, "%s/%s", dir, page);
    char *text = read_all(path, &len);
    assert_non_null(text);
    assert_null(strstr(text, "<script"));
    assert_null(strstr(text, "http:"));
    assert_null(strstr(text, "https:"));
    int refs = 0;
    for (const char *p = text; (p = strstr(p, "=\"")) != NULL; p += 2) {
        bool src = p >= text + 3 && strncmp(p - 3, "src", 3) == 0;
        bool href = p >= text + 4 && strncmp(p - 4, "href", 4) == 0;
        if (!src && !href)
            continue;
        const char *end = strchr(p + 2, '"');
        assert_non_null(end);
        assert_true((size_t)(end - p - 2) < sizeof ref);
        snprintf(ref, sizeof ref, "%.*s", (int)(end - p - 2), p + 2);
        refs++;
        if (ref[0] == '#') {
            snprintf(id, sizeof id, "id=\"%s\"", ref + 1);
            if (!strstr(text, id))
                fail_msg("%s: link to missing id %s", page, ref);
            continue;
        }
        char *hash = strchr(ref, '#');
        if (hash)
            *hash = '\0';
        if (!is_file(dir, ref))
            fail_msg("%s: references %s, which does not exist", page, ref);
    }
    assert_true(refs > 10);
    /* HTML is not XML (<meta>, <img> are void elements), but every '&'
     * must still start a character reference. */
    for (const char *p = strchr(text, '&'); p; p = strchr(p + 1, '&'))
        if (!entity_end(p))
            fail_msg("%s: unescaped '&' at \"%.20s\"", page, p);
    free(text);
}

static int write_md(FILE *out, const void *ctx)
{
    (void)ctx;
    return ga_write_markdown(out, f16, results, NRESULTS, "pictures_test");
}

static int write_csv(FILE *out, const void *ctx)
{
    (void)ctx;
    return ga_write_csv(out, results, NRESULTS);
}

static int write_json(FILE *out, const void *ctx)
{
    (void)ctx;
    return ga_write_json(out, results, NRESULTS);
}

static int write_readme(FILE *out, const void *ctx)
{
    (void)ctx;
    return fputs("stands for the repository's reports/README.md\n", out) < 0 ? -1 : 0;
}

static void test_html_references_exist(void **state)
{
    (void)state;
    char dir[128];
    struct ga_io_error err;
    const struct ga_format *formats[] = { f16 };

    fresh_dir(dir, sizeof dir, "html");
    assert_int_equal(ga_write_pictures(dir, f16, results, NRESULTS, &err), GA_IO_OK);
    static const struct { const char *name; ga_report_writer writer; } files[] = {
        { "float16.md", write_md }, { "float16.csv", write_csv },
        { "float16.json", write_json }, { "README.md", write_readme },
    };
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++)
        assert_int_equal(ga_write_report_file(dir, files[k].name, true, files[k].writer, NULL,
                                              &err), GA_IO_OK);
    assert_int_equal(ga_write_html_page(dir, f16, results, NRESULTS, "gelu-acc test", NULL, NULL,
                                        NULL, &err),
                     GA_IO_OK);
    assert_int_equal(ga_write_html_index(dir, formats, 1, NULL, &err), GA_IO_OK);
    check_references(dir, "float16.html");
    check_references(dir, "index.html");

    /* The page shows every plot written for it. */
    char names[64][GA_PICTURE_PATH_LEN], path[4096], want[300];
    size_t n = list_plots(dir, names, 64), len;
    snprintf(path, sizeof path, "%s/float16.html", dir);
    char *page = read_all(path, &len);
    assert_non_null(page);
    for (size_t k = 0; k < n; k++) {
        snprintf(want, sizeof want, "<img src=\"plots/%s\"", names[k]);
        if (!strstr(page, want))
            fail_msg("float16.html does not show plots/%s", names[k]);
    }
    /* Failing figures are marked: erf flushes outputs to 0 in float16. */
    assert_true(results[0].region[GA_REGION_ALL].flushed_to_zero > 0);
    assert_non_null(strstr(page, "class=\"num bad\""));
    free(page);
}

static void test_text_is_escaped(void **state)
{
    (void)state;
    char dir[128], path[4096];
    struct ga_io_error err;
    struct ga_result odd[NRESULTS];
    size_t len;
    static const char name[] = "a<b>&\"c'";

    memcpy(odd, results, sizeof odd);
    for (int i = 0; i < NRESULTS; i++)
        odd[i].impl = i == 0 ? name : "odd</td>";
    odd[0].formula = "x < y && y > 0";
    odd[0].models = "<script>alert(1)</script>";
    fresh_dir(dir, sizeof dir, "escape");
    assert_int_equal(ga_write_pictures(dir, f16, odd, NRESULTS, &err), GA_IO_OK);
    assert_int_equal(ga_write_html_page(dir, f16, odd, NRESULTS, "how <&>", NULL, NULL, NULL,
                                        &err),
                     GA_IO_OK);
    snprintf(path, sizeof path, "%s/float16.html", dir);
    char *page = read_all(path, &len);
    assert_non_null(page);
    assert_null(strstr(page, name));
    assert_null(strstr(page, "<script"));
    assert_null(strstr(page, "odd</td>"));
    assert_non_null(strstr(page, "a&lt;b&gt;&amp;&quot;c&#39;"));
    assert_non_null(strstr(page, "x &lt; y &amp;&amp; y &gt; 0"));
    assert_non_null(strstr(page, "how &lt;&amp;&gt;"));
    free(page);

    /* File names keep only plain characters; the SVG text is escaped. */
    char key[GA_PICTURE_PATH_LEN];
    assert_string_equal(ga_picture_key(odd, NRESULTS, 0, key), "a_b___c_");
    snprintf(path, sizeof path, "%s/plots/float16-a_b___c_-gelu.svg", dir);
    char *svg = read_all(path, &len);
    assert_non_null(svg);
    assert_null(xml_problem(svg, "svg"));
    assert_non_null(strstr(svg, "a&lt;b&gt;&amp;&quot;c&#39;"));
    free(svg);
}

static void test_keys_are_unique(void **state)
{
    (void)state;
    struct ga_result r[4];
    char k[4][GA_PICTURE_PATH_LEN];

    memcpy(r, results, sizeof results);
    r[3] = results[0];
    r[0].impl = "a/b";
    r[1].impl = r[2].impl = "a?b";    /* one implementation, two results */
    r[3].impl = "a b";
    for (size_t i = 0; i < 4; i++)
        ga_picture_key(r, 4, i, k[i]);
    assert_string_equal(k[0], "a_b");
    assert_string_equal(k[1], k[2]);
    assert_string_not_equal(k[0], k[1]);
    assert_string_not_equal(k[1], k[3]);
    assert_string_not_equal(k[0], k[3]);
}

/* gelu and gelu_tanh in double, far in the left tail (relative error
 * ~1e-15, enough away from a rounding boundary). */
static double gelu_double(double x)
{
    return 0.5 * x * erfc(-x / sqrt(2.0));
}

static double gelu_tanh_double(double x)
{
    double u = sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
    return x / (1 + exp(-2 * u));    /* x * sigma(2u): no cancellation */
}

static void test_underflow_threshold(void **state)
{
    (void)state;
    static const enum ga_format_id ids[] = { GA_FLOAT16, GA_BFLOAT16, GA_FLOAT32 };
    for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
        const struct ga_format *f = ga_format_get(ids[k]);
        /* Results below half the smallest subnormal, 2^(emin - p), round to
         * zero (a tie goes to the even zero). */
        double half_min = ldexp(1.0, f->emin - f->precision);
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            double (*g)(double) = fn == GA_GELU ? gelu_double : gelu_tanh_double;
            ga_bits t;
            assert_int_equal(ga_underflow_threshold((enum ga_function)fn, f, &t), 0);
            double x = ga_decode(f, t), above = ga_decode(f, ga_next_up(f, t));
            assert_true(x < -3);
            if (!(fabs(g(x)) <= half_min && fabs(g(above)) > half_min))
                fail_msg("%s %s: threshold %.9g: |f| = %g there and %g above, half the "
                         "smallest subnormal %g", f->name, fn == GA_GELU ? "gelu" : "gelu_tanh",
                         x, fabs(g(x)), fabs(g(above)), half_min);
        }
    }
}

static void test_approximation_curves(void **state)
{
    (void)state;
    enum { N = 1601 };
    static double x[N], dt[N], dq[N];
    size_t it = 0, iq = 0;

    assert_int_equal(ga_approximation_curves(-8, 8, N, x, dt, dq), 0);
    for (size_t i = 0; i < N; i++) {
        if (fabs(dt[i]) > fabs(dt[it]))
            it = i;
        if (fabs(dq[i]) > fabs(dq[iq]))
            iq = i;
        /* gelu(x) - gelu(-x) = x holds for all three functions, so the
         * differences are even. */
        if (x[N - 1 - i] == -x[i]) {
            assert_true(fabs(dt[i] - dt[N - 1 - i]) < 1e-12);
            assert_true(fabs(dq[i] - dq[N - 1 - i]) < 1e-12);
        }
    }
    /* doc/mathematics.md: max |gelu_tanh - gelu| ~ 4.73e-4 at |x| ~ 2.70,
     * max |quick - gelu| ~ 2.03e-2 at |x| ~ 2.27; the grid step is 0.01. */
    assert_true(fabs(dt[it]) > 4.72e-4 && fabs(dt[it]) < 4.74e-4);
    assert_true(fabs(fabs(x[it]) - 2.70) < 0.02);
    assert_true(fabs(dq[iq]) > 2.02e-2 && fabs(dq[iq]) < 2.04e-2);
    assert_true(fabs(fabs(x[iq]) - 2.27) < 0.02);
    assert_int_equal(ga_approximation_curves(1, 1, 2, x, dt, dq), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xml_checker),
        cmocka_unit_test(test_files_written),
        cmocka_unit_test(test_well_formed_and_deterministic),
        cmocka_unit_test(test_html_references_exist),
        cmocka_unit_test(test_text_is_escaped),
        cmocka_unit_test(test_keys_are_unique),
        cmocka_unit_test(test_underflow_threshold),
        cmocka_unit_test(test_approximation_curves),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
