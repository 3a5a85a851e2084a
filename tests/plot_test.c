/* SVG plots: number formatting, escaping, ticks, coordinate mapping, bands,
 * clipping, determinism, file size, well-formed output.
 *
 * Independent references: decimal literals and strtod for tick values, a
 * small XML well-formedness checker below, and a reader of the path data
 * that walks the drawn coordinates.  Random tests draw from test_random.h
 * (a fixed seed, printed, overridable by GELU_ACC_SEED). */
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plot/plot.h"
#include "plot/svg.h"
#include "test_random.h"

/* The size a 65536-point scatter must stay under (the report's budget). */
#define SCATTER_BUDGET 300000

/* ---- Helpers: writing to memory, well-formedness, path reading ---- */

struct buffer {
    char *data;
    size_t size;
};

static int write_to_buffer(const struct ga_plot *p, struct buffer *b)
{
    FILE *out = open_memstream(&b->data, &b->size);
    assert_non_null(out);
    int status = ga_plot_write_svg(p, out);
    assert_int_equal(fclose(out), 0);
    return status;
}

static int is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}

static int is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

/* An entity reference at s ("&amp;", "&#8722;", "&#x41;"); returns its
 * length or 0 when it is not one XML knows without a DTD. */
static size_t entity_length(const char *s)
{
    static const char *const named[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&apos;" };
    for (size_t i = 0; i < 5; i++)
        if (strncmp(s, named[i], strlen(named[i])) == 0)
            return strlen(named[i]);
    if (s[1] != '#')
        return 0;
    size_t n = 2;
    int hex = s[2] == 'x';
    n += hex;
    size_t digits = 0;
    while ((hex ? strchr("0123456789abcdefABCDEF", s[n]) : strchr("0123456789", s[n]))
           && s[n] != '\0') {
        n++;
        digits++;
    }
    return digits > 0 && s[n] == ';' ? n + 1 : 0;
}

/* Character data up to the next '<' or the quote: entities must be valid,
 * and '<' may not appear inside attribute values. */
static const char *skip_text(const char *s, char stop)
{
    while (*s && *s != stop && *s != '<') {
        if (*s == '&') {
            size_t n = entity_length(s);
            if (n == 0)
                return NULL;
            s += n;
        } else {
            s++;
        }
    }
    return s;
}

/* A small XML 1.0 well-formedness check: one root element, balanced and
 * properly nested tags, quoted and unique attributes, valid entities. */
static int well_formed(const char *doc)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    const char *s = doc;
    while (*s) {
        if (*s != '<') {
            const char *start = s;
            s = skip_text(s, '\0');
            if (s == NULL)
                return 0;
            if (depth == 0)     /* only white space outside the root */
                for (const char *t = start; t < s; t++)
                    if (!strchr(" \t\r\n", *t))
                        return 0;
            continue;
        }
        if (strncmp(s, "<!--", 4) == 0) {
            s = strstr(s, "-->");
            if (s == NULL)
                return 0;
            s += 3;
            continue;
        }
        if (s[1] == '/') {
            s += 2;
            const char *name = s;
            while (is_name_char(*s))
                s++;
            if (depth == 0 || (size_t)(s - name) != strlen(stack[depth - 1])
                || strncmp(name, stack[depth - 1], (size_t)(s - name)) != 0)
                return 0;
            depth--;
            while (*s == ' ' || *s == '\n')
                s++;
            if (*s++ != '>')
                return 0;
            continue;
        }
        s++;
        if (!is_name_start(*s))
            return 0;
        const char *name = s;
        while (is_name_char(*s))
            s++;
        size_t name_len = (size_t)(s - name);
        char attrs[32][32];
        int nattrs = 0;
        for (;;) {
            int space = 0;
            while (*s == ' ' || *s == '\n' || *s == '\t') {
                s++;
                space = 1;
            }
            if (*s == '>' || (s[0] == '/' && s[1] == '>'))
                break;
            if (!space || !is_name_start(*s))
                return 0;
            const char *an = s;
            while (is_name_char(*s))
                s++;
            if (nattrs == 32 || (size_t)(s - an) >= 32)
                return 0;
            memcpy(attrs[nattrs], an, (size_t)(s - an));
            attrs[nattrs][s - an] = '\0';
            for (int i = 0; i < nattrs; i++)
                if (strcmp(attrs[i], attrs[nattrs]) == 0)
                    return 0;
            nattrs++;
            if (*s++ != '=')
                return 0;
            char quote = *s++;
            if (quote != '"' && quote != '\'')
                return 0;
            s = skip_text(s, quote);
            if (s == NULL || *s != quote)
                return 0;
            s++;
        }
        if (depth == 0 && roots++ > 0)
            return 0;
        if (*s == '/') {
            s += 2;
            continue;
        }
        s++;
        if (depth == 64 || name_len >= 32)
            return 0;
        memcpy(stack[depth], name, name_len);
        stack[depth][name_len] = '\0';
        depth++;
    }
    return depth == 0 && roots == 1;
}

/* Walks SVG path data made of M, m, h, v, l commands and calls back with
 * each absolute vertex; returns the number of vertices or -1 on syntax the
 * plots do not write. */
struct vertices {
    double (*at)[2];
    size_t n, cap;
};

