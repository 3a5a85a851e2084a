/* HTML pages of a report (html.h): a format page and the index. */
#include "report/html.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "grade/number_text.h"
#include "report/html_escape.h"
#include "report/pictures.h"
#include "report/report_file.h"
#include "report/report_marker.h"
#include "report/backward_section.h"
#include "report/shape_print.h"
#include "report/cast_section.h"
#include "report/truth_convention.h"

/* One style sheet for both pages: readable tables with numbers right-aligned
 * in tabular figures, failures on a red ground. */
static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
    "margin:0 auto;max-width:1400px;padding:0 1.2em 3em;color:#222;line-height:1.45}\n"
    "h1{font-size:1.7em;margin:.7em 0 .3em}\n"
    "h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}\n"
    "h3{margin-top:1.5em}\n"
    "a{color:#0a58a8}\n"
    "code{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}\n"
    "p.nav{font-size:.92em;color:#555;margin:.8em 0 0}\n"
    "div.scroll{overflow-x:auto}\n"
    "table{border-collapse:collapse;font-size:.82em;margin:.5em 0 1em}\n"
    "th,td{padding:.25em .45em;border-bottom:1px solid #e3e3e3}\n"
    "th{background:#f3f3f3;text-align:left;vertical-align:bottom}\n"
    "th.num,td.num{text-align:right}\n"
    "td.num{font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "tbody tr:hover{background:#f5f9ff}\n"
    "td.bad,span.bad{background:#fde2dd;color:#8a1c0b;font-weight:600}\n"
    "span.bad{padding:0 .3em}\n"
    "nav.toc{background:#fafafa;border:1px solid #e3e3e3;padding:.3em 1.2em;font-size:.92em}\n"
    "nav.toc ol{margin:.2em 0;padding-left:1.4em}\n"
    "nav.toc li li{display:inline;margin-right:.8em}\n"
    "div.plots{display:flex;flex-wrap:wrap;gap:.8em;align-items:flex-start}\n"
    /* a table is as wide as its image, and its caption wraps to that */
    "figure{margin:.5em 0;display:table}\n"
    "figure img{max-width:100%;height:auto;border:1px solid #e5e5e5;display:block}\n"
    "figcaption{font-size:.88em;color:#555;display:table-caption;caption-side:bottom}\n"
    "p.facts{font-size:.92em}\n";

/* Short name for the escaping writer. */
static void put(FILE *out, const char *s)
{
    ga_html_escape(out, s);
}

static void head(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
    put(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

/* <img> of a plot, with a caption. */
static void figure(FILE *out, const char *src, const char *alt, const char *caption)
{
    /* The image links to itself: full size in its own tab. */
    fputs("<figure><a href=\"", out);
    put(out, src);
    fputs("\"><img src=\"", out);
    put(out, src);
    fputs("\" alt=\"", out);
    put(out, alt);
    fputs("\"></a>", out);
    if (caption) {
        fputs("<figcaption>", out);
        put(out, caption);
        fputs("</figcaption>", out);
    }
    fputs("</figure>\n", out);
}

static bool exists(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The two difference curves, with the formulas (when dir is given, only
 * the plots that exist there), and the end of their <div>. */
static void approximation_figures(FILE *out, const char *dir)
{
    static const char caption[] =
        "gelu_tanh(x) = (x/2)(1 + tanh(√(2/π)(x + 0.044715x³))) and gelu(x) = x·Φ(x) "
        "from the MPFR oracle's exact values; quick(x) = x/(1 + exp(−1.702x)) in double.";
    if (!dir || exists(dir, GA_PICTURE_APPROXIMATIONS))
        figure(out, GA_PICTURE_APPROXIMATIONS, "gelu_tanh minus gelu and quick minus gelu",
               caption);
    if (!dir || exists(dir, GA_PICTURE_APPROXIMATIONS_TANH))
        figure(out, GA_PICTURE_APPROXIMATIONS_TANH, "gelu_tanh minus gelu",
               "The tanh form alone, at its own scale: the curve of the plot beside.");
    fputs("</div>\n", out);
}

/* ---- A format page ---- */

struct page {
    const struct ga_format *f;
    const struct ga_result *r;
    size_t n;
    const char *how;
    const struct ga_real_section *real;  /* NULL: no such section */
    const struct ga_cast_result *cast;   /* NULL: no such section */
    const struct ga_backward_section *backward;  /* NULL: no such section */
};

static void cell(FILE *out, const char *text, bool bad)
{
    fputs(bad ? "<td class=\"num bad\">" : "<td class=\"num\">", out);
    put(out, text);
    fputs("</td>", out);
}

static void count_cell(FILE *out, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
    cell(out, buf, v > 0);
}

static void impl_cell(FILE *out, const struct page *p, size_t i)
{
    char key[GA_PICTURE_PATH_LEN];
    if (p->r[i].real) {  /* no plots of its own to link to */
        fputs("<td><code>", out);
        put(out, p->r[i].impl);
        fputs("</code></td>", out);
        return;
    }
    fprintf(out, "<td><a href=\"#impl-%s\"><code>", ga_picture_key(p->r, p->n, i, key));
    put(out, p->r[i].impl);
    fputs("</code></a></td>", out);
}

static void summary_row(FILE *out, const struct page *p, size_t i, const struct ga_summary *s)
{
    const struct ga_format *f = p->f;
    char a[GA_TEXT_LEN], interval[GA_INTERVAL_LEN];

    fputs("<tr>", out);
    impl_cell(out, p, i);
    snprintf(a, sizeof a, "%llu", (unsigned long long)s->count);
    cell(out, a, false);
    cell(out, ga_text_percent(s->correctly_rounded, s->count, a), false);
    cell(out, ga_text_percent(s->faithful, s->count, a), false);
    cell(out, s->max_ulp.has ? ga_text_error(s->max_ulp.error, a) : "-",
         s->max_ulp.has && !(s->max_ulp.error <= 1));
    cell(out, s->max_ulp.has ? ga_text_value(f, s->max_ulp.x, a) : "-", false);
    cell(out, ga_text_stat(s->mean_ulp, a), false);
    cell(out, ga_text_stat(s->p99, a), false);
    cell(out, s->max_rel.has ? ga_text_error(s->max_rel.error, a) : "-", false);
    count_cell(out, s->flushed_to_zero);
    count_cell(out, s->nan);
    count_cell(out, s->inf);
    count_cell(out, s->wrong_zero_sign);
    if (s->region == GA_REGION_ALL) {
        fputs("<td class=\"num\">", out);
        put(out, ga_text_interval(f, &s->faithful_interval, interval));
        fputs("</td>", out);
        cell(out, s->has_zero_below ? ga_text_value(f, s->zero_below, a) : "-", false);
    }
    fputs("</tr>\n", out);
}

static void summary_table(FILE *out, const struct page *p, enum ga_function ref, int region)
{
    static const char *const numeric[] = {
        "inputs", "correctly rounded %", "faithful %", "max ulp", "at x", "mean ulp",
        "p99 ulp", "max rel", "flushed to 0", "NaN", "inf", "wrong 0 sign",
    };
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th>", out);
    for (size_t k = 0; k < sizeof numeric / sizeof numeric[0]; k++)
        fprintf(out, "<th class=\"num\">%s</th>", numeric[k]);
    if (region == GA_REGION_ALL)
        fputs("<th class=\"num\">faithful on</th><th class=\"num\">all 0 below</th>", out);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < p->n; i++)
        if (p->r[i].reference == ref)
            summary_row(out, p, i, &p->r[i].region[region]);
    fputs("</tbody></table></div>\n", out);
}

static void worst_table(FILE *out, const struct page *p)
{
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th>"
          "<th class=\"num\">max ulp</th><th class=\"num\">input</th><th class=\"num\">output</th>"
          "<th class=\"num\">exact</th></tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < p->n; i++) {
        const struct ga_point *pt = &p->r[i].region[GA_REGION_ALL].max_ulp;
        char a[GA_TEXT_LEN], hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN];
        if (p->r[i].reference != GA_GELU || !pt->has)
            continue;
        ga_format_bits(p->f, pt->x, hx);
        ga_format_bits(p->f, pt->y, hy);
        fputs("<tr>", out);
        impl_cell(out, p, i);
        cell(out, ga_text_error(pt->error, a), !(pt->error <= 1));
        fprintf(out, "<td class=\"num\">%s (<code>%s</code>)</td>",
                ga_text_value(p->f, pt->x, a), hx);
        fprintf(out, "<td class=\"num\">%s (<code>%s</code>)</td>",
                ga_text_value(p->f, pt->y, a), hy);
        cell(out, ga_text_exact(&pt->exact, a), false);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

static void catalogue_table(FILE *out, const struct page *p)
{
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th><th>approximates</th>"
          "<th>formula as computed</th><th>precision</th><th>models</th></tr></thead>\n<tbody>\n",
          out);
    for (size_t i = 0; i < p->n; i++) {
        const struct ga_result *r = &p->r[i];
        if (r->reference != GA_GELU)    /* one row per implementation */
            continue;
        fputs("<tr>", out);
        impl_cell(out, p, i);
        fprintf(out, "<td>%s</td><td><code>", ga_function_name(r->approximates));
        put(out, r->formula);
        fputs("</code></td><td>", out);
        put(out, r->computes);
        fputs("</td><td>", out);
        put(out, r->models);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

/* One paragraph of figures per result, under its plots' heading. */
static void result_facts(FILE *out, const struct page *p, const struct ga_result *r)
{
    const struct ga_summary *all = &r->region[GA_REGION_ALL];
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN], interval[GA_INTERVAL_LEN];

    fprintf(out, "<p class=\"facts\">Against %s: %s %% correctly rounded, %s %% faithful; "
                 "max ", r->reference == GA_GELU_TANH ? "the tanh formula" : "exact GELU",
            ga_text_percent(all->correctly_rounded, all->count, a),
            ga_text_percent(all->faithful, all->count, b));
    if (all->max_ulp.has) {
        bool bad = !(all->max_ulp.error <= 1);
        fprintf(out, "%s%s ulp%s at x = %s", bad ? "<span class=\"bad\">" : "",
                ga_text_error(all->max_ulp.error, a), bad ? "</span>" : "",
                ga_text_value(p->f, all->max_ulp.x, c));
    } else {
        fputs("-", out);
    }
    fprintf(out, "; faithful on %s",
            ga_text_interval(p->f, &all->faithful_interval, interval));
    if (all->has_zero_below)
        fprintf(out, "; every output is 0 below x = %s", ga_text_value(p->f, all->zero_below, a));
    const struct { uint64_t count; const char *what; } failures[] = {
        { all->flushed_to_zero, "flushed to 0" }, { all->nan, "NaN" }, { all->inf, "inf" },
        { all->wrong_zero_sign, "zeros of the wrong sign" },
    };
    for (size_t k = 0; k < sizeof failures / sizeof failures[0]; k++)
        if (failures[k].count > 0)
            fprintf(out, "; <span class=\"bad\">%llu %s</span>",
                    (unsigned long long)failures[k].count, failures[k].what);
    fputs(".</p>\n", out);
}

static void impl_section(FILE *out, const struct page *p, size_t i)
{
    const struct ga_result *r = &p->r[i];
    char key[GA_PICTURE_PATH_LEN], path[GA_PICTURE_PATH_LEN], alt[512];
    const char *per = p->f->bits <= 16 ? "every input" : "bins of width 1/64";

    fprintf(out, "<section id=\"impl-%s\">\n<h3><code>", ga_picture_key(p->r, p->n, i, key));
    put(out, r->impl);
    fputs("</code></h3>\n<p>", out);
    put(out, r->models);
    fputs(": <code>", out);
    put(out, r->formula);
    fputs("</code>; ", out);
    put(out, r->computes);
    fputs(".</p>\n", out);
    for (size_t j = i; j < p->n; j++)
        if (strcmp(p->r[j].impl, r->impl) == 0)
            result_facts(out, p, &p->r[j]);
    fputs("<div class=\"plots\">\n", out);
    for (size_t j = i; j < p->n; j++) {
        if (strcmp(p->r[j].impl, r->impl) != 0 || !ga_picture_error_path(p->r, p->n, j, path))
            continue;
        snprintf(alt, sizeof alt, "%s on %s: ulp error against %s, %s", r->impl, p->f->name,
                 p->r[j].reference == GA_GELU_TANH ? "the tanh formula" : "exact GELU", per);
        figure(out, path, alt, NULL);
    }
    if (ga_picture_distance_path(p->r, p->n, i, path)) {
        snprintf(alt, sizeof alt, "%s on %s: histogram of ordinal distances", r->impl,
                 p->f->name);
        figure(out, path, alt, NULL);
    }
    fputs("</div>\n</section>\n", out);
}

static const char regions_intro[] =
    "<p>The same table for each region of the input axis; every input lies in exactly one.</p>\n";

/* Links to the data files of a format; on a format page also to the index
 * and the README. */
static void links(FILE *out, const char *name, bool page)
{
    fputs("<p class=\"nav\">", out);
    if (page)
        fputs("<a href=\"index.html\">All formats</a> · "
              "<a href=\"README.md\">How the figures are defined (README)</a> · ", out);
    else {
        fputs("<a href=\"", out);
        put(out, name);
        fputs(".html\">The full page</a> · ", out);
    }
    fputs("Data: <a href=\"", out);
    put(out, name);
    fputs(".csv\">CSV</a>, <a href=\"", out);
    put(out, name);
    fputs(".json\">JSON</a>, <a href=\"", out);
    put(out, name);
    fputs(".md\">Markdown</a></p>\n", out);
}

static const char highlight_note[] =
    "<p class=\"facts\"><span class=\"bad\">Highlighted</span>: a maximum error above 1 ulp, "
    "or outputs flushed to 0, NaN or infinite where the correctly rounded result is a finite "
    "number, or zeros of the wrong sign.</p>\n";

/* The real libraries: their tables, what ran, what did not. */
static void real_section(FILE *out, const struct page *p)
{
    const struct ga_real_section *rs = p->real;
    struct page rp = { p->f, rs->r, rs->n, p->how, NULL, NULL, NULL };
    bool any_tanh = false;

    for (size_t i = 0; i < rs->n; i++)
        any_tanh |= rs->r[i].reference == GA_GELU_TANH;
    fputs("<!-- real libraries -->\n<h2 id=\"real\">Real libraries</h2>\n<p>GELU as the "
          "libraries compute it on this machine, called through their own entry points "
          "(<code>gelu-acc list</code> shows each call; they run in worker processes like "
          "plugins). The tables above are models; <code>tests/real_models_test</code> checks "
          "bit for bit that the models naming a library compute what it computes. These "
          "figures depend on the CPU's vector dispatch: <code>make check</code> compares them "
          "only with a run on the same CPU model, ISA and library versions (the line at the "
          "top of the page). Domain: <code>", out);
    put(out, rs->n ? rs->r[0].domain : "-");
    fputs("</code>", out);
    for (size_t i = 1; i < rs->n; i++) {
        if (!ga_real_section_new_domain(rs, i))
            continue;
        fputs("; <code>", out);
        put(out, rs->r[i].domain);
        fputs("</code> for", out);
        for (size_t k = i; k < rs->n; k++)
            if (rs->r[k].reference == GA_GELU && strcmp(rs->r[k].domain, rs->r[i].domain) == 0) {
                fputs(" <code>", out);
                put(out, rs->r[k].impl);
                fputs("</code>", out);
            }
    }
    fputs(".</p>\n", out);
    if (rs->n) {
        fputs("<h3>Against exact GELU</h3>\n", out);
        summary_table(out, &rp, GA_GELU, GA_REGION_ALL);
    }
    if (any_tanh) {
        fputs("<h3>Tanh forms against the tanh formula</h3>\n", out);
        summary_table(out, &rp, GA_GELU_TANH, GA_REGION_ALL);
    }
    if (rs->n) {
        fputs("<h3>What ran</h3>\n<div class=\"scroll\"><table>\n<thead><tr>"
              "<th>implementation</th><th>library, call and code path</th><th>formula</th>"
              "<th>precision</th></tr></thead>\n<tbody>\n", out);
        for (size_t i = 0; i < rs->n; i++) {
            if (rs->r[i].reference != GA_GELU)
                continue;
            fputs("<tr><td><code>", out);
            put(out, rs->r[i].impl);
            fputs("</code></td><td>", out);
            put(out, rs->r[i].models);
            fputs("</td><td>", out);
            put(out, rs->r[i].formula);
            fputs("</td><td>", out);
            put(out, rs->r[i].computes);
            fputs("</td></tr>\n", out);
        }
        fputs("</tbody></table></div>\n", out);
        ga_shape_write_table(out, rp.f, rp.r, rp.n, true, 3);
    }
    if (rs->not_measured[0]) {
        const char *line = rs->not_measured;
        fputs("<h3>Not measured here</h3>\n<ul>\n", out);
        while (*line) {
            size_t len = strcspn(line, "\n");
            char item[512];
            snprintf(item, sizeof item, "%.*s", (int)len, line);
            fputs("<li>", out);
            put(out, item);
            fputs("</li>\n", out);
            line += len + (line[len] == '\n');
        }
        fputs("</ul>\n", out);
    }
    fputs("<!-- /real libraries -->\n", out);
}

static int write_page(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    const struct ga_format *f = p->f;
    char title[128], path[GA_PICTURE_PATH_LEN], key[GA_PICTURE_PATH_LEN], c1[GA_TEXT_LEN];
    char convention[1024];
    bool any_tanh = false;

    for (size_t i = 0; i < p->n; i++)
        any_tanh |= p->r[i].reference == GA_GELU_TANH;
    snprintf(title, sizeof title, "GELU accuracy in %s", f->name);
    head(out, title);
    links(out, f->name, true);
    fputs("<h1>", out);
    put(out, title);
    fputs("</h1>\n<p>Generated by <code>", out);
    put(out, p->how);
    fputs("</code> — do not edit by hand. Domain: <code>", out);
    put(out, p->n ? p->r[0].domain : "-");
    snprintf(c1, sizeof c1, "%llu",
             (unsigned long long)(p->n ? p->r[0].region[GA_REGION_ALL].count : 0));
    fprintf(out, "</code> (%s inputs).</p>\n", c1);
    fputs("<p>Errors are measured against the correctly rounded ground truth and the exact "
          "value computed by MPFR (definitions: <a href=\"README.md\">README</a>). ulp errors "
          "use the ulp of the exact value; “faithful on” is the widest interval around 0 where "
          "every output is within 1 ulp; “all 0 below” is the input below which every output "
          "is ±0.</p>\n", out);
    if (!ga_is_enumerable(p->f))
        fprintf(out, "<p>A sample of the 2^%d %s inputs. The exact value is held in a double "
                "and a float beyond it (74 bits): the counts (correctly rounded, faithful, "
                "flushed, …) are exact, the ulp, relative and absolute errors good to "
                "2^-20 ulp.</p>\n",
                p->f->bits, p->f->name);
    if (p->real != NULL) {
        fputs("<!-- machine -->\n<p>Real libraries measured on: ", out);
        put(out, p->real->machine);
        fputs(".</p>\n<!-- /machine -->\n", out);
    }

    /* Contents */
    fputs("<nav class=\"toc\">\n<ol>\n<li><a href=\"#overview\">Overview plot</a></li>\n"
          "<li><a href=\"#exact\">Against exact GELU</a></li>\n", out);
    if (any_tanh)
        fputs("<li><a href=\"#tanh\">Tanh-form implementations against the tanh formula</a></li>\n",
              out);
    fputs("<li><a href=\"#regions\">By region</a><ol>", out);
    for (int g = 0; g < GA_REGION_COUNT; g++)
        fprintf(out, "<li><a href=\"#region-%s\">%s</a></li>\n", ga_region_name((enum ga_region)g),
                ga_region_name((enum ga_region)g));
    fputs("</ol></li>\n<li><a href=\"#worst\">Worst inputs</a></li>\n"
          "<li><a href=\"#plots\">Each implementation</a><ol>", out);
    for (size_t i = 0; i < p->n; i++) {
        if (ga_picture_distance_path(p->r, p->n, i, path) == NULL)  /* first result only */
            continue;
        fprintf(out, "<li><a href=\"#impl-%s\"><code>", ga_picture_key(p->r, p->n, i, key));
        put(out, p->r[i].impl);
        fputs("</code></a></li>\n", out);
    }
    fputs("</ol></li>\n<li><a href=\"#approximations\">The approximations themselves</a></li>\n"
          "<li><a href=\"#catalogue\">Implementations</a></li>\n", out);
    if (p->real != NULL)
        fputs("<!-- real libraries -->\n<li><a href=\"#real\">Real libraries</a></li>\n"
              "<!-- /real libraries -->\n", out);
    if (p->cast != NULL)
        fputs("<li><a href=\"#cast\">GELU fused with a cast</a></li>\n", out);
    if (p->backward != NULL)
        fputs("<li><a href=\"#backward\">Backward</a></li>\n", out);
    fputs("</ol>\n</nav>\n", out);

    fputs("<h2 id=\"overview\">Overview</h2>\n", out);
    figure(out, ga_picture_overview_path(f, path), "worst ulp error of every implementation",
           "The worst error of each implementation along the input axis, against exact GELU. "
           "The grey strips under and over the plot hold errors of 0 (or below 1e-4 ulp) and "
           "errors above 1e8 ulp, infinite or NaN.");

    fprintf(out, "<h2 id=\"exact\">Against exact GELU</h2>\n<p><code>gelu(x) = x·Φ(x)</code>, "
                 "correctly rounded to %s.</p>\n", f->name);
    ga_truth_convention_text(f, convention, sizeof convention);
    if (convention[0]) {
        fputs("<p>", out);
        put(out, convention);
        fputs("</p>\n", out);
    }
    summary_table(out, p, GA_GELU, GA_REGION_ALL);
    fputs(highlight_note, out);
    if (any_tanh) {
        fputs("<h2 id=\"tanh\">Tanh-form implementations against the tanh formula</h2>\n"
              "<p><code>gelu_tanh(x) = (x/2)(1 + tanh(√(2/π)(x + 0.044715x³)))</code> taken "
              "exactly: this separates the rounding error of an implementation from the "
              "approximation error of the formula.</p>\n", out);
        summary_table(out, p, GA_GELU_TANH, GA_REGION_ALL);
    }
    fputs("<h2 id=\"regions\">By region, against exact GELU</h2>\n", out);
    fputs(regions_intro, out);
    for (int g = 0; g < GA_REGION_COUNT; g++) {
        fprintf(out, "<h3 id=\"region-%s\">%s: ", ga_region_name((enum ga_region)g),
                ga_region_name((enum ga_region)g));
        put(out, ga_region_description((enum ga_region)g));
        fputs("</h3>\n", out);
        summary_table(out, p, GA_GELU, g);
    }
    fputs("<h2 id=\"worst\">Worst inputs against exact GELU</h2>\n", out);
    worst_table(out, p);
    ga_shape_write_table(out, f, p->r, p->n, true, 2);

    fputs("<h2 id=\"plots\">Each implementation</h2>\n<p>For each implementation: its ulp error "
          "against the input", out);
    fputs(f->bits <= 16 ? ", one point per input (blue: at most 0.5 ulp, orange: up to 1 ulp, "
                          "vermilion: more, or inf or NaN)"
                        : ", as the maximum and the mean over bins of width 1/64", out);
    fputs(", against exact GELU and, for tanh forms, against the tanh formula; and how far "
          "its outputs lie from the correctly rounded results, counted in format values. "
          "Dashed lines mark where the truth itself rounds to −0, where the implementation "
          "stops being faithful, and below which all its outputs are 0.</p>\n", out);
    for (size_t i = 0; i < p->n; i++)
        if (ga_picture_distance_path(p->r, p->n, i, path))
            impl_section(out, p, i);

    fputs("<h2 id=\"approximations\">The approximations themselves</h2>\n<p>How far the "
          "formulas are from exact GELU before any rounding: this is the error a perfect "
          "implementation of the tanh form or of quick GELU still has.</p>\n"
          "<div class=\"plots\">\n", out);
    approximation_figures(out, NULL);
    fputs("<h2 id=\"catalogue\">Implementations</h2>\n", out);
    catalogue_table(out, p);
    if (p->real != NULL)
        real_section(out, p);
    if (p->cast != NULL && ga_write_cast_html(out, p->cast) != 0)
        return -1;
    if (p->backward != NULL && ga_write_backward_html(out, p->backward) != 0)
        return -1;
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}

enum ga_io_status ga_write_html_page(const char *dir, const struct ga_format *f,
                                     const struct ga_result *r, size_t n,
                                     const char *how_generated,
                                     const struct ga_real_section *rs,
                                     const struct ga_cast_result *cast,
                                     const struct ga_backward_section *backward,
                                     struct ga_io_error *err)
{
    struct page p = { f, r, n, how_generated, rs, cast, backward };
    char name[64];

    snprintf(name, sizeof name, "%s.html", f->name);
    return ga_write_report_file(dir, name, true, write_page, &p, err);
}

/* ---- The index ---- */

struct index {
    const char *dir;
    const struct ga_format *list[GA_FORMAT_COUNT];
    size_t n;
    const struct ga_report_marker *measured;
};

/* What a format's tables measured, as the marker records it: the index must
 * not call a sample exhaustive, nor the other way round. */
static void measured_on(FILE *out, const struct ga_format *f, const struct ga_report_marker *m)
{
    const struct ga_report_domain *d = m ? &m->format[f->id] : NULL;
    uint64_t all = ga_is_enumerable(f) ? ga_encoding_count(f) : 0;
    char count[GA_TEXT_LEN], total[GA_TEXT_LEN];

    if (!d || !d->known) {
        fputs("<p>Inputs: as the page states.</p>\n", out);
        return;
    }
    snprintf(count, sizeof count, "%llu", (unsigned long long)d->count);
    if (all)
        snprintf(total, sizeof total, "%llu", (unsigned long long)all);
    else  /* float64: 2^64 does not fit */
        snprintf(total, sizeof total, "2^%d", f->bits);
    fputs("<p>Inputs: <code>", out);
    put(out, d->domain);
    if (ga_report_domain_exhaustive(d) && d->count == all)
        fprintf(out, "</code>, every one of the %s %s inputs.</p>\n", total, f->name);
    else
        fprintf(out, "</code>, %s of the %s %s inputs.</p>\n", count, total, f->name);
}

static const char guide[] =
    "<p>How accurately do GELU implementations compute <code>gelu(x) = x·Φ(x)</code> in "
    "each floating-point format? Every implementation of the catalogue runs on the inputs "
    "stated under each format below, and each output is compared with the correctly "
    "rounded result of a certified MPFR ground truth. The definitions of every figure are in "
    "the <a href=\"README.md\">README</a>.</p>\n"
    "<p>A format page shows:</p>\n<ul>\n"
    "<li>the <b>overview plot</b> below: the worst ulp error of each implementation along the "
    "input axis;</li>\n"
    "<li>the <b>summary table</b> against exact GELU: share of correctly rounded and faithful "
    "outputs, maximum, mean and 99th-percentile ulp error, outputs flushed to 0, NaN or "
    "infinite, and the interval where every output is faithful (failures highlighted);</li>\n"
    "<li>the tanh-form implementations against the <b>tanh formula</b> itself, which separates "
    "rounding error from the formula's approximation error;</li>\n"
    "<li>the same tables <b>per region</b> of the input axis (far left tail, left tail, core, "
    "tiny inputs, right, special values) and the <b>worst input</b> of each "
    "implementation;</li>\n"
    "<li>for <b>each implementation</b>: its error against the input, with the underflow "
    "threshold and where it stops being faithful marked, and a histogram of how many format "
    "values lie between its outputs and the correctly rounded ones;</li>\n"
    "<li>the catalogue: the formula each implementation computes and what it models;</li>\n"
    "<li>the <b>real libraries</b>: GELU as PyTorch, oneDNN, SLEEF and Eigen compute it on the "
    "machine named at the top of the page, called through their own entry points, and ONNX "
    "Runtime's outputs graded from files; the same tables, with what ran and what the "
    "libraries refused (their data: FORMAT-real.csv and .json).</li>\n"
    "</ul>\n<p>Reading the error plots: the y axis is logarithmic in ulps of the exact value; "
    "0.5 ulp is correctly rounded, 1 ulp faithful. The grey strip under the plot holds errors "
    "of 0, the one over it errors above 1e8 ulp, infinite outputs and NaN.</p>\n";

/* The audits of the fast oracle (scripts/audit.sh writes their pages into
 * reports/), where they are: a line naming the functions audited. */
static void audit_links(FILE *out, const char *dir)
{
    static const char *const functions[] = { "gelu", "gelu_tanh" };
    char page[64];
    bool any = false;

    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++) {
        snprintf(page, sizeof page, "audit-float32-%s.md", functions[i]);
        if (!exists(dir, page))
            continue;
        fputs(any ? ", " : "<p class=\"nav\">The fast oracle audited against MPFR alone on "
                           "every float32 input: ", out);
        fputs("<a href=\"", out);
        put(out, page);
        fputs("\">", out);
        put(out, functions[i]);
        fputs("</a>", out);
        any = true;
    }
    if (any)
        fputs("</p>\n", out);
}

static int write_index(FILE *out, const void *ctx)
{
    const struct index *ix = ctx;
    char path[GA_PICTURE_PATH_LEN], caption[160], page[64];

    head(out, "GELU accuracy reports");
    fputs("<h1>GELU accuracy reports</h1>\n", out);
    fputs(guide, out);
    if (exists(ix->dir, "facts.html"))
        fputs("<p class=\"nav\"><a href=\"facts.html\">Facts about GELU, checked</a> "
              "(the minimum, the approximations' largest gaps, where each format rounds to "
              "&minus;0), computed with MPFR</p>\n", out);
    audit_links(out, ix->dir);
    fputs("<nav class=\"toc\">\n<ol>\n", out);
    for (size_t i = 0; i < ix->n; i++) {
        fputs("<li><a href=\"#", out);
        put(out, ix->list[i]->name);
        fputs("\">", out);
        put(out, ix->list[i]->name);
        fputs("</a></li>\n", out);
    }
    fputs("<li><a href=\"#approximations\">The approximations themselves</a></li>\n"
          "</ol>\n</nav>\n", out);
    for (size_t i = 0; i < ix->n; i++) {
        const char *name = ix->list[i]->name;
        fputs("<h2 id=\"", out);
        put(out, name);
        fputs("\"><a href=\"", out);
        put(out, name);
        fputs(".html\">", out);
        put(out, name);
        fputs("</a></h2>\n", out);
        measured_on(out, ix->list[i], ix->measured);
        links(out, name, false);
        snprintf(page, sizeof page, "%s-real.json", name);
        if (exists(ix->dir, page)) {
            fputs("<p class=\"nav\"><a href=\"", out);
            put(out, name);
            fputs(".html#real\">Real libraries</a> · Data: <a href=\"", out);
            put(out, name);
            fputs("-real.csv\">CSV</a>, <a href=\"", out);
            put(out, name);
            fputs("-real.json\">JSON</a></p>\n", out);
        }
        if (exists(ix->dir, ga_picture_overview_path(ix->list[i], path))) {
            snprintf(caption, sizeof caption, "%s: worst ulp error of every implementation",
                     name);
            figure(out, path, caption, NULL);
        }
    }
    fputs("<h2 id=\"approximations\">The approximations themselves</h2>\n<p>The tanh form and "
          "quick GELU differ from exact GELU before any rounding: this is the error a perfect "
          "implementation of either still has.</p>\n<div class=\"plots\">\n", out);
    approximation_figures(out, ix->dir);
    fputs("</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}

/* The index's order: bfloat16, float16, float32, then the small formats as
 * the format table lists them. */
static enum ga_format_id index_order(size_t rank)
{
    return rank < GA_FIRST_SMALL_FORMAT ? (enum ga_format_id)(GA_FIRST_SMALL_FORMAT - 1 - rank)
                                        : (enum ga_format_id)rank;
}

enum ga_io_status ga_write_html_index(const char *dir, const struct ga_format *const *formats,
                                      size_t nformats, const struct ga_report_marker *measured,
                                      struct ga_io_error *err)
{
    struct index ix = { .dir = dir, .measured = measured };
    char page[64];

    /* Every format given or whose page is already there (a report of one
     * format keeps the others listed), in the report's order. */
    for (size_t rank = 0; rank < GA_FORMAT_COUNT; rank++) {
        const struct ga_format *f = ga_format_get(index_order(rank));
        bool given = false;
        for (size_t i = 0; i < nformats; i++)
            given |= formats[i] == f;
        snprintf(page, sizeof page, "%s.html", f->name);
        if (given || exists(dir, page))
            ix.list[ix.n++] = f;
    }
    return ga_write_report_file(dir, "index.html", true, write_index, &ix, err);
}
