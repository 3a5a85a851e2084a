/* The three forms of a comparison (compare_print.h). */
#include "report/compare_print.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "grade/number_text.h"
#include "report/backward_print.h"
#include "report/json_string.h"

void ga_compare_percents(const uint64_t *count, int n, uint64_t total, uint32_t *milli)
{
    uint64_t rest[GA_BUCKET_COUNT], given = 0;

    for (int i = 0; i < n; i++) {
        /* count * 100000 / total without overflow: count <= total <= 2^32 */
        unsigned __int128 scaled = (unsigned __int128)count[i] * 100000u;
        milli[i] = total ? (uint32_t)(scaled / total) : 0;
        rest[i] = total ? (uint64_t)(scaled % total) : 0;
        given += milli[i];
    }
    /* the thousandths still missing go to the largest remainders, the
     * first row first among equal ones */
    while (total && given < 100000) {
        int best = -1;
        for (int i = 0; i < n && i < GA_BUCKET_COUNT; i++)
            if (rest[i] > 0 && (best < 0 || rest[i] > rest[best]))
                best = i;
        if (best < 0)
            break;
        milli[best]++;
        rest[best] = 0;
        given++;
    }
}

static const char *percent_text(uint32_t milli, char buf[GA_TEXT_LEN])
{
    snprintf(buf, GA_TEXT_LEN, "%u.%03u", milli / 1000, milli % 1000);
    return buf;
}

void ga_compare_side_forward(struct ga_compare_side *side, const struct ga_result *r)
{
    const struct ga_summary *all = &r->region[GA_REGION_ALL];

    *side = (struct ga_compare_side){
        .name = r->impl, .count = all->count, .correctly_rounded = all->correctly_rounded,
        .faithful = all->faithful, .max_ulp = all->max_ulp.error, .has_max = all->max_ulp.has,
        .max_x = all->max_ulp.x, .flushed = all->flushed_to_zero, .nan = all->nan + all->not_nan,
        .inf = all->inf, .wrong_zero_sign = all->wrong_zero_sign,
    };
}

void ga_compare_side_backward(struct ga_compare_side *side, const char *name,
                              const struct ga_backward_stats *st)
{
    const struct ga_backward_region *all = &st->all;

    *side = (struct ga_compare_side){
        .name = name, .count = all->count, .correctly_rounded = all->correct,
        .faithful = all->faithful, .max_ulp = all->max_ulp,
        .has_max = all->worst.index != UINT64_MAX, .max_x = all->worst.x,
        .max_dy = all->worst.dy, .flushed = all->flushed, .nan = all->nan_outputs + all->not_nan,
        .inf = all->inf_outputs, .wrong_zero_sign = all->zero_sign,
        .sign_errors = all->sign_errors,
    };
}

static const char *oracle_name(const struct ga_compare_sides *s)
{
    return s->oracle == GA_ORACLE_FAST ? "fast" : "mpfr";
}

/* What one input is called: a forward input, a backward pair. */
static const char *unit(const struct ga_compare_tally *t)
{
    return t->backward ? "pairs" : "inputs";
}

/* A side's summary on one line, then its failures by kind. */
static void text_side(FILE *out, const char *label, const struct ga_compare_side *side,
                      const struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], e[GA_TEXT_LEN], x[GA_TEXT_LEN], hx[GA_BITS_TEXT_LEN];

    fprintf(out, "  %s  %s: correctly rounded %s %%, faithful %s %%, max ulp %s", label,
            side->name, ga_text_percent(side->correctly_rounded, side->count, a),
            ga_text_percent(side->faithful, side->count, b), ga_text_error(side->max_ulp, e));
    if (side->has_max) {
        ga_format_bits(f, side->max_x, hx);
        fprintf(out, " at x = %s (%s)", ga_text_value(f, side->max_x, x), hx);
    }
    if (side->has_max && t->backward) {
        ga_format_bits(f, side->max_dy, hx);
        fprintf(out, ", dy = %s (%s)", ga_text_value(f, side->max_dy, x), hx);
    }
    fprintf(out, "\n     failures: flushed to 0: %" PRIu64 ", NaN: %" PRIu64 ", inf: %" PRIu64
            ", wrong sign of 0: %" PRIu64, side->flushed, side->nan, side->inf,
            side->wrong_zero_sign);
    if (t->backward)
        fprintf(out, ", sign errors: %" PRIu64, side->sign_errors);
    fputc('\n', out);
}

