/* A report's backward section as Markdown, HTML, CSV and JSON.  The Markdown
 * and HTML tables are the same cells (row_cells), laid out twice. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/backward_print.h"
#include "report/backward_section.h"
#include "report/html_escape.h"
#include "grade/number_text.h"

#define COLUMNS 14
#define ROOT_COLUMNS 7
#define CELL_LEN 160

static const char *const headings[COLUMNS] = {
    "model", "pairs", "correctly rounded %", "faithful %", "max ulp", "mean ulp",
    "max ulp(dy)", "mean ulp(dy)", "sign errors", "NaN", "not NaN", "inf", "wrong 0 sign",
    "worst pair: x, dy → dx (true)",
};
static const char *const root_headings[ROOT_COLUMNS] = {
    "model", "pairs", "correctly rounded %", "faithful %", "max ulp", "sign errors",
    "not faithful for x in",
};

static double mean(double sum, uint64_t n)
{
    return n ? sum / (double)n : NAN;
}

static void count_text(uint64_t v, char *buf)
{
    snprintf(buf, CELL_LEN, "%" PRIu64, v);
}

static void worst_text(const struct ga_format *f, const struct ga_backward_worst *w, char *buf)
{
    char x[GA_TEXT_LEN], dy[GA_TEXT_LEN], dx[GA_TEXT_LEN], t[GA_TEXT_LEN];

    if (w->index == UINT64_MAX) {
        snprintf(buf, CELL_LEN, "-");
        return;
    }
    snprintf(buf, CELL_LEN, "%s, %s → %s (%s)", ga_text_value(f, w->x, x),
             ga_text_value(f, w->dy, dy), ga_text_value(f, w->dx, dx),
             ga_text_value(f, w->truth, t));
}

/* The cells of row i of the main table; bad[k]: worth a highlight. */
static void row_cells(const struct ga_backward_section *s, size_t i, char cell[][CELL_LEN],
                      bool *bad)
{
    const struct ga_backward_region *r = &s->rows[i].stats.all;

    snprintf(cell[0], CELL_LEN, "%s", s->rows[i].impl->name);
    count_text(r->count, cell[1]);
    ga_text_percent(r->correct, r->count, cell[2]);
    ga_text_percent(r->faithful, r->count, cell[3]);
    ga_text_error(r->ulp_count ? r->max_ulp : NAN, cell[4]);
    ga_text_stat(mean(r->sum_ulp, r->ulp_count), cell[5]);
    ga_text_error(r->dy_ulp_count ? r->max_dy_ulp : NAN, cell[6]);
    ga_text_stat(mean(r->sum_dy_ulp, r->dy_ulp_count), cell[7]);
    count_text(r->sign_errors, cell[8]);
    count_text(r->nan_outputs, cell[9]);
    count_text(r->not_nan, cell[10]);
    count_text(r->inf_outputs, cell[11]);
    count_text(r->zero_sign, cell[12]);
    worst_text(s->format, &r->worst, cell[13]);
    memset(bad, 0, COLUMNS * sizeof *bad);
    bad[4] = r->ulp_count && !(r->max_ulp <= 1);
    bad[8] = r->sign_errors > 0;
    bad[9] = r->nan_outputs > 0;
    bad[10] = r->not_nan > 0;
    bad[11] = r->inf_outputs > 0;
    bad[12] = r->zero_sign > 0;
}

static void root_cells(const struct ga_backward_section *s, size_t i, char cell[][CELL_LEN],
                       bool *bad)
{
    const struct ga_backward_stats *st = &s->rows[i].stats;
    const struct ga_backward_region *r = &st->root;
    char lo[GA_TEXT_LEN], hi[GA_TEXT_LEN];

    snprintf(cell[0], CELL_LEN, "%s", s->rows[i].impl->name);
    count_text(r->count, cell[1]);
    ga_text_percent(r->correct, r->count, cell[2]);
    ga_text_percent(r->faithful, r->count, cell[3]);
    ga_text_error(r->ulp_count ? r->max_ulp : NAN, cell[4]);
    count_text(r->sign_errors, cell[5]);
    if (isnan(st->unfaithful_lo))
        snprintf(cell[6], CELL_LEN, "none");
    else  /* x values of the format: decoded exactly */
        snprintf(cell[6], CELL_LEN, "[%s, %s]",
                 ga_text_value(s->format, ga_encode(s->format, st->unfaithful_lo), lo),
                 ga_text_value(s->format, ga_encode(s->format, st->unfaithful_hi), hi));
    memset(bad, 0, ROOT_COLUMNS * sizeof *bad);
    bad[4] = r->ulp_count && !(r->max_ulp <= 1);
    bad[5] = r->sign_errors > 0;
}

typedef void (*cells_fn)(const struct ga_backward_section *, size_t, char[][CELL_LEN], bool *);

static bool any_row(const struct ga_backward_section *s, enum ga_function ref)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].reference == ref)
            return true;
    return false;
}

