#include "report/backward_print.h"

#include <inttypes.h>
#include <math.h>

#include "report/json_string.h"

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static double mean(double sum, uint64_t n)
{
    return n ? sum / (double)n : 0.0;
}

/* JSON has no infinity: a number, or the string "inf". */
static void json_number(FILE *out, double v)
{
    if (isinf(v))
        fputs("\"inf\"", out);
    else if (isnan(v))
        fputs("null", out);
    else
        fprintf(out, "%.17g", v);
}

static void text_region(FILE *out, const char *name, const struct ga_backward_region *r,
                        const struct ga_format *f)
{
    char x[16], dy[16], dx[16], t[16];

    fprintf(out, "%s: %" PRIu64 " pairs, correctly rounded %" PRIu64 " (%.4f %%), faithful %" PRIu64
            " (%.4f %%)\n", name, r->count, r->correct, share(r->correct, r->count), r->faithful,
            share(r->faithful, r->count));
    fprintf(out, "  ulp error: max %.6g, mean %.6g\n", r->max_ulp, mean(r->sum_ulp, r->ulp_count));
    fprintf(out, "  error in ulp(dy): max %.6g, mean %.6g\n", r->max_dy_ulp,
            mean(r->sum_dy_ulp, r->dy_ulp_count));
    fprintf(out, "  sign errors %" PRIu64 ", NaN outputs %" PRIu64 ", not NaN %" PRIu64
            ", infinite %" PRIu64 ", flushed to zero %" PRIu64 ", zero of the wrong sign %" PRIu64 "\n",
            r->sign_errors, r->nan_outputs, r->not_nan, r->inf_outputs, r->flushed, r->zero_sign);
    if (r->worst.index == UINT64_MAX)
        return;
    ga_format_bits(f, r->worst.x, x);
    ga_format_bits(f, r->worst.dy, dy);
    ga_format_bits(f, r->worst.dx, dx);
    ga_format_bits(f, r->worst.truth, t);
    fprintf(out, "  worst pair: x = %s (%.9g), dy = %s (%.9g): dx = %s (%.9g), true %s (%.9g), %.6g ulp\n",
            x, ga_decode(f, r->worst.x), dy, ga_decode(f, r->worst.dy), dx,
            ga_decode(f, r->worst.dx), t, ga_decode(f, r->worst.truth), r->worst.ulp);
}

int ga_backward_print_text(FILE *out, const struct ga_backward_sweep *s,
                           const struct ga_backward_stats *st)
{
    const struct ga_format *f = s->pairs->format;

    fprintf(out, "%s (backward) against RN_%s(dy * %s(x)), domain %s\n", s->name, f->name,
            ga_function_name(s->reference), s->pairs->spec);
    if (st->failed_batches > 0) {
        char x[16], dy[16];
        ga_format_bits(f, st->failure.x, x);
        ga_format_bits(f, st->failure.dy, dy);
        fprintf(out, "KERNEL FAILED on %" PRIu64 " batches (%" PRIu64 " pairs not measured); "
                "first: pairs %" PRIu64 " to %" PRIu64 " (x = %s, dy = %s): %s\n",
                st->failed_batches, st->failed_pairs, st->failure.first, st->failure.last, x, dy,
                st->failure.what);
    }
    text_region(out, "all", &st->all, f);
    text_region(out, "root [-1, -0.5]", &st->root, f);
    if (isnan(st->unfaithful_lo))
        fprintf(out, "  faithful on every pair of the root region\n");
    else
        fprintf(out, "  not faithful for x in [%.9g, %.9g]\n", st->unfaithful_lo, st->unfaithful_hi);
    return ferror(out) ? -1 : 0;
}

