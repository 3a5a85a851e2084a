/* The index page of a report (html.h): a short guide, and for each format
 * what its tables measured, a link to its page and its overview plot. */
#include "report/html.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "grade/number_text.h"
#include "report/html_escape.h"
#include "report/html_parts.h"
#include "report/pictures.h"
#include "report/report_file.h"
#include "report/report_marker.h"

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
    ga_html_escape(out, d->domain);
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
        if (!ga_html_file_exists(dir, page))
            continue;
        fputs(any ? ", " : "<p class=\"nav\">The fast oracle audited against MPFR alone on "
                           "every float32 input: ", out);
        fputs("<a href=\"", out);
        ga_html_escape(out, page);
        fputs("\">", out);
        ga_html_escape(out, functions[i]);
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

    ga_html_head(out, "GELU accuracy reports");
    fputs("<h1>GELU accuracy reports</h1>\n", out);
    fputs(guide, out);
    if (ga_html_file_exists(ix->dir, "facts.html"))
        fputs("<p class=\"nav\"><a href=\"facts.html\">Facts about GELU, checked</a> "
              "(the minimum, the approximations' largest gaps, where each format rounds to "
              "&minus;0), computed with MPFR</p>\n", out);
    audit_links(out, ix->dir);
    fputs("<nav class=\"toc\">\n<ol>\n", out);
    for (size_t i = 0; i < ix->n; i++) {
        fputs("<li><a href=\"#", out);
        ga_html_escape(out, ix->list[i]->name);
        fputs("\">", out);
        ga_html_escape(out, ix->list[i]->name);
        fputs("</a></li>\n", out);
    }
    fputs("<li><a href=\"#approximations\">The approximations themselves</a></li>\n"
          "</ol>\n</nav>\n", out);
    for (size_t i = 0; i < ix->n; i++) {
        const char *name = ix->list[i]->name;
        fputs("<h2 id=\"", out);
        ga_html_escape(out, name);
        fputs("\"><a href=\"", out);
        ga_html_escape(out, name);
        fputs(".html\">", out);
        ga_html_escape(out, name);
        fputs("</a></h2>\n", out);
        measured_on(out, ix->list[i], ix->measured);
        ga_html_links(out, name, false);
        snprintf(page, sizeof page, "%s-real.json", name);
        if (ga_html_file_exists(ix->dir, page)) {
            fputs("<p class=\"nav\"><a href=\"", out);
            ga_html_escape(out, name);
            fputs(".html#real\">Real libraries</a> · Data: <a href=\"", out);
            ga_html_escape(out, name);
            fputs("-real.csv\">CSV</a>, <a href=\"", out);
            ga_html_escape(out, name);
            fputs("-real.json\">JSON</a></p>\n", out);
        }
        if (ga_html_file_exists(ix->dir, ga_picture_overview_path(ix->list[i], path))) {
            snprintf(caption, sizeof caption, "%s: worst ulp error of every implementation",
                     name);
            ga_html_figure(out, path, caption, NULL);
        }
    }
    fputs("<h2 id=\"approximations\">The approximations themselves</h2>\n<p>The tanh form and "
          "quick GELU differ from exact GELU before any rounding: this is the error a perfect "
          "implementation of either still has.</p>\n<div class=\"plots\">\n", out);
    ga_html_approximation_figures(out, ix->dir);
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
        if (given || ga_html_file_exists(dir, page))
            ix.list[ix.n++] = f;
    }
    return ga_write_report_file(dir, "index.html", true, write_index, &ix, err);
}
