/* facts.md and facts.html: the facts of report/facts.c as a report page,
 * next to the format pages, written by `gelu-acc report`. */
#include "report/facts.h"

#include <math.h>
#include <stdio.h>

#include "report/report_file.h"

static const char *const minimum_names[2] = { "gelu (exact)", "gelu_tanh" };
static const char *const difference_names[2] = { "gelu_tanh &minus; gelu", "quick &minus; gelu" };
static const char *const difference_md[2] = { "gelu_tanh − gelu", "quick − gelu" };

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
    for (int f = 0; f < GA_FIRST_SMALL_FORMAT; f++) {  /* the wide formats */
        const struct ga_format *fmt = ga_format_get((enum ga_format_id)f);
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            char hex[GA_BITS_TEXT_LEN];
            snprintf(what, sizeof what, "%s: %s is %s0 from", fmt->name,
                     ga_function_name((enum ga_function)fn), html ? "&minus;" : "−");
            if (!k->has_zero_from[f][fn]) {
                fprintf(out, row, what, "not found");
                continue;
            }
            ga_format_bits(fmt, k->zero_from[f][fn], hex);
            snprintf(value, sizeof value, "x = %.9g (%s) and below", ga_decode(fmt, k->zero_from[f][fn]),
                     hex);
            fprintf(out, row, what, value);
        }
    }
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