static int read_path(const char *d, struct vertices *v)
{
    double x = 0, y = 0;
    v->n = 0;
    while (*d && *d != '"') {
        char cmd = *d++;
        double a = 0, b = 0;
        char *end;
        a = strtod(d, &end);
        if (end == d)
            return -1;
        d = end;
        if (cmd == 'M' || cmd == 'm' || cmd == 'l') {
            if (*d == ' ')
                d++;
            b = strtod(d, &end);
            if (end == d)
                return -1;
            d = end;
        }
        switch (cmd) {
        case 'M': x = a; y = b; break;
        case 'm': case 'l': x += a; y += b; break;
        case 'h': x += a; break;
        case 'v': y += a; break;
        default: return -1;
        }
        if (v->n < v->cap) {
            v->at[v->n][0] = x;
            v->at[v->n][1] = y;
        }
        v->n++;
    }
    return (int)v->n;
}

/* The d attribute of the first element with the given attribute text. */
static const char *path_after(const char *svg, const char *marker)
{
    const char *p = strstr(svg, marker);
    if (p == NULL)
        return NULL;
    p = strstr(p, " d=\"");
    return p ? p + 4 : NULL;
}

static int count_occurrences(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* ---- svg.c: numbers and escaping ---- */

static void test_format_tenths(void **state)
{
    (void)state;
    char buf[24];
    const struct { long v; const char *text; } cases[] = {
        { 0, "0" }, { 1234, "123.4" }, { 10, "1" }, { -5, "-0.5" }, { -10, "-1" },
        { 7, "0.7" }, { 1000000000, "100000000" }, { -1234567, "-123456.7" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ga_svg_format_tenths(buf, cases[i].v), (int)strlen(cases[i].text));
        assert_string_equal(buf, cases[i].text);
    }
    /* Rounding half away from zero, and no "-0". */
    assert_int_equal(ga_svg_tenths(0.25), 3);
    assert_int_equal(ga_svg_tenths(-0.25), -3);
    assert_int_equal(ga_svg_tenths(-0.01), 0);
    assert_int_equal(ga_svg_tenths(NAN), 0);
    assert_int_equal(ga_svg_tenths(1e300), 1000000000);
}

static void test_format_decimal(void **state)
{
    (void)state;
    char buf[48];
    const struct { long long digits; int e, lo, hi; const char *text; } cases[] = {
        { 2, -1, -4, 5, "0.2" },
        { 12, -1, -4, 5, "1.2" },
        { 150000, 0, -4, 5, "150000" },
        { 1, 6, -4, 5, "1e6" },
        { 15, -8, -4, 5, "1.5e&#8722;7" },
        { -25, -5, -4, 5, "&#8722;0.00025" },
        { 1, -3, -2, 3, "1e&#8722;3" },
        { 1, -2, -2, 3, "0.01" },
        { 1000, 0, -2, 3, "1000" },
        { 10, 3, -2, 3, "1e4" },
        { 0, 7, -2, 3, "0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ga_svg_format_decimal(buf, cases[i].digits, cases[i].e, cases[i].lo, cases[i].hi, 1);
        assert_string_equal(buf, cases[i].text);
    }
    ga_svg_format_decimal(buf, -15, -8, -4, 5, 0);
    assert_string_equal(buf, "-1.5e-7");
}

static void test_escape(void **state)
{
    (void)state;
    char buf[128];
    ga_svg_escape(buf, sizeof buf, "a<b & c>\"d\" 'e'");
    assert_string_equal(buf, "a&lt;b &amp; c&gt;&quot;d&quot; &#39;e&#39;");
    /* UTF-8 passes through; invalid bytes and forbidden controls do not. */
    ga_svg_escape(buf, sizeof buf, "\xe2\x89\xa4 1e6 \xc3\x97");
    assert_string_equal(buf, "\xe2\x89\xa4 1e6 \xc3\x97");
    ga_svg_escape(buf, sizeof buf, "x\xff\xc3y\x01z\xed\xa0\x80");
    assert_string_equal(buf, "x??y?z???");
    /* Like snprintf: the full length is returned, the text is cut. */
    assert_int_equal(ga_svg_escape(buf, 4, "<<"), 8);
    assert_string_equal(buf, "&lt");
}

static void test_put_directives(void **state)
{
    (void)state;
    char *data = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&data, &size);
    struct ga_svg w;
    ga_svg_init(&w, out);
    ga_svg_put(&w, "<a x=\"%p\" n=\"%d\" t=\"%t\">%x%s%%</a>", 12.345, -7, -15L, "&", "<b/>");
    assert_int_equal(ga_svg_status(&w), 0);
    fclose(out);
    assert_string_equal(data, "<a x=\"12.3\" n=\"-7\" t=\"-1.5\">&amp;<b/>%</a>");
    free(data);
}

/* ---- Ticks ---- */

/* The label read back as a number ("&#8722;" is a minus sign). */
static double label_value(const char *label)
{
    char plain[64];
    size_t n = 0;
    for (const char *s = label; *s && n < sizeof plain - 1;) {
        if (strncmp(s, "&#8722;", 7) == 0) {
            plain[n++] = '-';
            s += 7;
        } else {
            plain[n++] = *s++;
        }
    }
    plain[n] = '\0';
    char *end;
    double v = strtod(plain, &end);
    assert_true(*end == '\0');
    return v;
}

static void test_ticks_linear_unit(void **state)
{
    (void)state;
    struct ga_ticks t;
    const double want[] = { 0.0, 0.2, 0.4, 0.6, 0.8, 1.0 };
    const char *labels[] = { "0", "0.2", "0.4", "0.6", "0.8", "1" };
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 0, 1, 0, 8, &t), 0);
    assert_int_equal(t.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_true(t.value[i] == want[i]);
        assert_string_equal(t.label[i], labels[i]);
    }
    /* [-12, 12] in steps of 2 when 13 fit, of 5 when they do not. */
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, -12, 12, 0, 13, &t), 0);
    assert_int_equal(t.n, 13);
    assert_true(t.value[0] == -12 && t.value[12] == 12 && t.value[7] == 2);
    assert_string_equal(t.label[0], "&#8722;12");
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, -12, 12, 0, 12, &t), 0);
    assert_int_equal(t.n, 5);
    assert_true(t.value[0] == -10 && t.value[4] == 10);
}