static void text_buckets(FILE *out, const struct ga_compare_tally *t)
{
    uint32_t pa[GA_BUCKET_COUNT], pb[GA_BUCKET_COUNT];
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN];

    ga_compare_percents(t->bucket[0], GA_BUCKET_COUNT, t->inputs, pa);
    ga_compare_percents(t->bucket[1], GA_BUCKET_COUNT, t->inputs, pb);
    fprintf(out, "\n  %-32s %11s %8s %11s %8s\n", "outputs", t->backward ? "A pairs" : "A inputs",
            "A %", t->backward ? "B pairs" : "B inputs", "B %");
    for (int k = 0; k < GA_BUCKET_COUNT; k++)
        fprintf(out, "  %-32s %11" PRIu64 " %8s %11" PRIu64 " %8s\n", ga_bucket_label(k),
                t->bucket[0][k], percent_text(pa[k], a), t->bucket[1][k], percent_text(pb[k], b));
    fprintf(out, "  %-32s %11" PRIu64 " %8s %11" PRIu64 " %8s\n", "total", t->inputs,
            t->inputs ? "100.000" : "0.000", t->inputs, t->inputs ? "100.000" : "0.000");
}

/* One output as "value (0xbits) N ulp". */
static void text_output(FILE *out, const struct ga_format *f, ga_bits y, double ulp)
{
    char v[GA_TEXT_LEN], e[GA_TEXT_LEN], h[GA_BITS_TEXT_LEN];

    ga_format_bits(f, y, h);
    fprintf(out, "%s (%s) %s ulp", ga_text_value(f, y, v), h, ga_text_error(ulp, e));
}

static void text_points(FILE *out, const struct ga_compare_tally *t, const char *title,
                        const struct ga_compare_point *p, size_t n)
{
    const struct ga_format *f = t->format;
    char x[GA_TEXT_LEN], v[GA_TEXT_LEN], h[GA_BITS_TEXT_LEN];

    if (n == 0)
        return;
    fprintf(out, "\n  %s:\n", title);
    for (size_t i = 0; i < n; i++) {
        ga_format_bits(f, p[i].x, h);
        fprintf(out, "    x = %s (%s), ", ga_text_value(f, p[i].x, x), h);
        if (t->backward) {
            ga_format_bits(f, p[i].dy, h);
            fprintf(out, "dy = %s (%s), exact dx ", ga_text_value(f, p[i].dy, x), h);
        } else {
            fputs("exact ", out);
        }
        fprintf(out, "%s: A ", ga_text_exact(&p[i].exact, v));
        text_output(out, f, p[i].a, p[i].ulp_a);
        fputs(", B ", out);
        text_output(out, f, p[i].b, p[i].ulp_b);
        fputc('\n', out);
    }
}

static void text_ranges(FILE *out, const struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;
    const struct ga_compare_ranges *rs = &t->ranges;
    uint64_t listed = 0;
    char lo[GA_TEXT_LEN], hi[GA_TEXT_LEN];

    if (rs->total == 0)
        return;
    fprintf(out, "\n  ranges of x where B is worse (%s%" PRIu64 " range%s, most worsened %s "
            "first):\n", t->by_x.pairs ? "by x, an x counting where B is worse on more of its "
            "pairs than better; " : t->backward ? "in pair order; " : "", rs->total,
            rs->total == 1 ? "" : "s", unit(t));
    for (size_t i = 0; i < rs->count; i++) {
        fprintf(out, "    [%s, %s]: %" PRIu64 " %.*s worse\n", ga_text_value(f, rs->list[i].lo, lo),
                ga_text_value(f, rs->list[i].hi, hi), rs->list[i].worsened,
                (int)strlen(unit(t)) - (rs->list[i].worsened == 1), unit(t));
        listed += rs->list[i].worsened;
    }
    if (rs->total > rs->count)
        fprintf(out, "    and %" PRIu64 " more ranges with %" PRIu64 " worsened %s\n",
                rs->total - rs->count, rs->worsened - listed, unit(t));
}

