/* A report's backward section as Markdown, HTML, CSV and JSON.  The Markdown
 * and HTML tables are the same cells (row_cells), laid out twice. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/backward_print.h"
#include "report/backward_section.h"
#include "report/html_escape.h"
#include "report/json_string.h"
#include "report/plan.h"
#include "grade/number_text.h"

#define COLUMNS 14
#define ROOT_COLUMNS 7
#define CELL_LEN 160

static const char *const headings[COLUMNS] = {
    "model", "pairs", "correctly rounded %", "faithful %", "max ulp", "mean ulp",
    "max ulp(dy)", "mean ulp(dy)", "sign errors", "NaN", "not NaN", "inf", "wrong 0 sign",
    "worst pair: x, dy → dx (true)",
};
static const char *const real_headings[COLUMNS] = {
    "kernel", "pairs", "correctly rounded %", "faithful %", "max ulp", "mean ulp",
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

/* A row of a table: a model's or a real library's. */
struct row_view {
    const char *name;
    enum ga_function reference;
    const struct ga_backward_stats *stats;
};

/* Row i of s's tables: the models' (real false) or the real libraries'. */
static bool view_at(const struct ga_backward_section *s, bool real, size_t i, struct row_view *v)
{
    if (real ? i >= s->n_real : i >= s->n)
        return false;
    if (real)
        *v = (struct row_view){ s->real[i].name, s->real[i].desc->approximates,
                                &s->real[i].stats };
    else
        *v = (struct row_view){ s->rows[i].impl->name, s->rows[i].reference,
                                &s->rows[i].stats };
    return true;
}

/* The cells of a row of the main table; bad[k]: worth a highlight. */
static void row_cells(const struct ga_format *f, const struct row_view *v, char cell[][CELL_LEN],
                      bool *bad)
{
    const struct ga_backward_region *r = &v->stats->all;

    snprintf(cell[0], CELL_LEN, "%s", v->name);
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
    worst_text(f, &r->worst, cell[13]);
    memset(bad, 0, COLUMNS * sizeof *bad);
    bad[4] = r->ulp_count && !(r->max_ulp <= 1);
    bad[8] = r->sign_errors > 0;
    bad[9] = r->nan_outputs > 0;
    bad[10] = r->not_nan > 0;
    bad[11] = r->inf_outputs > 0;
    bad[12] = r->zero_sign > 0;
}

static void root_cells(const struct ga_format *f, const struct row_view *v, char cell[][CELL_LEN],
                       bool *bad)
{
    const struct ga_backward_stats *st = v->stats;
    const struct ga_backward_region *r = &st->root;
    char lo[GA_TEXT_LEN], hi[GA_TEXT_LEN];

    snprintf(cell[0], CELL_LEN, "%s", v->name);
    count_text(r->count, cell[1]);
    ga_text_percent(r->correct, r->count, cell[2]);
    ga_text_percent(r->faithful, r->count, cell[3]);
    ga_text_error(r->ulp_count ? r->max_ulp : NAN, cell[4]);
    count_text(r->sign_errors, cell[5]);
    if (isnan(st->unfaithful_lo))
        snprintf(cell[6], CELL_LEN, "none");
    else  /* x values of the format: decoded exactly */
        snprintf(cell[6], CELL_LEN, "[%s, %s]",
                 ga_text_value(f, ga_encode(f, st->unfaithful_lo), lo),
                 ga_text_value(f, ga_encode(f, st->unfaithful_hi), hi));
    memset(bad, 0, ROOT_COLUMNS * sizeof *bad);
    bad[4] = r->ulp_count && !(r->max_ulp <= 1);
    bad[5] = r->sign_errors > 0;
}

typedef void (*cells_fn)(const struct ga_format *, const struct row_view *, char[][CELL_LEN],
                         bool *);

/* Which rows a table holds: the models' or the real libraries', against ref. */
struct table_rows {
    bool real;
    enum ga_function ref;
};