static void test_ticks_log_decades(void **state)
{
    (void)state;
    struct ga_ticks t;
    const double want[] = { 1e-3, 1e-2, 1e-1, 1, 10, 100 };
    const char *labels[] = { "1e&#8722;3", "0.01", "0.1", "1", "10", "100" };
    assert_int_equal(ga_plot_ticks(GA_SCALE_LOG10, 1e-3, 1e2, 0, 10, &t), 0);
    assert_int_equal(t.n, 6);
    for (int i = 0; i < 6; i++) {
        assert_true(t.value[i] == want[i]);
        assert_string_equal(t.label[i], labels[i]);
    }
    /* 61 decades thinned to at most 8 ticks, every one a power of ten on a
     * common stride. */
    assert_int_equal(ga_plot_ticks(GA_SCALE_LOG10, 1e-30, 1e30, 0, 8, &t), 0);
    assert_true(t.n >= 2 && t.n <= 8);
    int stride = (int)lround(log10(t.value[1] / t.value[0]));
    for (int i = 0; i < t.n; i++) {
        int e = (int)lround(log10(t.value[i]));
        assert_true(t.value[i] == label_value(t.label[i]));
        assert_true(e % stride == 0);
        if (i > 0)
            assert_int_equal((int)lround(log10(t.value[i] / t.value[i - 1])), stride);
    }
    /* Less than a decade: still at least two ticks. */
    assert_int_equal(ga_plot_ticks(GA_SCALE_LOG10, 2, 8, 0, 8, &t), 0);
    assert_true(t.n >= 2);
    for (int i = 0; i < t.n; i++)
        assert_true(t.value[i] >= 2 && t.value[i] <= 8);
}

static void test_ticks_symlog(void **state)
{
    (void)state;
    struct ga_ticks t;
    const double want[] = { -1e4, -1e3, -100, -10, -1, 0, 1, 10, 100, 1e3, 1e4 };
    assert_int_equal(ga_plot_ticks(GA_SCALE_SYMLOG, -65504, 65504, 1, 20, &t), 0);
    assert_int_equal(t.n, 11);
    for (int i = 0; i < 11; i++) {
        assert_true(t.value[i] == want[i]);
        assert_true(t.value[i] == label_value(t.label[i]));
    }
    /* bfloat16's range, +-3.4e38: thinned, symmetric, 0 in the middle. */
    assert_int_equal(ga_plot_ticks(GA_SCALE_SYMLOG, -3.4e38, 3.4e38, 1, 12, &t), 0);
    assert_true(t.n >= 3 && t.n <= 12 && t.n % 2 == 1);
    assert_true(t.value[t.n / 2] == 0);
    for (int i = 0; i < t.n; i++)
        assert_true(t.value[i] == -t.value[t.n - 1 - i]);
}

static void test_ticks_invalid(void **state)
{
    (void)state;
    struct ga_ticks t;
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 1, 1, 0, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 2, 1, 0, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 0, NAN, 0, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 0, INFINITY, 0, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_LOG10, 0, 1, 0, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_SYMLOG, -1, 1, -1, 8, &t), -1);
    assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, 0, 1, 0, 1, &t), -1);
}

/* Random linear ranges: ticks inside the range, evenly spaced by 1, 2 or
 * 5 x 10^k, labels that read back as the values, no more than asked. */
static void test_ticks_linear_random(void **state)
{
    (void)state;
    struct test_rng s = test_rng(0);
    for (int i = 0; i < 20000; i++) {
        double scale = pow(10, floor(test_rng_uniform(&s) * 16) - 8);
        double a = test_rng_between(&s, -scale, scale), b = test_rng_between(&s, -scale, scale);
        double lo = fmin(a, b), hi = fmax(a, b);
        int max_count = 7 + (int)(test_rng_uniform(&s) * 10);
        struct ga_ticks t;
        if (!(lo < hi))
            continue;
        assert_int_equal(ga_plot_ticks(GA_SCALE_LINEAR, lo, hi, 0, max_count, &t), 0);
        assert_true(t.n >= 2 && t.n <= max_count);
        double step = t.value[1] - t.value[0];
        double mant = step / pow(10, floor(log10(step) + 1e-9));
        assert_true(fabs(mant - 1) < 1e-6 || fabs(mant - 2) < 1e-6 || fabs(mant - 5) < 1e-6);
        for (int k = 0; k < t.n; k++) {
            double slack = 1e-9 * step;
            assert_true(t.value[k] >= lo - slack && t.value[k] <= hi + slack);
            assert_true(t.value[k] == label_value(t.label[k]));
            if (k > 0)
                assert_true(fabs(t.value[k] - t.value[k - 1] - step) <= 1e-9 * step);
        }
    }
}

