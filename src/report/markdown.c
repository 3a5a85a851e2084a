/* A Markdown page of error tables for one format: the tables people publish. */
#include <string.h>

#include "grade/number_text.h"
#include "domain/domain.h"
#include "report/result.h"
#include "report/shape_print.h"
#include "report/truth_convention.h"

static void summary_row(FILE *out, const struct ga_result *r, const struct ga_summary *s)
{
    const struct ga_format *f = r->format;
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN], d[GA_TEXT_LEN];
    char e[GA_TEXT_LEN], g[GA_TEXT_LEN], h[GA_TEXT_LEN], interval[GA_INTERVAL_LEN];

    fprintf(out, "| `%s` | %llu | %s | %s | %s | %s | %s | %s | %s | %llu | %llu | %llu | %llu |",
            r->impl, (unsigned long long)s->count,
            ga_text_percent(s->correctly_rounded, s->count, a),
            ga_text_percent(s->faithful, s->count, b),
            s->max_ulp.has ? ga_text_error(s->max_ulp.error, c) : "-",
            s->max_ulp.has ? ga_text_value(f, s->max_ulp.x, d) : "-",
            ga_text_stat(s->mean_ulp, e), ga_text_stat(s->p99, g),
            s->max_rel.has ? ga_text_error(s->max_rel.error, h) : "-",
            (unsigned long long)s->flushed_to_zero, (unsigned long long)s->nan,
            (unsigned long long)s->inf, (unsigned long long)s->wrong_zero_sign);
    if (s->region == GA_REGION_ALL)
        fprintf(out, " %s | %s |", ga_text_interval(f, &s->faithful_interval, interval),
                s->has_zero_below ? ga_text_value(f, s->zero_below, a) : "-");
    fputc('\n', out);
}

static void table_header(FILE *out, bool whole)
{
    fprintf(out, "| implementation | inputs | correctly rounded %% | faithful %% | max ulp | "
                 "at x | mean ulp | p99 ulp | max rel | flushed to 0 | NaN | inf | wrong 0 sign |%s\n",
            whole ? " faithful on | all 0 below |" : "");
    fprintf(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|%s\n",
            whole ? "---|--:|" : "");
}

static void summary_table(FILE *out, const struct ga_result *r, size_t n, enum ga_function ref,
                          int region)
{
    table_header(out, region == GA_REGION_ALL);
    for (size_t i = 0; i < n; i++)
        if (r[i].reference == ref)
            summary_row(out, &r[i], &r[i].region[region]);
    fputc('\n', out);
}

/* What each long-tensor row's other lengths gave (engine/report_lengths.h). */
static void lengths_table(FILE *out, const struct ga_real_section *rs)
{
    if (!ga_real_section_has_lengths(rs))
        return;
    fprintf(out, "### Tensor lengths\n\n"
                 "The rows above call each library on long tensors (every element in the "
                 "vector body). Each kernel also ran at one element per call and at length 67 "
                 "(the 3 elements after a 64-element vector body), on `%s` (or the real rows' "
                 "domain where smaller), and its outputs were compared bit for bit with the "
                 "long tensors' (any NaN matching any NaN); a length that differs has a row of "
                 "its own above.\n\n"
                 "| implementation | other lengths against long tensors |\n|---|---|\n",
            ga_domain_default(rs->r[0].format));
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].machine.lengths != NULL && rs->r[i].reference == GA_GELU)
            fprintf(out, "| `%s` | %s |\n", rs->r[i].impl, rs->r[i].machine.lengths);
    fputc('\n', out);
}

/* The models claimed to equal the kernels, as checked on the page's inputs
 * (engine/report_proofs.h). */