static void md_table(FILE *out, const struct ga_backward_section *s, enum ga_function ref,
                     const char *const *head, size_t columns, cells_fn cells)
{
    char cell[COLUMNS][CELL_LEN];
    bool bad[COLUMNS];

    for (size_t k = 0; k < columns; k++)
        fprintf(out, "| %s ", head[k]);
    fputs("|\n", out);
    for (size_t k = 0; k < columns; k++)
        fputs(k == 0 ? "|---" : "|---:", out);
    fputs("|\n", out);
    for (size_t i = 0; i < s->n; i++) {
        if (s->rows[i].reference != ref)
            continue;
        cells(s, i, cell, bad);
        fprintf(out, "| `%s` ", cell[0]);
        for (size_t k = 1; k < columns; k++)
            fprintf(out, "| %s ", cell[k]);
        fputs("|\n", out);
    }
    fputc('\n', out);
}

static void html_table(FILE *out, const struct ga_backward_section *s, enum ga_function ref,
                       const char *const *head, size_t columns, cells_fn cells)
{
    char cell[COLUMNS][CELL_LEN];
    bool bad[COLUMNS];

    fputs("<div class=\"scroll\"><table>\n<thead><tr>", out);
    for (size_t k = 0; k < columns; k++) {
        fputs(k == 0 ? "<th>" : "<th class=\"num\">", out);
        ga_html_escape(out, head[k]);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < s->n; i++) {
        if (s->rows[i].reference != ref)
            continue;
        cells(s, i, cell, bad);
        fputs("<tr><td><code>", out);
        ga_html_escape(out, cell[0]);
        fputs("</code></td>", out);
        for (size_t k = 1; k < columns; k++) {
            fputs(bad[k] ? "<td class=\"num bad\">" : "<td class=\"num\">", out);
            ga_html_escape(out, cell[k]);
            fputs("</td>", out);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table></div>\n", out);
}

/* The texts both layouts share. */
static const char intro[] =
    "dx = dy·gelu′(x) as each backward model computes it, against RN(dy·d(x)), d the exact "
    "derivative (dy exact; overflow, underflow and signed zeros as the format rounds them). "
    "ulp errors use the ulp of the exact product; “ulp(dy)” is |dx − dy·d(x)| / ulp(dy), the "
    "error an optimizer sees, which stays small where gelu′ crosses 0 and the ulp error "
    "explodes; a sign error is a nonzero dx of the sign opposite to the exact product. "
    "The worst pair has the largest ulp error, the first in the domain's order.";
static const char heat_intro[] =
    "For PyTorch's backward kernels against their own derivative: the share of pairs not correctly rounded, by "
    "x (128 bins over [−8, 8], then x below and above) and by the exponent of dy (every "
    "exponent field, sign ignored; the bottom row holds the zeros and subnormals, the top "
    "row infinities and NaNs). White: every pair correctly rounded; grey: no pair.";

static const char root_intro[] =
    "The root region, x in [−1, −0.5] around gelu′'s root x₀ ≈ −0.7518: the smallest and "
    "largest x where some dx is not faithful.";

static void domain_text(const struct ga_backward_section *s, char *buf, size_t size)
{
    const char *d = s->domain;

    if (strcmp(d, "pairs:all") == 0)
        snprintf(buf, size, "every (x, dy) pair of %s", s->format->name);
    else if (strncmp(d, "pairs:random:", 13) == 0)
        snprintf(buf, size, "random (x, dy) pairs of %s (`%s`)", s->format->name, d);
    else
        snprintf(buf, size, "x over `%s`, dy = 1", d);
}

static const char *reference_heading(enum ga_function ref)
{
    return ref == GA_GELU_GRAD ? "Against exact gelu′ = Φ(x) + x·φ(x)"
                               : "Tanh forms against the derivative of the tanh formula";
}

int ga_write_backward_markdown(FILE *out, const struct ga_backward_section *s)
{
    char where[GA_DOMAIN_SPEC_LEN + 64], path[GA_HEAT_PATH_LEN];
    static const enum ga_function refs[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };
    bool heat = false;

    domain_text(s, where, sizeof where);
    fprintf(out, "<!-- backward -->\n## Backward: dx = dy·gelu′(x)\n\nGenerated by `%s`; "
                 "%s.\n%s\n\n", s->how, where, intro);
    for (size_t k = 0; k < 2; k++) {
        if (!any_row(s, refs[k]))
            continue;
        fprintf(out, "### %s\n\n", reference_heading(refs[k]));
        md_table(out, s, refs[k], headings, COLUMNS, row_cells);
    }
    fprintf(out, "### The root region, against exact gelu′\n\n%s\n\n", root_intro);
    md_table(out, s, GA_GELU_GRAD, root_headings, ROOT_COLUMNS, root_cells);
    for (size_t i = 0; i < s->n; i++)
        heat |= s->rows[i].heat != NULL;
    if (heat)
        fprintf(out, "### The error over the (x, dy) plane\n\n%s\n\n", heat_intro);
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].heat)
            fprintf(out, "![%s over (x, dy)](%s)\n", s->rows[i].impl->name,
                    ga_backward_heat_path(s, i, path));
    if (heat)
        fputc('\n', out);
    fputs("<!-- /backward -->\n", out);
    return ferror(out) ? -1 : 0;
}