/* ---- Layout and mapping ---- */

static void test_mapping_edges(void **state)
{
    (void)state;
    const enum ga_scale scales[] = { GA_SCALE_LINEAR, GA_SCALE_LOG10, GA_SCALE_SYMLOG };
    const double lo[] = { -12, 1e-3, -65504 }, hi[] = { 12, 1e6, 65504 };
    for (int i = 0; i < 3; i++) {
        struct ga_plot p = {
            .title = "t",
            .x = { .scale = scales[i], .min = lo[i], .max = hi[i] },
            .y = { .scale = scales[i], .min = lo[i], .max = hi[i] },
        };
        struct ga_plot_frame f;
        assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
        assert_true(f.left < f.right && f.top < f.bottom);
        assert_true(f.left >= 0 && f.right <= 800 && f.top >= 0 && f.bottom <= 450);
        /* The top of the range is the top edge, exactly; and so on. */
        assert_true(ga_plot_frame_y(&f, hi[i]) == f.top);
        assert_true(ga_plot_frame_y(&f, lo[i]) == f.bottom);
        assert_true(ga_plot_frame_x(&f, lo[i]) == f.left);
        assert_true(ga_plot_frame_x(&f, hi[i]) == f.right);
        /* Monotone: larger values further right and further up. */
        double prev_x = -INFINITY, prev_y = INFINITY;
        for (int k = 0; k <= 100; k++) {
            double v = scales[i] == GA_SCALE_LOG10 ? lo[i] * pow(hi[i] / lo[i], k / 100.0)
                                                   : lo[i] + (hi[i] - lo[i]) * k / 100;
            double px = ga_plot_frame_x(&f, v), py = ga_plot_frame_y(&f, v);
            assert_true(px >= prev_x && py <= prev_y);
            prev_x = px;
            prev_y = py;
        }
    }
    /* Midpoints: arithmetic (linear), geometric (log10), 0 (symmetric symlog). */
    struct ga_plot p = { .x = { .min = -12, .max = 12 },
                         .y = { .scale = GA_SCALE_LOG10, .min = 1e-2, .max = 1e2 } };
    struct ga_plot_frame f;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    assert_true(fabs(ga_plot_frame_x(&f, 0) - (f.left + f.right) / 2) < 1e-9);
    assert_true(fabs(ga_plot_frame_y(&f, 1) - (f.top + f.bottom) / 2) < 1e-9);
    p.x = (struct ga_axis){ .scale = GA_SCALE_SYMLOG, .min = -65504, .max = 65504 };
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    assert_true(fabs(ga_plot_frame_x(&f, 0) - (f.left + f.right) / 2) < 1e-9);
    assert_true(fabs(ga_plot_frame_x(&f, -3) + ga_plot_frame_x(&f, 3) - f.left - f.right) < 1e-9);
}

static void test_automatic_ranges(void **state)
{
    (void)state;
    const double x[] = { -3.2, 0.5, 7.9 }, y[] = { 0.013, 0, 420 };
    struct ga_series s = { .kind = GA_SERIES_POINTS, .x = x, .y = y, .n = 3 };
    struct ga_plot p = { .series = &s, .nseries = 1,
                         .y = { .scale = GA_SCALE_LOG10, .low_band = "0" } };
    struct ga_plot_frame f;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    /* Linear: the data inside, edges on ticks; log10: whole decades. */
    assert_true(f.x.min <= -3.2 && f.x.max >= 7.9);
    assert_true(f.x.min > -10 && f.x.max <= 10);
    assert_true(f.y.min == 1e-2 && f.y.max == 1e3);
    /* Empty plots get a default range. */
    struct ga_plot empty = { 0 };
    assert_int_equal(ga_plot_layout(&empty, &f), GA_PLOT_OK);
    assert_true(f.x.min == 0 && f.x.max == 1 && f.y.min == 0 && f.y.max == 1);
}

static void test_bands(void **state)
{
    (void)state;
    struct ga_plot p = {
        .x = { .min = -12, .max = 12 },
        .y = { .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
               .low_band = "0", .high_band = "NaN/inf/>1e6" },
    };
    struct ga_plot_frame f;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    assert_true(f.has_low_band && f.has_high_band);
    assert_true(f.low_band_y > f.bottom && f.high_band_y < f.top);
    assert_true(ga_plot_frame_y(&f, 0) == f.low_band_y);
    assert_true(ga_plot_frame_y(&f, -0.0) == f.low_band_y);
    assert_true(ga_plot_frame_y(&f, 1e-9) == f.low_band_y);
    assert_true(ga_plot_frame_y(&f, INFINITY) == f.high_band_y);
    assert_true(ga_plot_frame_y(&f, NAN) == f.high_band_y);
    assert_true(ga_plot_frame_y(&f, 1e30) == f.high_band_y);
    assert_true(ga_plot_frame_y(&f, 1e6) == f.top);
    /* Without bands, 0 and inf cannot be placed on a log axis. */
    p.y.low_band = p.y.high_band = NULL;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    assert_true(isnan(ga_plot_frame_y(&f, 0)) && isnan(ga_plot_frame_y(&f, INFINITY)));
}

