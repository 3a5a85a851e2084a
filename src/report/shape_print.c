/* The shape in the outputs (report/shape_print.h; definitions in
 * doc/metrics.md, "Shape"). */
#include "report/shape_print.h"

#include <inttypes.h>

#include "grade/number_text.h"

static const char *const side_names[2] = { "left", "right" };

static void hex(FILE *out, const struct ga_format *f, ga_bits x)
{
    char text[GA_BITS_TEXT_LEN];

    ga_format_bits(f, x, text);
    fputs(text, out);
}

/* --- text --- */

void ga_shape_write_text(FILE *out, const struct ga_result *r)
{
    const struct ga_shape *s = &r->shape;
    const struct ga_format *f = r->format;
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN], d[GA_TEXT_LEN];

    if (!r->has_shape)
        return;
    fputs("  monotone  ", out);
    if (!s->monotone)
        fputs(" not measured: the domain does not visit inputs in value order", out);
    for (int i = 0; s->monotone && i < 2; i++) {
        const struct ga_shape_side *side = &s->side[i];
        fprintf(out, "%s %s of x0: %" PRIu64 " of %" PRIu64 " pairs reversed", i ? ";" : "",
                side_names[i], side->violations, side->pairs);
        if (side->worst.has)
            fprintf(out, " (worst x = %s, %s: outputs %s, %s, %" PRIu64 " steps)",
                    ga_text_value(f, side->worst.lo, a), ga_text_value(f, side->worst.hi, b),
                    ga_text_value(f, side->worst.y_lo, c), ga_text_value(f, side->worst.y_hi, d),
                    side->worst.steps);
    }
    fputc('\n', out);
    if (s->minimum.has)
        fprintf(out, "  minimum    %s at x = %s", ga_text_value(f, s->minimum.y, a),
                ga_text_value(f, s->minimum.x, b));
    else
        fputs("  minimum    none (no output is a number)", out);
    if (s->truth_minimum.has)
        fprintf(out, "; correctly rounded %s at x = %s", ga_text_value(f, s->truth_minimum.y, a),
                ga_text_value(f, s->truth_minimum.x, b));
    fprintf(out, "\n  signs      %" PRIu64 " nonzero outputs of the wrong sign", s->sign_errors);
    if (s->first_sign_error.has)
        fprintf(out, " (first x = %s, output %s)", ga_text_value(f, s->first_sign_error.x, a),
                ga_text_value(f, s->first_sign_error.y, b));
    fputs("\n  odd        ", out);
    if (!s->odd) {
        fputs("not measured: graded outputs (the kernel cannot run on -x)\n", out);
        return;
    }
    fprintf(out, "k(x) - k(-x) = x broken beyond rounding for %" PRIu64 " of %" PRIu64 " x >= 0",
            s->odd_breaks, s->odd_pairs);
    if (s->first_odd_break.has)
        fprintf(out, " (first x = %s: k(x) = %s, k(-x) = %s)",
                ga_text_value(f, s->first_odd_break.x, a), ga_text_value(f, s->first_odd_break.y, b),
                ga_text_value(f, s->first_odd_break_neg, c));
    fputc('\n', out);
}

/* --- JSON --- */

static void json_bits(FILE *out, const struct ga_format *f, const char *key, bool has, ga_bits x)
{
    fprintf(out, "\"%s\": ", key);
    if (!has) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    hex(out, f, x);
    fputc('"', out);
}

static void json_point(FILE *out, const struct ga_format *f, const char *key,
                       const struct ga_shape_point *p)
{
    fprintf(out, "\"%s\": ", key);
    if (!p->has) {
        fputs("null", out);
        return;
    }
    fputc('{', out);
    json_bits(out, f, "x", true, p->x);
    fputs(", ", out);
    json_bits(out, f, "y", true, p->y);
    fputc('}', out);
}

