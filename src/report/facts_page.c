/* facts.md and facts.html: the facts of report/facts.c as a report page,
 * next to the format pages, written by `gelu-acc report`. */
#include "report/facts.h"

#include <math.h>
#include <stdio.h>

#include "report/report_file.h"

static const char *const minimum_names[2] = { "gelu (exact)", "gelu_tanh" };
static const char *const difference_names[2] = { "gelu_tanh &minus; gelu", "quick &minus; gelu" };
static const char *const difference_md[2] = { "gelu_tanh − gelu", "quick − gelu" };

/* An input's value with the digits its format needs (9 up to float32, as
 * the first pages printed them), and its encoding. */
static void input_text(const struct ga_format *f, ga_bits x, char *buf, size_t len)
{
    char hex[GA_BITS_TEXT_LEN];

    ga_format_bits(f, x, hex);
    snprintf(buf, len, "%.*g (%s)", f->bits > 32 ? 17 : 9, ga_decode(f, x), hex);
}

/* Where fn's truth is -0 in format f: the left tail, or (near) the
 * interval next to zero. */
static void zero_row(FILE *out, const struct ga_facts *k, int f, enum ga_function fn, bool near,
                     bool html)
{
    const struct ga_format *fmt = ga_format_get((enum ga_format_id)f);
    const char *row = html ? "<tr><td>%s</td><td>%s</td></tr>\n" : "| %s | %s |\n";
    const char *minus = html ? "&minus;" : "−";
    char what[128], value[256], x[96];

    snprintf(what, sizeof what, "%s: %s is %s0 %s", fmt->name, ga_function_name(fn), minus,
             near ? "next to zero" : "from");
    if (k->all_zero[f][fn]) {
        fprintf(out, row, what, "every negative input");
        return;
    }
    if (!(near ? k->has_zero_near[f][fn] : k->has_zero_from[f][fn])) {
        fprintf(out, row, what, near ? "no negative input" : "not found");
        return;
    }
    input_text(fmt, near ? k->zero_near[f][fn] : k->zero_from[f][fn], x, sizeof x);
    if (near)
        snprintf(value, sizeof value, "x = %s up to %s0", x, minus);
    else
        snprintf(value, sizeof value, "x = %s and below", x);
    fprintf(out, row, what, value);
}

/* Both minima's values rounded to format f. */
static void minimum_row(FILE *out, const struct ga_facts *k, int f, bool html)
{
    const struct ga_format *fmt = ga_format_get((enum ga_format_id)f);
    const char *row = html ? "<tr><td>%s</td><td>%s</td></tr>\n" : "| %s | %s |\n";
    char what[128], value[256], x[2][96];

    for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
        input_text(fmt, k->minimum_rounded[f][fn], x[fn], sizeof x[fn]);
    snprintf(what, sizeof what, "%s: the minima rounded", fmt->name);
    snprintf(value, sizeof value, "gelu %s, gelu_tanh %s", x[GA_GELU], x[GA_GELU_TANH]);
    fprintf(out, row, what, value);
}

/* One row per fact, in Markdown (html = false) or HTML. */
static void rows(FILE *out, const struct ga_facts *k, bool html)
{
    const struct ga_fact_minimum *m[2] = { &k->gelu_minimum, &k->tanh_minimum };
    const struct ga_fact_largest_difference *d[2] = { &k->tanh_difference, &k->quick_difference };
    const char *row = html ? "<tr><td>%s</td><td>%s</td></tr>\n" : "| %s | %s |\n";
    char what[128], value[256];

    for (int i = 0; i < 2; i++) {
        snprintf(what, sizeof what, "minimum of %s", minimum_names[i]);
        snprintf(value, sizeof value, "at %.17g &le; x &le; %.17g, value %.16g",
                 m[i]->lo, m[i]->hi, m[i]->value);
        if (!html)
            snprintf(value, sizeof value, "at %.17g ≤ x ≤ %.17g, value %.16g",
                     m[i]->lo, m[i]->hi, m[i]->value);
        fprintf(out, row, what, value);
    }
    for (int i = 0; i < 2; i++) {
        /* a Markdown table cell takes no bare | */
        snprintf(what, sizeof what, html ? "largest |%s|" : "largest \\|%s\\|",
                 html ? difference_names[i] : difference_md[i]);
        snprintf(value, sizeof value, "%.7g at x = %s%.13g (%s = %+.7g)", fabs(d[i]->diff),
                 html ? "&plusmn;" : "±", d[i]->x, html ? difference_names[i] : difference_md[i],
                 d[i]->diff);
        fprintf(out, row, what, value);
    }
    for (int f = 0; f < GA_FORMAT_COUNT; f++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            zero_row(out, k, f, (enum ga_function)fn, false, html);
    for (int f = 0; f < GA_FORMAT_COUNT; f++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            if (!k->all_zero[f][fn])
                zero_row(out, k, f, (enum ga_function)fn, true, html);
    for (int f = 0; f < GA_FORMAT_COUNT; f++)
        minimum_row(out, k, f, html);
}

static int write_md(FILE *out, const void *ctx)
{
    fputs("# Facts about GELU, checked\n\n"
          "Each figure is computed by the program with MPFR (`gelu-acc facts`); how, in "
          "doc/mathematics.md, \"Facts, checked\".\n\n| Fact | Value |\n|---|---|\n", out);
    rows(out, ctx, false);
    return ferror(out) ? -1 : 0;
}

static int write_html(FILE *out, const void *ctx)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>Facts about GELU, checked</title>\n<style>\n"
          "body { font-family: sans-serif; max-width: 60em; margin: 2em auto; }\n"
          "td { padding: 0.2em 1em; border-bottom: 1px solid #ddd; }\n"
          "</style>\n</head>\n<body>\n<h1>Facts about GELU, checked</h1>\n"
          "<p>Each figure is computed by the program with MPFR (<code>gelu-acc facts</code>); "
          "how, in doc/mathematics.md, &ldquo;Facts, checked&rdquo;. "
          "<a href=\"index.html\">All reports</a>.</p>\n<table>\n", out);
    rows(out, ctx, true);
    fputs("</table>\n</body>\n</html>\n", out);
    return ferror(out) ? -1 : 0;
}

enum ga_io_status ga_write_facts_pages(const char *dir, const struct ga_facts *facts,
                                       struct ga_io_error *err)
{
    enum ga_io_status s = ga_write_report_file(dir, "facts.md", true, write_md, facts, err);

    return s != GA_IO_OK ? s : ga_write_report_file(dir, "facts.html", true, write_html, facts, err);
}