static void json_region(FILE *out, const char *name, const struct ga_backward_region *r,
                        const struct ga_format *f, const char *tail)
{
    char x[16], dy[16], dx[16], t[16];

    fprintf(out, "  \"%s\": {\"pairs\": %" PRIu64 ", \"correctly_rounded\": %" PRIu64
            ", \"faithful\": %" PRIu64 ", \"sign_errors\": %" PRIu64 ", \"nan_outputs\": %" PRIu64
            ", \"not_nan\": %" PRIu64 ", \"inf_outputs\": %" PRIu64 ", \"flushed\": %" PRIu64
            ", \"zero_sign\": %" PRIu64, name, r->count, r->correct, r->faithful, r->sign_errors,
            r->nan_outputs, r->not_nan, r->inf_outputs, r->flushed, r->zero_sign);
    fputs(", \"max_ulp\": ", out);
    json_number(out, r->max_ulp);
    fputs(", \"mean_ulp\": ", out);
    json_number(out, mean(r->sum_ulp, r->ulp_count));
    fputs(", \"max_dy_ulp\": ", out);
    json_number(out, r->max_dy_ulp);
    fputs(", \"mean_dy_ulp\": ", out);
    json_number(out, mean(r->sum_dy_ulp, r->dy_ulp_count));
    if (r->worst.index != UINT64_MAX) {
        ga_format_bits(f, r->worst.x, x);
        ga_format_bits(f, r->worst.dy, dy);
        ga_format_bits(f, r->worst.dx, dx);
        ga_format_bits(f, r->worst.truth, t);
        fprintf(out, ", \"worst\": {\"index\": %" PRIu64 ", \"x\": \"%s\", \"dy\": \"%s\", "
                "\"dx\": \"%s\", \"true_dx\": \"%s\", \"ulp\": ", r->worst.index, x, dy, dx, t);
        json_number(out, r->worst.ulp);
        fputc('}', out);
    }
    fprintf(out, "}%s\n", tail);
}

/* The machine keys of a real kernel's object, after its figures. */
static void json_machine(FILE *out, const struct ga_result_machine *m)
{
    const char *const keys[] = { "cpu", "isa", "library", "version", "call", "path", "lengths" };
    const char *const values[] = { m->cpu, m->isa, m->library, m->version, m->call, m->path,
                                   m->lengths };

    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        if (values[k] != NULL) {
            fprintf(out, ",\n  \"%s\": ", keys[k]);
            ga_json_string(out, values[k]);
        }
}

int ga_backward_print_json(FILE *out, const struct ga_backward_sweep *s,
                           const struct ga_backward_stats *st, const struct ga_result_machine *m)
{
    const struct ga_format *f = s->pairs->format;

    fputs("{\n  \"impl\": ", out);
    ga_json_string(out, s->name);
    fprintf(out, ",\n  \"backward\": true,\n  \"format\": \"%s\",\n  \"reference\": \"%s\",\n"
            "  \"domain\": ", f->name, ga_function_name(s->reference));
    ga_json_string(out, s->pairs->spec);
    fputs(",\n", out);
    if (st->failed_batches > 0) {
        char x[16], dy[16];
        ga_format_bits(f, st->failure.x, x);
        ga_format_bits(f, st->failure.dy, dy);
        fprintf(out, "  \"failed\": {\"batches\": %" PRIu64 ", \"pairs\": %" PRIu64
                ", \"first\": %" PRIu64 ", \"last\": %" PRIu64 ", \"x\": \"%s\", \"dy\": \"%s\"},\n",
                st->failed_batches, st->failed_pairs, st->failure.first, st->failure.last, x, dy);
    }
    if (s->pairs->kind == GA_PAIRS_FIXED_DY) {
        char dy[16];
        ga_format_bits(f, s->pairs->dy, dy);
        fprintf(out, "  \"dy\": \"%s\",\n", dy);
    }
    json_region(out, "all", &st->all, f, ",");
    json_region(out, "root", &st->root, f, ",");
    fputs("  \"root_unfaithful\": ", out);
    if (isnan(st->unfaithful_lo))
        fputs("null", out);
    else
        fprintf(out, "[%.17g, %.17g]", st->unfaithful_lo, st->unfaithful_hi);
    if (m != NULL)
        json_machine(out, m);
    fputs("\n}\n", out);
    return ferror(out) ? -1 : 0;
}