int ga_compare_write_text(FILE *out, const struct ga_compare_sides *s,
                          const struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;

    if (t->backward)
        fprintf(out, "compare --backward A = %s, B = %s on %s against %s (domain %s: %" PRIu64
                " pairs, dx = RN(dy d(x)))\n", s->side[0].name, s->side[1].name, f->name,
                ga_function_name(t->reference), s->domain, t->inputs);
    else
        fprintf(out, "compare A = %s, B = %s on %s against %s (domain %s: %" PRIu64 " inputs, %s "
                "oracle)\n", s->side[0].name, s->side[1].name, f->name,
                ga_function_name(t->reference), s->domain, t->inputs, oracle_name(s));
    text_side(out, "A", &s->side[0], t);
    text_side(out, "B", &s->side[1], t);
    fprintf(out, "  %s: B improved %" PRIu64 ", worsened %" PRIu64 ", unchanged %"
            PRIu64 " (same bits %" PRIu64 ", different bits at equal distance %" PRIu64 ")\n",
            t->backward ? "pair by pair" : "input by input", t->improved, t->worsened,
            t->same + t->tied, t->same, t->tied);
    text_buckets(out, t);
    text_points(out, t, "worst regressions (B worse than A)", t->regressions, t->regression_count);
    text_points(out, t, "best improvements (B better than A)", t->improvements,
                t->improvement_count);
    text_ranges(out, t);
    return ferror(out) ? -1 : 0;
}

/* Text in a Markdown table cell: '|' escaped, so that the row keeps its cells. */
static void md_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

/* A name as inline code, `name` (backquotes in it become quotes). */
static void md_code(FILE *out, const char *s)
{
    fputc('`', out);
    for (; *s; s++)
        fputc(*s == '`' ? '\'' : *s, out);
    fputc('`', out);
}

static void md_output(FILE *out, const struct ga_format *f, ga_bits y, double ulp)
{
    char v[GA_TEXT_LEN], e[GA_TEXT_LEN], h[GA_BITS_TEXT_LEN];

    ga_format_bits(f, y, h);
    fprintf(out, " %s (`%s`) | %s |", ga_text_value(f, y, v), h, ga_text_error(ulp, e));
}

static void md_regressions(FILE *out, const struct ga_compare_tally *t)
{
    const struct ga_format *f = t->format;
    char x[GA_TEXT_LEN], v[GA_TEXT_LEN], h[GA_BITS_TEXT_LEN];

    if (t->regression_count == 0)
        return;
    if (t->backward)
        fputs("\nWorst regressions:\n\n| x | dy | exact dx | A output | A ulp | B output | B ulp |\n"
              "|---|---|---|---|---:|---|---:|\n", out);
    else
        fputs("\nWorst regressions:\n\n| x | exact | A output | A ulp | B output | B ulp |\n"
              "|---|---|---|---:|---|---:|\n", out);
    for (size_t i = 0; i < t->regression_count; i++) {
        const struct ga_compare_point *p = &t->regressions[i];
        ga_format_bits(f, p->x, h);
        fprintf(out, "| %s (`%s`) |", ga_text_value(f, p->x, x), h);
        if (t->backward) {
            ga_format_bits(f, p->dy, h);
            fprintf(out, " %s (`%s`) |", ga_text_value(f, p->dy, x), h);
        }
        fprintf(out, " %s |", ga_text_exact(&p->exact, v));
        md_output(out, f, p->a, p->ulp_a);
        md_output(out, f, p->b, p->ulp_b);
        fputc('\n', out);
    }
}