/* The drawn scatter puts 0 and inf points into their bands. */
static void test_bands_in_svg(void **state)
{
    (void)state;
    const double x[] = { -5, 5, 0 }, y[] = { 0, INFINITY, 1 };
    const char *where[] = { "low", "high", "plot" };
    for (int i = 0; i < 3; i++) {
        struct ga_series s = { .kind = GA_SERIES_POINTS, .x = &x[i], .y = &y[i], .n = 1 };
        struct ga_plot p = {
            .x = { .min = -12, .max = 12 },
            .y = { .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
                   .low_band = "0", .high_band = "NaN/inf/>1e6" },
            .series = &s, .nseries = 1,
        };
        struct ga_plot_frame f;
        struct buffer b;
        assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
        assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
        double at[4][2];
        struct vertices v = { at, 0, 4 };
        const char *d = path_after(b.data, "stroke-linecap=\"square\"");
        assert_non_null(d);
        assert_int_equal(read_path(d, &v), 2);     /* M x y h0 */
        double want = i == 0 ? f.low_band_y : i == 1 ? f.high_band_y : ga_plot_frame_y(&f, 1);
        print_message("# %s band: drawn at y %g, band at %g\n", where[i], at[0][1], want);
        assert_true(fabs(at[0][1] - want) <= 1.0);  /* within the 2 px cell */
        assert_true(fabs(at[0][0] - ga_plot_frame_x(&f, x[i])) <= 1.0);
        free(b.data);
    }
}

/* ---- Output properties ---- */

static struct ga_plot sample_plot(struct ga_series *s, struct ga_marker *m)
{
    static double x[200], y[200];
    for (int i = 0; i < 200; i++) {
        x[i] = -10 + 0.1 * i;
        y[i] = i % 50 == 0 ? 0 : i % 70 == 0 ? INFINITY : exp(0.1 * i) * 1e-3;
    }
    s[0] = (struct ga_series){ .kind = GA_SERIES_POINTS, .label = "points <a&b>", .x = x,
                               .y = y, .n = 200 };
    s[1] = (struct ga_series){ .kind = GA_SERIES_LINE, .label = "line", .x = x, .y = y,
                               .n = 200, .dash = GA_DASH_DASHED };
    s[2] = (struct ga_series){ .kind = GA_SERIES_STEP, .label = "step", .x = x, .y = y,
                               .n = 200, .color = 4 };
    m[0] = (struct ga_marker){ .axis = GA_MARK_X, .value = -5.5, .label = "tail \"starts\"" };
    m[1] = (struct ga_marker){ .axis = GA_MARK_Y, .value = 0.5, .label = "0.5 ulp" };
    return (struct ga_plot){
        .title = "Title with <tags> & \"quotes\" 'here'",
        .subtitle = "float16 \xe2\x89\xa4 1e6",
        .x = { .label = "input x", .min = -12, .max = 12 },
        .y = { .label = "error (ulp)", .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
               .low_band = "0", .high_band = "NaN/inf/\xe2\x89\xa5" "1e6" },
        .series = s, .nseries = 3, .markers = m, .nmarkers = 2,
    };
}

static void test_deterministic(void **state)
{
    (void)state;
    struct ga_series s[3];
    struct ga_marker m[2];
    struct ga_plot p = sample_plot(s, m);
    struct buffer a, b;
    assert_int_equal(write_to_buffer(&p, &a), GA_PLOT_OK);
    assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    /* A decimal-comma locale changes nothing, where one is installed. */
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") != NULL) {
        struct buffer c;
        assert_int_equal(write_to_buffer(&p, &c), GA_PLOT_OK);
        setlocale(LC_NUMERIC, "C");
        assert_int_equal(a.size, c.size);
        assert_memory_equal(a.data, c.data, a.size);
        free(c.data);
    } else {
        print_message("# no de_DE.UTF-8 locale: locale independence not exercised\n");
    }
    free(a.data);
    free(b.data);
}

static void test_escaped_and_well_formed(void **state)
{
    (void)state;
    struct ga_series s[3];
    struct ga_marker m[2];
    struct ga_plot p = sample_plot(s, m);
    struct buffer b;
    assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
    assert_true(well_formed(b.data));
    assert_non_null(strstr(b.data, "Title with &lt;tags&gt; &amp; &quot;quotes&quot; &#39;here&#39;"));
    assert_non_null(strstr(b.data, "points &lt;a&amp;b&gt;"));
    assert_non_null(strstr(b.data, "tail &quot;starts&quot;"));
    assert_null(strstr(b.data, "<tags>"));
    /* Standalone and embeddable: namespace, size, viewBox; nothing external. */
    assert_true(strncmp(b.data, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"800\" "
                                "height=\"450\" viewBox=\"0 0 800 450\"", 75) == 0);
    assert_null(strstr(b.data, "<script"));
    assert_null(strstr(b.data, "<style"));
    assert_null(strstr(b.data, "href"));
    assert_null(strstr(b.data, " id="));
    free(b.data);
    /* The checker itself rejects broken documents. */
    assert_false(well_formed("<svg><g></svg></g>"));
    assert_false(well_formed("<svg a=\"1\" a=\"2\"/>"));
    assert_false(well_formed("<svg>&nbsp;</svg>"));
    assert_false(well_formed("<svg><g></svg>"));
    assert_true(well_formed("<svg><g a='&#8722;'>x &amp; y</g></svg>\n"));
}

