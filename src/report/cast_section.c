/* GELU fused with a cast, as a report section (cast_section.h). */
#include "report/cast_section.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "grade/number_text.h"

enum { COLUMNS = 10 };

static const char *const headings[COLUMNS] = {
    "truth overflow", "model", "inputs", "correctly rounded %", "faithful %", "NaN", "inf",
    "±largest", "max ulp below the threshold", "at x",
};

/* The cells of tally t, as text. */
static void row(const struct ga_cast_result *r, const struct ga_cast_tally *t,
                char cells[COLUMNS][GA_TEXT_LEN])
{
    snprintf(cells[0], GA_TEXT_LEN, "%s", ga_overflow_name(t->truth));
    snprintf(cells[1], GA_TEXT_LEN, "%s", t->model->name);
    snprintf(cells[2], GA_TEXT_LEN, "%" PRIu64, t->count);
    ga_text_percent(t->correct, t->count, cells[3]);
    ga_text_percent(t->faithful, t->count, cells[4]);
    snprintf(cells[5], GA_TEXT_LEN, "%" PRIu64, t->nan);
    snprintf(cells[6], GA_TEXT_LEN, "%" PRIu64, t->inf);
    snprintf(cells[7], GA_TEXT_LEN, "%" PRIu64, t->saturated);
    if (t->has_max) {
        ga_text_error(t->max_ulp, cells[8]);
        ga_text_value(r->in, t->max_ulp_input, cells[9]);
    } else {
        strcpy(cells[8], "-");
        strcpy(cells[9], "-");
    }
}

/* The explanation, the same words in both forms (no markup). */
static void intro(FILE *out, const struct ga_cast_result *r)
{
    char largest[GA_TEXT_LEN];

    snprintf(largest, sizeof largest, "%.9g", ga_decode(r->out, ga_max_finite(r->out, false)));
    fprintf(out, "A fused GELU and cast (the FP8 epilogues of Transformer Engine, cuDNN and "
            "vLLM) takes a wider input, computes GELU in float32 and converts the result once "
            "into %s. Inputs: %" PRIu64 " %s encodings (domain %s). The truth is gelu(x) "
            "correctly rounded into %s under each overflow convention, by the MPFR oracle "
            "(gelu-acc truth --format %s --input-format %s --overflow CONVENTION). "
            "%" PRIu64 " of the inputs have a GELU that rounds past the largest finite "
            "value, %s (+inf included): there saturation gives ±%s and NaN-on-overflow gives "
            "NaN (an infinite GELU stays infinite where the format has infinities), in the "
            "truth and in the models' conversions alike. Everywhere else the conventions "
            "agree.",
            r->out->name, r->inputs, r->in->name, r->domain_spec, r->out->name, r->out->name,
            r->in->name, r->beyond, largest, largest);
}

/* One writer for both forms, as in shape_print.c: the same section with the
 * markup of one of them, so that the two cannot drift apart. */
static int write_section(FILE *out, const struct ga_cast_result *r, bool html)
{
    char cells[COLUMNS][GA_TEXT_LEN];

    fprintf(out, html ? "<h2 id=\"cast\">GELU fused with a cast from %s</h2>\n<p>"
                      : "## GELU fused with a cast from %s\n\n", r->in->name);
    intro(out, r);
    fputs(html ? "</p>\n<div class=\"scroll\"><table>\n<thead><tr>" : "\n\n|", out);
    for (int c = 0; c < COLUMNS; c++)
        fprintf(out, html ? "<th>%s</th>" : " %s |", headings[c]);
    fputs(html ? "</tr></thead>\n<tbody>\n" : "\n|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n",
          out);
    for (size_t i = 0; i < r->n; i++) {
        row(r, &r->tally[i], cells);
        fputs(html ? "<tr>" : "|", out);
        for (int c = 0; c < COLUMNS; c++)  /* the convention and the model are names */
            fprintf(out, html ? (c < 2 ? "<td><code>%s</code></td>" : "<td class=\"num\">%s</td>")
                              : (c == 1 ? " `%s` |" : " %s |"),
                    cells[c]);
        fputs(html ? "</tr>\n" : "\n", out);
    }
    fputs(html ? "</tbody>\n</table></div>\n<ul>\n" : "\n", out);
    for (size_t k = 0; k < ga_cast_model_count(); k++)
        fprintf(out, html ? "<li><code>%s</code>: %s</li>\n" : "- `%s`: %s\n",
                ga_cast_model_at(k)->name, ga_cast_model_at(k)->models);
    if (html)
        fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}

int ga_write_cast_markdown(FILE *out, const struct ga_cast_result *r)
{
    return write_section(out, r, false);
}

int ga_write_cast_html(FILE *out, const struct ga_cast_result *r)
{
    return write_section(out, r, true);
}