int ga_compare_write_markdown(FILE *out, const struct ga_compare_sides *s,
                              const struct ga_compare_tally *t)
{
    uint32_t pa[GA_BUCKET_COUNT], pb[GA_BUCKET_COUNT];
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN];

    fprintf(out, "#### GELU %saccuracy: ", t->backward ? "backward " : "");
    md_code(out, s->side[0].name);
    fputs(" (A) vs ", out);
    md_code(out, s->side[1].name);
    fprintf(out, " (B), %s against %s, %" PRIu64 " %s (domain ", t->format->name,
            ga_function_name(t->reference), t->inputs, unit(t));
    md_code(out, s->domain);
    fprintf(out, ")\n\n| outputs | A %s | A %% | B %s | B %% |\n|---|---:|---:|---:|---:|\n",
            unit(t), unit(t));
    ga_compare_percents(t->bucket[0], GA_BUCKET_COUNT, t->inputs, pa);
    ga_compare_percents(t->bucket[1], GA_BUCKET_COUNT, t->inputs, pb);
    for (int k = 0; k < GA_BUCKET_COUNT; k++) {
        fputs("| ", out);
        md_cell(out, ga_bucket_label(k));
        fprintf(out, " | %" PRIu64 " | %s | %" PRIu64 " | %s |\n", t->bucket[0][k],
                percent_text(pa[k], a), t->bucket[1][k], percent_text(pb[k], b));
    }
    fprintf(out, "| total | %" PRIu64 " | 100.000 | %" PRIu64 " | 100.000 |\n", t->inputs, t->inputs);
    fprintf(out, "\n**B improved %" PRIu64 " %s, worsened %" PRIu64 ", left %" PRIu64
            " unchanged** (max ulp: A %s, B %s).\n", t->improved, unit(t), t->worsened,
            t->same + t->tied, ga_text_error(s->side[0].max_ulp, a),
            ga_text_error(s->side[1].max_ulp, b));
    md_regressions(out, t);
    return ferror(out) ? -1 : 0;
}

/* A distance as JSON: a number, or "inf". */
static void json_ulp(FILE *out, const char *key, double v)
{
    char buf[GA_TEXT_LEN];

    if (isinf(v))
        fprintf(out, "\"%s\": \"inf\"", key);
    else
        fprintf(out, "\"%s\": %s", key, ga_text_error(v, buf));
}

static void json_points(FILE *out, const struct ga_compare_tally *t, const char *key,
                        const struct ga_compare_point *p, size_t n)
{
    const struct ga_format *f = t->format;
    char x[GA_BITS_TEXT_LEN], a[GA_BITS_TEXT_LEN], b[GA_BITS_TEXT_LEN], v[GA_TEXT_LEN];

    fprintf(out, "  \"%s\": [", key);
    for (size_t i = 0; i < n; i++) {
        ga_format_bits(f, p[i].x, x);
        ga_format_bits(f, p[i].a, a);
        ga_format_bits(f, p[i].b, b);
        fprintf(out, "%s\n    {\"index\": %" PRIu64 ", \"input\": \"%s\", ", i ? "," : "",
                p[i].index, x);
        if (t->backward) {
            ga_format_bits(f, p[i].dy, x);
            fprintf(out, "\"dy\": \"%s\", ", x);
        }
        fprintf(out, "\"exact\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", ",
                ga_text_exact_digits(&p[i].exact, 9, v), a, b);
        json_ulp(out, "a_ulp", p[i].ulp_a);
        fputs(", ", out);
        json_ulp(out, "b_ulp", p[i].ulp_b);
        fputc('}', out);
    }
    fputs(n ? "\n  ],\n" : "],\n", out);
}