static bool any_row(const struct ga_backward_section *s, struct table_rows t)
{
    struct row_view v;
    for (size_t i = 0; view_at(s, t.real, i, &v); i++)
        if (v.reference == t.ref)
            return true;
    return false;
}

static void md_table(FILE *out, const struct ga_backward_section *s, struct table_rows t,
                     const char *const *head, size_t columns, cells_fn cells)
{
    char cell[COLUMNS][CELL_LEN];
    bool bad[COLUMNS];
    struct row_view v;

    for (size_t k = 0; k < columns; k++)
        fprintf(out, "| %s ", head[k]);
    fputs("|\n", out);
    for (size_t k = 0; k < columns; k++)
        fputs(k == 0 ? "|---" : "|---:", out);
    fputs("|\n", out);
    for (size_t i = 0; view_at(s, t.real, i, &v); i++) {
        if (v.reference != t.ref)
            continue;
        cells(s->format, &v, cell, bad);
        fprintf(out, "| `%s` ", cell[0]);
        for (size_t k = 1; k < columns; k++)
            fprintf(out, "| %s ", cell[k]);
        fputs("|\n", out);
    }
    fputc('\n', out);
}

static void html_table(FILE *out, const struct ga_backward_section *s, struct table_rows t,
                       const char *const *head, size_t columns, cells_fn cells)
{
    char cell[COLUMNS][CELL_LEN];
    bool bad[COLUMNS];
    struct row_view v;

    fputs("<div class=\"scroll\"><table>\n<thead><tr>", out);
    for (size_t k = 0; k < columns; k++) {
        fputs(k == 0 ? "<th>" : "<th class=\"num\">", out);
        ga_html_escape(out, head[k]);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; view_at(s, t.real, i, &v); i++) {
        if (v.reference != t.ref)
            continue;
        cells(s->format, &v, cell, bad);
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

/* The libraries with a GELU gradient looked for besides those measured
 * (doc/libraries.md, "Backward kernels of real libraries"). */
static const char *const looked_for[] = {
    "XNNPACK (Debian 12, libxnnpack-dev) and Arm NN (libarmnn-dev): inference engines, no "
    "gradients",
    "ONNX Runtime (npm onnxruntime-node, onnxruntime-web): inference builds; its GeluGrad "
    "operator belongs to the training builds, which neither registry ships",
    "TensorFlow, JAX, OpenVINO, ncnn, ggml, mlpack: not packaged in Debian 12",
    "TensorFlow.js (npm @tensorflow/tfjs): not measured; whether it ships a GELU gradient "
    "kernel was not established",
};

static const char real_intro[] =
    "The real libraries' backward kernels over the same pairs as the models above, each "
    "against the derivative it approximates, run in worker processes (`gelu-acc list "
    "--backward` names them; `sweep --backward --impl NAME` measures one). Their figures "
    "depend on the CPU's vector dispatch and the libraries' versions.";

/* The lines of s->not_measured, then the libraries looked for, through put. */
static void not_measured(const struct ga_backward_section *s, FILE *out,
                         void (*put)(FILE *, const char *, size_t))
{
    const char *line = s->not_measured;

    while (*line) {
        size_t len = strcspn(line, "\n");
        put(out, line, len);
        line += len + (line[len] == '\n');
    }
    for (size_t k = 0; k < sizeof looked_for / sizeof looked_for[0]; k++)
        put(out, looked_for[k], strlen(looked_for[k]));
}

static void md_item(FILE *out, const char *text, size_t len)
{
    fprintf(out, "- %.*s\n", (int)len, text);
}

/* A row of another length: "; " and what the length is; "" for long rows. */
static const char *length_joint(const struct ga_backward_real_row *r)
{
    return r->length == GA_REAL_LONG ? "" : "; ";
}

static const char *length_text(const struct ga_backward_real_row *r)
{
    return r->length == GA_REAL_LONG ? "" : ga_real_length_text(r->length);
}

static const char lengths_intro[] =
    "The rows above call each library on long tensors (every pair in the vector body). "
    "Each kernel also ran at one element per call and at length 67 (the 3 pairs after a "
    "64-element vector body), on the pairs named below, and its outputs were compared bit "
    "for bit with the long tensors' (any NaN matching any NaN); a length that differs has "
    "a row of its own above, measured on those pairs.";

static bool any_lengths(const struct ga_backward_section *s)
{
    for (size_t i = 0; i < s->n_real; i++)
        if (s->real[i].lengths[0])
            return true;
    return false;
}

static void md_lengths(FILE *out, const struct ga_backward_section *s)
{
    if (!any_lengths(s))
        return;
    fprintf(out, "#### Tensor lengths\n\n%s Pairs: `%s`.\n\n| kernel | other lengths against "
                 "long tensors |\n|---|---|\n", lengths_intro, s->length_pairs.spec);
    for (size_t i = 0; i < s->n_real; i++)
        if (s->real[i].lengths[0])
            fprintf(out, "| `%s` | %s |\n", s->real[i].name, s->real[i].lengths);
    fputc('\n', out);
}

static void html_lengths(FILE *out, const struct ga_backward_section *s)
{
    if (!any_lengths(s))
        return;
    fputs("<h4>Tensor lengths</h4>\n<p>", out);
    ga_html_escape(out, lengths_intro);
    fputs(" Pairs: <code>", out);
    ga_html_escape(out, s->length_pairs.spec);
    fputs("</code>.</p>\n<div class=\"scroll\"><table>\n<thead><tr><th>kernel</th><th>other "
          "lengths against long tensors</th></tr></thead>\n<tbody>\n", out);
    for (size_t i = 0; i < s->n_real; i++) {
        if (!s->real[i].lengths[0])
            continue;
        fputs("<tr><td><code>", out);
        ga_html_escape(out, s->real[i].name);
        fputs("</code></td><td>", out);
        ga_html_escape(out, s->real[i].lengths);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

static void md_real(FILE *out, const struct ga_backward_section *s)
{
    static const enum ga_function refs[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

    fprintf(out, "<!-- real libraries -->\n### Real libraries' backward kernels\n\n"
                 "Machine: %s.\n%s\n\n", s->machine, real_intro);
    for (size_t k = 0; k < 2; k++)
        if (any_row(s, (struct table_rows){ true, refs[k] })) {
            fprintf(out, "#### %s\n\n", reference_heading(refs[k]));
            md_table(out, s, (struct table_rows){ true, refs[k] }, real_headings, COLUMNS,
                     row_cells);
        }
    if (s->n_real) {
        fputs("#### What ran\n\n| kernel | library, call | formula | precision |\n"
              "|---|---|---|---|\n", out);
        for (size_t i = 0; i < s->n_real; i++)
            fprintf(out, "| `%s` | %s %s: %s%s%s | %s | %s |\n", s->real[i].name,
                    s->real[i].desc->library, s->real[i].about.version,
                    s->real[i].desc->entry, length_joint(&s->real[i]),
                    length_text(&s->real[i]), s->real[i].desc->formula,
                    s->real[i].desc->computes);
        fputc('\n', out);
    }
    md_lengths(out, s);
    fputs("#### Not measured here\n\n", out);
    not_measured(s, out, md_item);
    fputs("\n<!-- /real libraries -->\n", out);
}

static void html_item(FILE *out, const char *text, size_t len)
{
    char buf[1024];

    snprintf(buf, sizeof buf, "%.*s", (int)len, text);
    fputs("<li>", out);
    ga_html_escape(out, buf);
    fputs("</li>\n", out);
}

static void html_real(FILE *out, const struct ga_backward_section *s)
{
    static const enum ga_function refs[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

    fputs("<!-- real libraries -->\n<h3 id=\"backward-real\">Real libraries' backward "
          "kernels</h3>\n<p>Machine: ", out);
    ga_html_escape(out, s->machine);
    fputs(". ", out);
    ga_html_escape(out, real_intro);
    fputs("</p>\n", out);
    for (size_t k = 0; k < 2; k++)
        if (any_row(s, (struct table_rows){ true, refs[k] })) {
            fputs("<h4>", out);
            ga_html_escape(out, reference_heading(refs[k]));
            fputs("</h4>\n", out);
            html_table(out, s, (struct table_rows){ true, refs[k] }, real_headings, COLUMNS,
                       row_cells);
        }
    if (s->n_real) {
        fputs("<h4>What ran</h4>\n<div class=\"scroll\"><table>\n<thead><tr><th>kernel</th>"
              "<th>library, call</th><th>formula</th><th>precision</th></tr></thead>\n"
              "<tbody>\n", out);
        for (size_t i = 0; i < s->n_real; i++) {
            const struct ga_backward_real_row *r = &s->real[i];
            char call[512];
            const char *cells[] = { call, r->desc->formula, r->desc->computes };
            snprintf(call, sizeof call, "%s %s: %s%s%s", r->desc->library, r->about.version,
                     r->desc->entry, length_joint(r), length_text(r));
            fputs("<tr><td><code>", out);
            ga_html_escape(out, r->name);
            fputs("</code></td>", out);
            for (size_t k = 0; k < 3; k++) {
                fputs("<td>", out);
                ga_html_escape(out, cells[k]);
                fputs("</td>", out);
            }
            fputs("</tr>\n", out);
        }
        fputs("</tbody>\n</table></div>\n", out);
    }
    html_lengths(out, s);
    fputs("<h4>Not measured here</h4>\n<ul>\n", out);
    not_measured(s, out, html_item);
    fputs("</ul>\n<!-- /real libraries -->\n", out);
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
        if (!any_row(s, (struct table_rows){ false, refs[k] }))
            continue;
        fprintf(out, "### %s\n\n", reference_heading(refs[k]));
        md_table(out, s, (struct table_rows){ false, refs[k] }, headings, COLUMNS, row_cells);
    }
    fprintf(out, "### The root region, against exact gelu′\n\n%s\n\n", root_intro);
    md_table(out, s, (struct table_rows){ false, GA_GELU_GRAD }, root_headings, ROOT_COLUMNS,
             root_cells);
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
    md_real(out, s);
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
        if (!any_row(s, (struct table_rows){ false, refs[k] }))
            continue;
        fputs("<h3>", out);
        ga_html_escape(out, reference_heading(refs[k]));
        fputs("</h3>\n", out);
        html_table(out, s, (struct table_rows){ false, refs[k] }, headings, COLUMNS, row_cells);
    }
    fputs("<h3>The root region, against exact gelu′</h3>\n<p>", out);
    ga_html_escape(out, root_intro);
    fputs("</p>\n", out);
    html_table(out, s, (struct table_rows){ false, GA_GELU_GRAD }, root_headings, ROOT_COLUMNS,
               root_cells);
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
    html_real(out, s);
    fputs("<!-- /backward -->\n", out);
    return ferror(out) ? -1 : 0;
}

static void csv_region(FILE *out, const struct ga_format *f, const struct row_view *v,
                       const char *name, const struct ga_backward_region *r)
{
    char x[GA_BITS_TEXT_LEN] = "", dy[GA_BITS_TEXT_LEN] = "", dx[GA_BITS_TEXT_LEN] = "",
         t[GA_BITS_TEXT_LEN] = "";

    if (r->worst.index != UINT64_MAX) {
        ga_format_bits(f, r->worst.x, x);
        ga_format_bits(f, r->worst.dy, dy);
        ga_format_bits(f, r->worst.dx, dx);
        ga_format_bits(f, r->worst.truth, t);
    }
    fprintf(out, "%s,%s,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.17g,%.17g,%.17g,%.17g,%"
            PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,%s,%s",
            v->name, f->name, ga_function_name(v->reference), name,
            r->count, r->correct, r->faithful, r->max_ulp, mean(r->sum_ulp, r->ulp_count),
            r->max_dy_ulp, mean(r->sum_dy_ulp, r->dy_ulp_count), r->sign_errors,
            r->nan_outputs, r->not_nan, r->inf_outputs, r->flushed, r->zero_sign, x, dy, dx, t);
}

static const char csv_head[] =
    "impl,format,reference,region,pairs,correctly_rounded,faithful,max_ulp,mean_ulp,"
    "max_dy_ulp,mean_dy_ulp,sign_errors,nan_outputs,not_nan,inf_outputs,flushed,"
    "zero_sign,worst_x,worst_dy,worst_dx,worst_true_dx";

int ga_write_backward_csv(FILE *out, const struct ga_backward_section *s)
{
    struct row_view v;

    fprintf(out, "%s\n", csv_head);
    for (size_t i = 0; view_at(s, false, i, &v); i++) {
        csv_region(out, s->format, &v, "all", &v.stats->all);
        fputc('\n', out);
        csv_region(out, s->format, &v, "root", &v.stats->root);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

/* Row v of s as 'sweep --backward --json' writes it; with real (NULL for a
 * model), the keys of a real row too: the machine, the library, its
 * version, call, code path and other lengths. */
static int json_row(FILE *out, const struct ga_backward_section *s, const struct row_view *v,
                    const struct ga_backward_real_row *real)
{
    struct ga_backward_sweep sweep = { .name = v->name, .reference = v->reference,
                                       .pairs = real && real->length != GA_REAL_LONG
                                                    ? &s->length_pairs
                                                    : &s->pairs };
    struct ga_report_machine_text text;
    struct ga_result_machine m;

    if (!real)
        return ga_backward_print_json(out, &sweep, v->stats, NULL);
    ga_report_call_machine(real->desc->library, real->desc->entry, real->length, &real->about,
                           &text, &m);
    m.lengths = real->lengths[0] ? real->lengths : NULL;
    return ga_backward_print_json(out, &sweep, v->stats, &m);
}

static int json_rows(FILE *out, const struct ga_backward_section *s, bool real)
{
    struct row_view v;

    fputs("[\n", out);
    for (size_t i = 0; view_at(s, real, i, &v); i++)
        if ((i > 0 && fputs(",\n", out) == EOF)
            || json_row(out, s, &v, real ? &s->real[i] : NULL) != 0)
            return -1;
    fputs("]\n", out);
    return ferror(out) ? -1 : 0;
}

int ga_write_backward_json(FILE *out, const struct ga_backward_section *s)
{
    return json_rows(out, s, false);
}

int ga_write_backward_real_json(FILE *out, const struct ga_backward_section *s)
{
    return json_rows(out, s, true);
}

/* A CSV field: quoted, its quotes doubled. */
static void csv_text(FILE *out, const char *v)
{
    fputc('"', out);
    for (; *v; v++)
        fputs(*v == '"' ? "\"\"" : (char[2]){ *v, 0 }, out);
    fputc('"', out);
}

int ga_write_backward_real_csv(FILE *out, const struct ga_backward_section *s)
{
    static const char *const regions[] = { "all", "root" };
    struct row_view v;

    /* the forward real rows' columns (report/csv.c) */
    fprintf(out, "%s,cpu,isa,library,version,call,path,lengths\n", csv_head);
    for (size_t i = 0; view_at(s, true, i, &v); i++) {
        const struct ga_backward_real_row *real = &s->real[i];
        struct ga_report_machine_text text;
        struct ga_result_machine m;
        ga_report_call_machine(real->desc->library, real->desc->entry, real->length,
                               &real->about, &text, &m);
        for (int k = 0; k < 2; k++) {
            const char *fields[] = { m.cpu, m.isa, m.library, m.version, m.call, m.path,
                                     real->lengths };
            csv_region(out, s->format, &v, regions[k], k ? &v.stats->root : &v.stats->all);
            for (size_t q = 0; q < sizeof fields / sizeof fields[0]; q++) {
                fputc(',', out);
                csv_text(out, fields[q]);
            }
            fputc('\n', out);
        }
    }
    return ferror(out) ? -1 : 0;
}