static void proofs_table(FILE *out, const struct ga_real_section *rs)
{
    char text[512];

    if (!ga_real_section_has_proofs(rs))
        return;
    fprintf(out, "### Models checked against these kernels\n\n%s\n\n"
                 "| implementation | model | on these inputs |\n|---|---|---|\n", GA_PROOFS_INTRO);
    for (size_t i = 0; i < rs->n; i++) {
        const struct ga_model_proof *p = rs->r[i].machine.proof;
        if (p == NULL || rs->r[i].reference != GA_GELU)
            continue;
        ga_model_proof_text(p, rs->r[i].format, text, sizeof text);
        fprintf(out, "| `%s` | `%s` | %s |\n", rs->r[i].impl, p->model, text);
    }
    fputc('\n', out);
}

/* The real libraries: their tables, what ran, what did not. */
static void real_section(FILE *out, const struct ga_real_section *rs)
{
    bool any_tanh = false;

    for (size_t i = 0; i < rs->n; i++)
        any_tanh |= rs->r[i].reference == GA_GELU_TANH;
    fprintf(out, "<!-- real libraries -->\n## Real libraries\n\n"
                 "GELU as the libraries compute it on this machine, called through their own "
                 "entry points (`gelu-acc list` shows each call; they run in worker processes "
                 "like plugins). The tables above are models; `tests/real_models_test` checks "
                 "bit for bit that the models naming a library compute what it computes. "
                 "These figures depend on the CPU's vector dispatch: `make check` compares "
                 "them only with a run on the same CPU model, ISA and library versions "
                 "(the line at the top of the page). Domain: `%s`",
            rs->n ? rs->r[0].domain : "-");
    for (size_t i = 1; i < rs->n; i++) {
        if (!ga_real_section_new_domain(rs, i))
            continue;
        fprintf(out, "; `%s` for", rs->r[i].domain);
        for (size_t k = i; k < rs->n; k++)
            if (rs->r[k].reference == GA_GELU && strcmp(rs->r[k].domain, rs->r[i].domain) == 0)
                fprintf(out, " `%s`", rs->r[k].impl);
    }
    fprintf(out, ".\n\n");
    if (rs->n) {
        fprintf(out, "### Against exact GELU\n\n");
        summary_table(out, rs->r, rs->n, GA_GELU, GA_REGION_ALL);
    }
    if (any_tanh) {
        fprintf(out, "### Tanh forms against the tanh formula\n\n");
        summary_table(out, rs->r, rs->n, GA_GELU_TANH, GA_REGION_ALL);
    }
    if (rs->n) {
        fprintf(out, "### What ran\n\n| implementation | library, call and code path | "
                     "formula | precision |\n|---|---|---|---|\n");
        for (size_t i = 0; i < rs->n; i++)
            if (rs->r[i].reference == GA_GELU)
                fprintf(out, "| `%s` | %s | %s | %s |\n", rs->r[i].impl, rs->r[i].models,
                        rs->r[i].formula, rs->r[i].computes);
        fputc('\n', out);
        lengths_table(out, rs);
        proofs_table(out, rs);
        ga_shape_write_table(out, rs->r[0].format, rs->r, rs->n, false, 3);
        fputc('\n', out);
    }
    if (rs->not_measured[0]) {
        const char *line = rs->not_measured;
        fprintf(out, "### Not measured here\n\n");
        while (*line) {
            size_t len = strcspn(line, "\n");
            fprintf(out, "- %.*s\n", (int)len, line);
            line += len + (line[len] == '\n');
        }
        fputc('\n', out);
    }
    fprintf(out, "<!-- /real libraries -->\n");
}

int ga_write_markdown(FILE *out, const struct ga_format *f, const struct ga_result *r,
                      size_t n, const char *how_generated)
{
    return ga_write_markdown_page(out, f, r, n, how_generated, NULL);
}