static void test_empty_plots_well_formed(void **state)
{
    (void)state;
    struct ga_series empty[4] = {
        { .kind = GA_SERIES_POINTS, .label = "none" },
        { .kind = GA_SERIES_LINE, .label = "none either" },
        { .kind = GA_SERIES_STEP },
        { .kind = GA_SERIES_LINE, .x = (const double[]){ NAN }, .y = (const double[]){ 1 },
          .n = 1 },
    };
    const struct ga_plot plots[] = {
        { 0 },
        { .title = "empty series", .series = empty, .nseries = 4 },
        { .y = { .scale = GA_SCALE_LOG10, .low_band = "0", .high_band = "inf" },
          .x = { .scale = GA_SCALE_SYMLOG }, .series = empty, .nseries = 2,
          .legend = GA_LEGEND_RIGHT },
    };
    for (size_t i = 0; i < sizeof plots / sizeof plots[0]; i++) {
        struct buffer b;
        assert_int_equal(write_to_buffer(&plots[i], &b), GA_PLOT_OK);
        assert_true(well_formed(b.data));
        free(b.data);
    }
}

static void test_bars_and_legends(void **state)
{
    (void)state;
    static const char *const cats[] = { "0", "1", "2", "3\xe2\x80\x93" "4", "NaN" };
    const double a[] = { 60000, 300, 10, 0, 1 }, c[] = { 50000, 1500, 400, 420, 1 };
    struct ga_series s[] = {
        { .kind = GA_SERIES_BARS, .label = "erf", .y = a, .n = 5 },
        { .kind = GA_SERIES_BARS, .label = "tanh", .y = c, .n = 5 },
    };
    const enum ga_legend legends[] = { GA_LEGEND_AUTO, GA_LEGEND_NONE, GA_LEGEND_TOP,
                                       GA_LEGEND_RIGHT, GA_LEGEND_INSIDE_TOP_LEFT,
                                       GA_LEGEND_INSIDE_TOP_RIGHT };
    for (size_t i = 0; i < sizeof legends / sizeof legends[0]; i++) {
        struct ga_plot p = {
            .x = { .categories = cats, .ncategories = 5 },
            .y = { .scale = GA_SCALE_LOG10 },
            .series = s, .nseries = 2, .legend = legends[i],
        };
        struct buffer b;
        assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
        assert_true(well_formed(b.data));
        /* One rect per nonzero count, plus background, swatches, frame. */
        int legend_rects = legends[i] == GA_LEGEND_NONE ? 0 : 2;
        legend_rects += legends[i] == GA_LEGEND_INSIDE_TOP_LEFT
                        || legends[i] == GA_LEGEND_INSIDE_TOP_RIGHT;
        assert_int_equal(count_occurrences(b.data, "<rect"), 9 + 1 + 1 + legend_rects);
        free(b.data);
    }
}