int ga_write_backward_html(FILE *out, const struct ga_backward_section *s)
{
    char where[GA_DOMAIN_SPEC_LEN + 64], path[GA_HEAT_PATH_LEN];
    static const enum ga_function refs[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };
    bool heat = false;

    domain_text(s, where, sizeof where);
    fputs("<!-- backward -->\n<h2 id=\"backward\">Backward: dx = dy·gelu′(x)</h2>\n"
          "<p>Generated by <code>", out);
    ga_html_escape(out, s->how);
    fputs("</code>; ", out);
    ga_html_escape(out, where);
    fputs(". ", out);
    ga_html_escape(out, intro);
    fputs("</p>\n", out);
    for (size_t k = 0; k < 2; k++) {
        if (!any_row(s, refs[k]))
            continue;
        fputs("<h3>", out);
        ga_html_escape(out, reference_heading(refs[k]));
        fputs("</h3>\n", out);
        html_table(out, s, refs[k], headings, COLUMNS, row_cells);
    }
    fputs("<h3>The root region, against exact gelu′</h3>\n<p>", out);
    ga_html_escape(out, root_intro);
    fputs("</p>\n", out);
    html_table(out, s, GA_GELU_GRAD, root_headings, ROOT_COLUMNS, root_cells);
    for (size_t i = 0; i < s->n; i++)
        heat |= s->rows[i].heat != NULL;
    if (heat) {
        fputs("<h3 id=\"backward-heat\">The error over the (x, dy) plane</h3>\n<p>", out);
        ga_html_escape(out, heat_intro);
        fputs("</p>\n<div class=\"plots\">\n", out);
        for (size_t i = 0; i < s->n; i++)
            if (s->rows[i].heat) {
                fprintf(out, "<figure><img src=\"%s\" alt=\"", ga_backward_heat_path(s, i, path));
                ga_html_escape(out, s->rows[i].impl->name);
                fputs(" over (x, dy)\"><figcaption><code>", out);
                ga_html_escape(out, s->rows[i].impl->name);
                fputs("</code></figcaption></figure>\n", out);
            }
        fputs("</div>\n", out);
    }
    fputs("<!-- /backward -->\n", out);
    return ferror(out) ? -1 : 0;
}

static void csv_region(FILE *out, const struct ga_backward_section *s, size_t i,
                       const char *name, const struct ga_backward_region *r)
{
    const struct ga_format *f = s->format;
    char x[GA_BITS_TEXT_LEN] = "", dy[GA_BITS_TEXT_LEN] = "", dx[GA_BITS_TEXT_LEN] = "",
         t[GA_BITS_TEXT_LEN] = "";

    if (r->worst.index != UINT64_MAX) {
        ga_format_bits(f, r->worst.x, x);
        ga_format_bits(f, r->worst.dy, dy);
        ga_format_bits(f, r->worst.dx, dx);
        ga_format_bits(f, r->worst.truth, t);
    }
    fprintf(out, "%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.17g,%.17g,%.17g,%.17g,%"
            PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,%s,%s\n",
            s->rows[i].impl->name, f->name, ga_function_name(s->rows[i].reference), name,
            r->count, r->correct, r->faithful, r->max_ulp, mean(r->sum_ulp, r->ulp_count),
            r->max_dy_ulp, mean(r->sum_dy_ulp, r->dy_ulp_count), r->sign_errors,
            r->nan_outputs, r->not_nan, r->inf_outputs, r->flushed, r->zero_sign, x, dy, dx, t);
}

int ga_write_backward_csv(FILE *out, const struct ga_backward_section *s)
{
    fputs("impl,format,reference,region,pairs,correctly_rounded,faithful,max_ulp,mean_ulp,"
          "max_dy_ulp,mean_dy_ulp,sign_errors,nan_outputs,not_nan,inf_outputs,flushed,"
          "zero_sign,worst_x,worst_dy,worst_dx,worst_true_dx\n", out);
    for (size_t i = 0; i < s->n; i++) {
        csv_region(out, s, i, "all", &s->rows[i].stats.all);
        csv_region(out, s, i, "root", &s->rows[i].stats.root);
    }
    return ferror(out) ? -1 : 0;
}

int ga_write_backward_json(FILE *out, const struct ga_backward_section *s)
{
    fputs("[\n", out);
    for (size_t i = 0; i < s->n; i++) {
        const struct ga_backward_row *r = &s->rows[i];
        struct ga_backward_sweep sweep = { .name = r->impl->name, .impl = r->impl,
                                           .reference = r->reference, .pairs = &s->pairs };
        if (i > 0)
            fputs(",\n", out);
        if (ga_backward_print_json(out, &sweep, &r->stats) != 0)
            return -1;
    }
    fputs("]\n", out);
    return ferror(out) ? -1 : 0;
}