int ga_write_markdown_page(FILE *out, const struct ga_format *f, const struct ga_result *r,
                           size_t n, const char *how_generated,
                           const struct ga_real_section *rs)
{
    bool any_tanh = false;
    char convention[1024];

    fprintf(out, "# GELU accuracy in %s\n\n", f->name);
    fprintf(out, "Generated by `%s` — do not edit by hand. Domain: `%s`.\n"
                 "Errors are measured against the correctly rounded ground truth and the exact\n"
                 "value computed by MPFR (definitions: [README](README.md)). ulp errors use the\n"
                 "ulp of the exact value; \"faithful on\" is the widest interval around 0 where\n"
                 "every output is within 1 ulp; \"all 0 below\" is the input below which every\n"
                 "output is ±0.\n\n",
            how_generated, n ? r[0].domain : "-");
    if (!ga_is_enumerable(f))
        fprintf(out, "A sample of the 2^%d %s inputs.  The exact value is held in a double\n"
                     "and a float beyond it (74 bits): the counts (correctly rounded, faithful,\n"
                     "flushed, ...) are exact, the ulp, relative and absolute errors good to\n"
                     "2^-20 ulp.\n\n", f->bits, f->name);
    if (rs != NULL)
        fprintf(out, "<!-- machine -->\nReal libraries measured on: %s.\n<!-- /machine -->\n\n",
                rs->machine);
    for (size_t i = 0; i < n; i++)
        any_tanh |= r[i].reference == GA_GELU_TANH;

    fprintf(out, "## Against exact GELU\n\n`gelu(x) = x·Φ(x)`, correctly rounded to %s.\n\n", f->name);
    ga_truth_convention_text(f, convention, sizeof convention);
    if (convention[0])
        fprintf(out, "%s\n\n", convention);
    summary_table(out, r, n, GA_GELU, GA_REGION_ALL);
    if (any_tanh) {
        fprintf(out, "## Tanh-form implementations against the tanh formula\n\n"
                     "`gelu_tanh(x) = (x/2)(1 + tanh(√(2/π)(x + 0.044715x³)))` taken exactly: "
                     "this separates the rounding error of an implementation from the "
                     "approximation error of the formula.\n\n");
        summary_table(out, r, n, GA_GELU_TANH, GA_REGION_ALL);
    }
    fprintf(out, "## By region, against exact GELU\n\n");
    for (int g = 0; g < GA_REGION_COUNT; g++) {
        fprintf(out, "### %s: %s\n\n", ga_region_name((enum ga_region)g),
                ga_region_description((enum ga_region)g));
        summary_table(out, r, n, GA_GELU, g);
    }
    fprintf(out, "## Worst inputs against exact GELU\n\n"
                 "| implementation | max ulp | input | output | exact |\n|---|--:|---|---|---|\n");
    for (size_t i = 0; i < n; i++) {
        const struct ga_point *p = &r[i].region[GA_REGION_ALL].max_ulp;
        char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN], d[GA_TEXT_LEN], hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN];
        if (r[i].reference != GA_GELU || !p->has)
            continue;
        ga_format_bits(f, p->x, hx);
        ga_format_bits(f, p->y, hy);
        fprintf(out, "| `%s` | %s | %s (`%s`) | %s (`%s`) | %s |\n", r[i].impl, ga_text_error(p->error, a),
                ga_text_value(f, p->x, b), hx, ga_text_value(f, p->y, c), hy,
                ga_text_exact(&p->exact, d));
    }
    fputc('\n', out);
    ga_shape_write_table(out, f, r, n, false, 2);
    fprintf(out, "\n## Implementations\n\n| implementation | approximates | formula as computed | "
                 "precision | models |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < n; i++)
        if (r[i].reference == GA_GELU)  /* one row per implementation */
            fprintf(out, "| `%s` | %s | `%s` | %s | %s |\n", r[i].impl,
                    ga_function_name(r[i].approximates), r[i].formula, r[i].computes,
                    r[i].models);
    if (rs != NULL) {
        fputc('\n', out);
        real_section(out, rs);
    }
    return ferror(out) ? -1 : 0;
}