static void json_violation(FILE *out, const struct ga_format *f, const char *key,
                           const struct ga_shape_violation *v)
{
    fprintf(out, "\"%s\": ", key);
    if (!v->has) {
        fputs("null", out);
        return;
    }
    fputc('{', out);
    json_bits(out, f, "lo", true, v->lo);
    fputs(", ", out);
    json_bits(out, f, "hi", true, v->hi);
    fputs(", ", out);
    json_bits(out, f, "y_lo", true, v->y_lo);
    fputs(", ", out);
    json_bits(out, f, "y_hi", true, v->y_hi);
    fprintf(out, ", \"steps\": %" PRIu64 "}", v->steps);
}

void ga_shape_write_json(FILE *out, const struct ga_result *r)
{
    const struct ga_shape *s = &r->shape;
    const struct ga_format *f = r->format;

    if (!r->has_shape) {
        fputs(",\n   \"shape\": null", out);
        return;
    }
    fputs(",\n   \"shape\": {\"monotone\": ", out);
    if (!s->monotone)
        fputs("null", out);
    for (int i = 0; s->monotone && i < 2; i++) {
        fprintf(out, "%s\"%s\": {\"pairs\": %" PRIu64 ", \"violations\": %" PRIu64 ", ",
                i ? ",\n     " : "{", side_names[i], s->side[i].pairs, s->side[i].violations);
        json_violation(out, f, "first", &s->side[i].first);
        fputs(", ", out);
        json_violation(out, f, "worst", &s->side[i].worst);
        fputs(i ? "}}" : "}", out);
    }
    fputs(",\n    ", out);
    json_point(out, f, "minimum", &s->minimum);
    fputs(", ", out);
    json_point(out, f, "truth_minimum", &s->truth_minimum);
    fprintf(out, ",\n    \"sign_errors\": %" PRIu64 ", ", s->sign_errors);
    json_point(out, f, "first_sign_error", &s->first_sign_error);
    fputs(",\n    \"odd\": ", out);
    if (!s->odd) {
        fputs("null}", out);
        return;
    }
    fprintf(out, "{\"pairs\": %" PRIu64 ", \"breaks\": %" PRIu64 ", ", s->odd_pairs, s->odd_breaks);
    json_bits(out, f, "first_x", s->first_odd_break.has, s->first_odd_break.x);
    fputs(", ", out);
    json_bits(out, f, "first_output", s->first_odd_break.has, s->first_odd_break.y);
    fputs(", ", out);
    json_bits(out, f, "first_output_of_minus_x", s->first_odd_break.has, s->first_odd_break_neg);
    fputs("}}", out);
}

/* --- CSV --- */

const char ga_shape_csv_header[] =
    "monotone_left_pairs,monotone_left_violations,monotone_right_pairs,"
    "monotone_right_violations,minimum_input,minimum_output,truth_minimum_output,sign_errors,"
    "odd_pairs,odd_breaks";

void ga_shape_write_csv(FILE *out, const struct ga_result *r, bool whole)
{
    const struct ga_shape *s = &r->shape;
    const struct ga_format *f = r->format;

    if (!whole || !r->has_shape) {
        fputs(",,,,,,,,,,", out);
        return;
    }
    if (s->monotone)
        fprintf(out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", s->side[0].pairs,
                s->side[0].violations, s->side[1].pairs, s->side[1].violations);
    else
        fputs(",,,,,", out);
    if (s->minimum.has)
        hex(out, f, s->minimum.x);
    fputc(',', out);
    if (s->minimum.has)
        hex(out, f, s->minimum.y);
    fputc(',', out);
    if (s->truth_minimum.has)
        hex(out, f, s->truth_minimum.y);
    fprintf(out, ",%" PRIu64 ",", s->sign_errors);
    if (s->odd)
        fprintf(out, "%" PRIu64 ",%" PRIu64, s->odd_pairs, s->odd_breaks);
    else
        fputc(',', out);
}

/* --- the page's table --- */

