/* The HTML page of a format (html.h); the index is html_index.c. */
#include "report/html.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "domain/domain.h"
#include "grade/number_text.h"
#include "report/html_escape.h"
#include "report/html_parts.h"
#include "report/pictures.h"
#include "report/report_file.h"
#include "report/report_marker.h"
#include "report/backward_section.h"
#include "report/shape_print.h"
#include "report/cast_section.h"
#include "report/truth_convention.h"

/* Short name for the escaping writer. */
static void put(FILE *out, const char *s)
{
    ga_html_escape(out, s);
}

/* Text whose `quoted` parts are code (a sentence the Markdown page shares). */
static void put_code(FILE *out, const char *s)
{
    bool code = false;
    char part[1024];

    while (*s) {
        size_t len = strcspn(s, "`");
        snprintf(part, sizeof part, "%.*s", (int)len, s);
        put(out, part);
        s += len;
        if (*s == '`') {
            fputs(code ? "</code>" : "<code>", out);
            code = !code;
            s++;
        }
    }
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
        ga_html_figure(out, path, alt, NULL);
    }
    if (ga_picture_distance_path(p->r, p->n, i, path)) {
        snprintf(alt, sizeof alt, "%s on %s: histogram of ordinal distances", r->impl,
                 p->f->name);
        ga_html_figure(out, path, alt, NULL);
    }
    fputs("</div>\n</section>\n", out);
}

static const char regions_intro[] =
    "<p>The same table for each region of the input axis; every input lies in exactly one.</p>\n";

/* Links to the data files of a format; on a format page also to the index
 * and the README. */
static const char highlight_note[] =
    "<p class=\"facts\"><span class=\"bad\">Highlighted</span>: a maximum error above 1 ulp, "
    "or outputs flushed to 0, NaN or infinite where the correctly rounded result is a finite "
    "number, or zeros of the wrong sign.</p>\n";

/* What each long-tensor row's other lengths gave (engine/report_lengths.h). */
static void lengths_table(FILE *out, const struct ga_real_section *rs)
{
    if (!ga_real_section_has_lengths(rs))
        return;
    fputs("<h3>Tensor lengths</h3>\n<p>The rows above call each library on long tensors "
          "(every element in the vector body). Each kernel also ran at one element per call "
          "and at length 67 (the 3 elements after a 64-element vector body), on <code>", out);
    put(out, ga_domain_default(rs->r[0].format));
    fputs("</code> (or the real rows' domain where smaller), and its outputs were compared "
          "bit for bit with the long tensors' (any NaN matching any NaN); a length that "
          "differs has a row of its own above.</p>\n"
          "<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th>"
          "<th>other lengths against long tensors</th></tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < rs->n; i++) {
        if (rs->r[i].machine.lengths == NULL || rs->r[i].reference != GA_GELU)
            continue;
        fputs("<tr><td><code>", out);
        put(out, rs->r[i].impl);
        fputs("</code></td><td>", out);
        put(out, rs->r[i].machine.lengths);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

/* The models claimed to equal the kernels, as checked on the page's inputs
 * (engine/report_proofs.h). */
static void proofs_table(FILE *out, const struct ga_real_section *rs)
{
    char text[512];

    if (!ga_real_section_has_proofs(rs))
        return;
    fputs("<h3>Models checked against these kernels</h3>\n<p>", out);
    put_code(out, GA_PROOFS_INTRO);
    fputs("</p>\n<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th>"
          "<th>model</th><th>on these inputs</th></tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < rs->n; i++) {
        const struct ga_model_proof *p = rs->r[i].machine.proof;
        if (p == NULL || rs->r[i].reference != GA_GELU)
            continue;
        ga_model_proof_text(p, rs->r[i].format, text, sizeof text);
        fputs("<tr><td><code>", out);
        put(out, rs->r[i].impl);
        fputs("</code></td><td><code>", out);
        put(out, p->model);
        fputs("</code></td><td>", out);
        put(out, text);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

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
        lengths_table(out, rs);
        proofs_table(out, rs);
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

/* The page's start: title, how it was made, its domain, what the figures
 * mean and, for real libraries, the machine. */
static void intro(FILE *out, const struct page *p, const char *title)
{
    char c1[GA_TEXT_LEN];

    ga_html_head(out, title);
    ga_html_links(out, p->f->name, true);
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
}

/* The table of contents: one entry per section the page has. */
static void contents(FILE *out, const struct page *p, bool any_tanh)
{
    char path[GA_PICTURE_PATH_LEN], key[GA_PICTURE_PATH_LEN];

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
}

static int write_page(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    const struct ga_format *f = p->f;
    char title[128], path[GA_PICTURE_PATH_LEN];
    char convention[1024];
    bool any_tanh = false;

    for (size_t i = 0; i < p->n; i++)
        any_tanh |= p->r[i].reference == GA_GELU_TANH;
    snprintf(title, sizeof title, "GELU accuracy in %s", f->name);
    intro(out, p, title);
    contents(out, p, any_tanh);

    fputs("<h2 id=\"overview\">Overview</h2>\n", out);
    ga_html_figure(out, ga_picture_overview_path(f, path), "worst ulp error of every implementation",
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
    ga_html_approximation_figures(out, NULL);
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