static void json_buckets(FILE *out, const struct ga_compare_tally *t, int side)
{
    uint32_t p[GA_BUCKET_COUNT];
    char buf[GA_TEXT_LEN];

    ga_compare_percents(t->bucket[side], GA_BUCKET_COUNT, t->inputs, p);
    fprintf(out, "    \"%c\": {", side ? 'b' : 'a');
    for (int k = 0; k < GA_BUCKET_COUNT; k++)
        fprintf(out, "%s\"%s\": {\"inputs\": %" PRIu64 ", \"percent\": %s}", k ? ", " : "",
                ga_bucket_key(k), t->bucket[side][k], percent_text(p[k], buf));
    fputs(side ? "}\n" : "},\n", out);
}

static void json_ranges(FILE *out, const struct ga_compare_tally *t)
{
    const struct ga_compare_ranges *rs = &t->ranges;
    char lo[GA_BITS_TEXT_LEN], hi[GA_BITS_TEXT_LEN];
    uint64_t listed = 0;

    fprintf(out, "  \"worse_ranges\": {\"by\": \"%s\", \"total\": %" PRIu64 ", \"worsened\": %" PRIu64
            ", \"listed\": [", t->by_x.pairs ? "x" : "domain order", rs->total, rs->worsened);
    for (size_t i = 0; i < rs->count; i++) {
        ga_format_bits(t->format, rs->list[i].lo, lo);
        ga_format_bits(t->format, rs->list[i].hi, hi);
        fprintf(out, "%s\n    {\"lo\": \"%s\", \"hi\": \"%s\", \"worsened\": %" PRIu64
                ", \"first_index\": %" PRIu64 ", \"last_index\": %" PRIu64 "}", i ? "," : "", lo,
                hi, rs->list[i].worsened, rs->list[i].first, rs->list[i].last);
        listed += rs->list[i].worsened;
    }
    fprintf(out, "%s], \"unlisted_worsened\": %" PRIu64 "},\n", rs->count ? "\n  " : "",
            rs->worsened - listed);
}

/* Both sides' full results: sweep --json's array, or sweep --backward
 * --json's objects in one. */
static int json_sides(FILE *out, const struct ga_compare_sides *s, const struct ga_compare_tally *t)
{
    if (!t->backward)
        return ga_write_json(out, s->results, 2);
    fputs("[\n", out);
    for (int k = 0; k < 2; k++) {
        if (ga_backward_print_json(out, s->sweeps[k], s->stats[k], NULL) != 0)
            return -1;
        fputs(k ? "]\n" : ",\n", out);
    }
    return 0;
}

int ga_compare_write_json(FILE *out, const struct ga_compare_sides *s,
                          const struct ga_compare_tally *t)
{
    fputs("{\n  \"a\": ", out);
    ga_json_string(out, s->side[0].name);
    fputs(", \"b\": ", out);
    ga_json_string(out, s->side[1].name);
    fprintf(out, ", \"backward\": %s, \"format\": \"%s\", \"reference\": \"%s\", \"domain\": ",
            t->backward ? "true" : "false", t->format->name, ga_function_name(t->reference));
    ga_json_string(out, s->domain);
    if (!t->backward)
        fprintf(out, ", \"oracle\": \"%s\"", oracle_name(s));
    fprintf(out, ",\n  \"inputs\": %" PRIu64 ", \"improved\": %" PRIu64
            ", \"worsened\": %" PRIu64 ", \"unchanged\": %" PRIu64 ", \"same_bits\": %" PRIu64
            ", \"tied\": %" PRIu64 ",\n  \"buckets\": {\n", t->inputs,
            t->improved, t->worsened, t->same + t->tied, t->same, t->tied);
    json_buckets(out, t, 0);
    json_buckets(out, t, 1);
    fputs("  },\n", out);
    json_points(out, t, "regressions", t->regressions, t->regression_count);
    json_points(out, t, "improvements", t->improvements, t->improvement_count);
    json_ranges(out, t);
    fputs("  \"sides\": ", out);
    if (json_sides(out, s, t) != 0)
        return -1;
    fputs("}\n", out);
    return ferror(out) ? -1 : 0;
}