static void test_invalid_plots(void **state)
{
    (void)state;
    const double v[] = { 1, 2 };
    struct ga_series bars = { .kind = GA_SERIES_BARS, .y = v, .n = 2 };
    struct ga_series no_x = { .kind = GA_SERIES_LINE, .y = v, .n = 2 };
    struct ga_plot bad[] = {
        { .series = &bars, .nseries = 1 },                      /* bars, no categories */
        { .series = &no_x, .nseries = 1 },
        { .y = { .scale = GA_SCALE_LOG10, .min = 0, .max = 10 } },
        { .x = { .min = 2, .max = 1 } },
        { .x = { .min = -INFINITY, .max = 1 } },
        { .x = { .low_band = "0" } },
        { .series = NULL, .nseries = 1 },
        { .width = 10 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *why = NULL;
        assert_int_equal(ga_plot_check(&bad[i], &why), GA_PLOT_EINVAL);
        assert_non_null(why);
        struct buffer b;
        assert_int_equal(write_to_buffer(&bad[i], &b), GA_PLOT_EINVAL);
        assert_int_equal(b.size, 0);   /* nothing written */
        free(b.data);
    }
    assert_int_equal(ga_plot_write_svg(NULL, stdout), GA_PLOT_EINVAL);

    /* Valid fields, but 60 legend rows leave no room for the plot. */
    static struct ga_series many[60];
    for (int i = 0; i < 60; i++)
        many[i] = (struct ga_series){ .kind = GA_SERIES_LINE,
                                      .label = "a long legend label that fills a row" };
    struct ga_plot crowded = { .series = many, .nseries = 60, .height = 150,
                               .legend = GA_LEGEND_TOP };
    const char *why = NULL;
    assert_int_equal(ga_plot_check(&crowded, &why), GA_PLOT_EINVAL);
    assert_non_null(why);
    print_message("# crowded plot: %s\n", why);
}

static void test_write_error(void **state)
{
    (void)state;
    char small[64];
    FILE *out = fmemopen(small, sizeof small, "w");
    assert_non_null(out);
    struct ga_plot p = { .title = "does not fit in 64 bytes" };
    assert_int_equal(ga_plot_write_svg(&p, out), GA_PLOT_EIO);
    fclose(out);
}

/* 65536 scattered points, spread to fill as many cells as possible: the
 * worst case for merging.  Every cell drawn must hold a point. */
static void test_scatter_size(void **state)
{
    (void)state;
    enum { N = 65536 };
    static double x[N], y[N];
    struct test_rng s = test_rng(1);
    for (int i = 0; i < N; i++) {
        x[i] = test_rng_between(&s, -12, 12);
        double r = test_rng_uniform(&s);
        y[i] = r < 0.05 ? 0 : r < 0.06 ? INFINITY : pow(10, -3 + 9 * test_rng_uniform(&s));
    }
    struct ga_series series = { .kind = GA_SERIES_POINTS, .label = "random", .x = x, .y = y,
                                .n = N };
    struct ga_plot p = {
        .title = "65536 points",
        .x = { .label = "input x", .min = -12, .max = 12 },
        .y = { .label = "error (ulp)", .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
               .low_band = "0", .high_band = "NaN/inf/>1e6" },
        .series = &series, .nseries = 1,
    };
    struct buffer b;
    assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
    print_message("# 65536 random points: %zu bytes\n", b.size);
    assert_true(b.size < SCATTER_BUDGET);
    assert_true(well_formed(b.data));

    /* Each drawn cell centre lies within a cell (1 px) of some point. */
    struct ga_plot_frame f;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    static double at[200000][2];
    struct vertices v = { at, 0, 200000 };
    const char *d = path_after(b.data, "stroke-linecap=\"square\"");
    assert_non_null(d);
    assert_true(read_path(d, &v) > 0 && v.n <= v.cap);
    static unsigned char hit[451][801];
    memset(hit, 0, sizeof hit);
    for (int i = 0; i < N; i++) {
        double px = ga_plot_frame_x(&f, x[i]), py = ga_plot_frame_y(&f, y[i]);
        hit[(int)py][(int)px] = 1;
    }
    for (size_t k = 0; k < v.n; k++) {
        /* A run ends on a cell centre: check both ends' cells. */
        int cx = (int)at[k][0], cy = (int)at[k][1];
        assert_true(cy >= 1 && cy < 450 && cx >= 1 && cx < 800);
        assert_true(hit[cy - 1][cx - 1] | hit[cy - 1][cx] | hit[cy][cx - 1] | hit[cy][cx]);
    }
    free(b.data);

    /* Identical points collapse to a single dot. */
    for (int i = 0; i < N; i++) {
        x[i] = 1.5;
        y[i] = 2.5;
    }
    assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
    d = path_after(b.data, "stroke-linecap=\"square\"");
    assert_int_equal(read_path(d, &v), 2);
    free(b.data);
}

/* Lines: clipped to the plot area, and a dense line is thinned to a few
 * vertices per pixel column without losing its extremes. */
static void test_line_clipping_and_thinning(void **state)
{
    (void)state;
    enum { N = 100001 };
    static double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = -20 + 40.0 * i / (N - 1);
        y[i] = sin(x[i] * 7) * 3;     /* beyond the y range [-2, 2] too */
    }
    struct ga_series s = { .kind = GA_SERIES_LINE, .x = x, .y = y, .n = N };
    struct ga_plot p = { .x = { .min = -12, .max = 12 }, .y = { .min = -2, .max = 2 },
                         .series = &s, .nseries = 1 };
    struct ga_plot_frame f;
    assert_int_equal(ga_plot_layout(&p, &f), GA_PLOT_OK);
    struct buffer b;
    assert_int_equal(write_to_buffer(&p, &b), GA_PLOT_OK);
    static double at[N][2];
    struct vertices v = { at, 0, N };
    const char *d = path_after(b.data, "stroke-linejoin=\"round\" d=\"");
    assert_non_null(d);
    assert_true(read_path(d, &v) > 0);
    print_message("# 100001-point line: %zu vertices, %zu bytes\n", v.n, b.size);
    assert_true(v.n <= 4 * (size_t)(f.right - f.left + 1) * 2);
    double top = INFINITY, bottom = -INFINITY;
    for (size_t k = 0; k < v.n; k++) {
        /* Rounded to 0.1 px. */
        assert_true(at[k][0] >= f.left - 0.05 && at[k][0] <= f.right + 0.05);
        assert_true(at[k][1] >= f.top - 0.05 && at[k][1] <= f.bottom + 0.05);
        top = fmin(top, at[k][1]);
        bottom = fmax(bottom, at[k][1]);
    }
    /* The curve leaves the range: it must touch both edges. */
    assert_true(fabs(top - f.top) <= 0.05 && fabs(bottom - f.bottom) <= 0.05);
    free(b.data);
}