/* "violations / pairs", or "-" when not measured. */
static const char *ratio(bool measured, uint64_t count, uint64_t of, char buf[GA_TEXT_LEN])
{
    if (!measured)
        return "-";
    snprintf(buf, GA_TEXT_LEN, "%" PRIu64 " / %" PRIu64, count, of);
    return buf;
}

/* "value at x = input", or "-". */
static const char *at(const struct ga_format *f, const struct ga_shape_point *p,
                      char buf[2 * GA_TEXT_LEN + 16])
{
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN];

    if (!p->has)
        return "-";
    snprintf(buf, 2 * GA_TEXT_LEN + 16, "%s at %s", ga_text_value(f, p->y, a),
             ga_text_value(f, p->x, b));
    return buf;
}

void ga_shape_write_table(FILE *out, const struct ga_format *f, const struct ga_result *r,
                          size_t n, bool html, int heading_level)
{
    static const char *const head[] = {
        "implementation", "reference", "reversed pairs left of x0", "reversed pairs right of x0",
        "minimum (at x)", "correctly rounded minimum (at x)", "wrong sign", "odd identity broken",
    };
    const size_t columns = sizeof head / sizeof head[0];
    bool any = false;

    for (size_t i = 0; i < n; i++)
        any |= r[i].has_shape;
    if (!any)
        return;
    if (html && heading_level == 2)
        fputs("<h2 id=\"shape\">Shape</h2>\n", out);
    else if (html)
        fputs("<h3>Shape</h3>\n", out);
    else
        fprintf(out, "%.*s Shape\n\n", heading_level, "###");
    if (html)
        fputs("<p>Adjacent inputs whose outputs are ordered against gelu's "
              "order on each side of its minimum x0, the kernel's minimum against the "
              "correctly rounded one, nonzero outputs of the wrong sign, and x &ge; 0 where "
              "k(x) &minus; k(&minus;x) differs from x by more than the outputs' rounding "
              "(docs: metrics.md, &ldquo;Shape&rdquo;).</p>\n<table>\n<tr>", out);
    else
        fputs("Adjacent inputs whose outputs are ordered against gelu's order on "
              "each side of its minimum x0, the kernel's minimum against the correctly rounded "
              "one, nonzero outputs of the wrong sign, and x ≥ 0 where k(x) − k(−x) differs "
              "from x by more than the outputs' rounding (doc/metrics.md, \"Shape\").\n\n|", out);
    for (size_t c = 0; c < columns; c++)
        fprintf(out, html ? "<th>%s</th>" : " %s |", head[c]);
    fputs(html ? "</tr>\n" : "\n|", out);
    for (size_t c = 0; !html && c < columns; c++)
        fputs("---|", out);
    if (!html)
        fputc('\n', out);
    for (size_t i = 0; i < n; i++) {
        const struct ga_shape *s = &r[i].shape;
        char cell[6][2 * GA_TEXT_LEN + 16];
        const char *text[8];

        if (!r[i].has_shape)
            continue;
        text[0] = r[i].impl;
        text[1] = ga_function_name(r[i].reference);
        text[2] = ratio(s->monotone, s->side[0].violations, s->side[0].pairs, cell[0]);
        text[3] = ratio(s->monotone, s->side[1].violations, s->side[1].pairs, cell[1]);
        text[4] = at(f, &s->minimum, cell[2]);
        text[5] = at(f, &s->truth_minimum, cell[3]);
        snprintf(cell[4], sizeof cell[4], "%" PRIu64, s->sign_errors);
        text[6] = cell[4];
        text[7] = ratio(s->odd, s->odd_breaks, s->odd_pairs, cell[5]);
        fputs(html ? "<tr>" : "|", out);
        for (size_t c = 0; c < columns; c++)
            fprintf(out, html ? "<td>%s</td>" : c == 0 ? " `%s` |" : " %s |", text[c]);
        fputs(html ? "</tr>\n" : "\n", out);
    }
    if (html)
        fputs("</table>\n", out);
}