/* Random descriptions with awkward data (NaN, infinities, zeros, negative
 * values on log axes, out-of-range points): always written, well-formed. */
static double awkward(struct test_rng *s)
{
    double r = test_rng_uniform(s);
    if (r < 0.03)
        return NAN;
    if (r < 0.06)
        return test_rng_uniform(s) < 0.5 ? INFINITY : -INFINITY;
    if (r < 0.10)
        return 0;
    double mag = pow(10, test_rng_uniform(s) * 60 - 30);
    return test_rng_uniform(s) < 0.3 ? -mag : mag;
}

static void test_random_plots(void **state)
{
    (void)state;
    enum { N = 300 };
    static double x[4][N], y[4][N];
    static const char *const cats[] = { "a", "b", "c&d", "\xe2\x89\xa5 e" };
    struct test_rng s = test_rng(2);
    for (int round = 0; round < 300; round++) {
        struct ga_series series[4];
        int categorical = test_rng_uniform(&s) < 0.2;
        for (int k = 0; k < 4; k++) {
            for (int i = 0; i < N; i++) {
                x[k][i] = test_rng_uniform(&s) < 0.5 ? awkward(&s) : test_rng_between(&s, -20, 20);
                y[k][i] = awkward(&s);
            }
            enum ga_series_kind kind = (enum ga_series_kind)(int)(test_rng_uniform(&s) * 4);
            if (kind == GA_SERIES_BARS && !categorical)
                kind = GA_SERIES_LINE;
            series[k] = (struct ga_series){
                .kind = kind, .label = test_rng_uniform(&s) < 0.7 ? "series <k>" : NULL,
                .x = x[k], .y = y[k], .n = (size_t)(test_rng_uniform(&s) * N),
                .color = (int)test_rng_below(&s, 12),
                .dash = (enum ga_dash)test_rng_below(&s, 3),
            };
        }
        struct ga_marker markers[3];
        for (int k = 0; k < 3; k++)
            markers[k] = (struct ga_marker){ .axis = (enum ga_marker_axis)(k % 2),
                                             .value = awkward(&s), .label = "m & m" };
        struct ga_plot p = {
            .title = test_rng_uniform(&s) < 0.5 ? "random" : NULL,
            .subtitle = test_rng_uniform(&s) < 0.3 ? "sub" : NULL,
            .series = series, .nseries = (size_t)(test_rng_uniform(&s) * 5),
            .markers = markers, .nmarkers = (size_t)(test_rng_uniform(&s) * 4),
            .legend = (enum ga_legend)(int)(test_rng_uniform(&s) * 6),
        };
        for (int axis = 0; axis < 2; axis++) {
            struct ga_axis *a = axis ? &p.y : &p.x;
            a->scale = (enum ga_scale)(int)(test_rng_uniform(&s) * 3);
            a->linthresh = test_rng_uniform(&s) < 0.5 ? 0 : pow(10, test_rng_uniform(&s) * 6 - 3);
            if (test_rng_uniform(&s) < 0.5) {
                double lo = a->scale == GA_SCALE_LOG10 ? pow(10, test_rng_uniform(&s) * 20 - 10)
                                                       : -pow(10, test_rng_uniform(&s) * 10 - 5);
                a->min = lo;
                a->max = fabs(lo) * pow(10, test_rng_uniform(&s) * 10 + 0.01);
            }
            if (axis == 1) {
                a->low_band = test_rng_uniform(&s) < 0.5 ? "0" : NULL;
                a->high_band = test_rng_uniform(&s) < 0.5 ? "NaN" : NULL;
            }
        }
        if (categorical) {
            p.x = (struct ga_axis){ .categories = cats, .ncategories = 4 };
        } else {
            for (int k = 0; k < 4; k++)
                if (series[k].kind == GA_SERIES_BARS)
                    series[k].kind = GA_SERIES_POINTS;
        }
        struct buffer b;
        const char *why = "";
        int status = write_to_buffer(&p, &b);
        if (status != GA_PLOT_OK) {
            ga_plot_check(&p, &why);
            print_message("# round %d: %s (%s)\n", round, ga_plot_strerror(status), why);
        }
        assert_int_equal(status, GA_PLOT_OK);
        assert_true(well_formed(b.data));
        free(b.data);
    }
}

static int setup(void **state)
{
    (void)state;
    test_random_init();
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_tenths),
        cmocka_unit_test(test_format_decimal),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_put_directives),
        cmocka_unit_test(test_ticks_linear_unit),
        cmocka_unit_test(test_ticks_log_decades),
        cmocka_unit_test(test_ticks_symlog),
        cmocka_unit_test(test_ticks_invalid),
        cmocka_unit_test(test_ticks_linear_random),
        cmocka_unit_test(test_mapping_edges),
        cmocka_unit_test(test_automatic_ranges),
        cmocka_unit_test(test_bands),
        cmocka_unit_test(test_bands_in_svg),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_escaped_and_well_formed),
        cmocka_unit_test(test_empty_plots_well_formed),
        cmocka_unit_test(test_bars_and_legends),
        cmocka_unit_test(test_invalid_plots),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_scatter_size),
        cmocka_unit_test(test_line_clipping_and_thinning),
        cmocka_unit_test(test_random_plots),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
