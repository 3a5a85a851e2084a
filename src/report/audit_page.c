#include "report/audit_page.h"

#include <inttypes.h>

static const char *kind_text(uint8_t kind)
{
    return kind == GA_AUDIT_MPFR_UNDECIDED ? "MPFR undecided"
         : kind == GA_AUDIT_FAST_UNDECIDED ? "fast undecided" : "different";
}

/* One disagreement: its input and both results, hexadecimal and decimal. */
static void disagreement(FILE *out, const struct ga_format *f,
                         const struct ga_audit_disagreement *d, const char *start,
                         const char *sep, const char *end)
{
    char x[16], m[16], q[16];

    ga_format_bits(f, d->x, x);
    ga_format_bits(f, d->mpfr, m);
    ga_format_bits(f, d->fast, q);
    fprintf(out, "%s%" PRIu64 "%s%s%s%.9g%s%s (%+d)%s%s (%+d)%s%s%s", start, d->index, sep, x, sep,
            ga_decode(f, d->x), sep, m, d->mpfr_dir, sep, q, d->fast_dir, sep,
            kind_text(d->kind), end);
}

/* Inputs per CPU second, and the CPU seconds the whole format would take. */
static double rate(const struct ga_audit *a)
{
    return a->cpu_s > 0 ? (double)a->inputs / a->cpu_s : 0;
}

int ga_write_audit_text(FILE *out, const struct ga_audit *a)
{
    fprintf(out, "audit: %s in %s, domain %s: %" PRIu64 " inputs, %" PRIu64 " disagreements\n",
            ga_function_name(a->fn), a->format->name, a->domain, a->inputs, a->disagreements);
    if (a->listed)
        fprintf(out, "index input value mpfr fast kind (first %u in domain order)\n", a->listed);
    for (uint32_t i = 0; i < a->listed; i++)
        disagreement(out, a->format, &a->list[i], "", " ", "\n");
    fprintf(out, "cpu: %.1f s, %.0f inputs/s per core\n", a->cpu_s, rate(a));
    return ferror(out) ? -1 : 0;
}

int ga_write_audit_markdown(FILE *out, const struct ga_audit *a, const char *command)
{
    double all = (double)((uint64_t)1 << a->format->bits);

    fprintf(out, GA_AUDIT_PAGE_TITLE "%s in %s\n\n", ga_function_name(a->fn), a->format->name);
    fprintf(out, "Written by `gelu-acc audit` (doc/audit.md). On every input of the domain, "
            "the MPFR-only oracle (a Ziv loop) and the fast oracle every sweep uses (proven "
            "error bounds, with an MPFR fallback) computed the correctly rounded %s and the "
            "side of it on which the exact value lies; a disagreement is an input where the "
            "two differ in either, or where one could not decide.\n\n",
            ga_function_name(a->fn));
    fprintf(out, "| | |\n|---|---|\n");
    fprintf(out, "| function | %s |\n| format | %s |\n", ga_function_name(a->fn),
            a->format->name);
    fprintf(out, "| domain | `%s` (%" PRIu64 " inputs) |\n", a->domain, a->domain_size);
    fprintf(out, "| inputs audited | %" PRIu64 " |\n", a->inputs);
    fprintf(out, "| disagreements | %" PRIu64 " |\n", a->disagreements);
    fprintf(out, "| CPU time | %.1f s (every thread and process), %.0f inputs/s per core |\n",
            a->cpu_s, rate(a));
    if (rate(a) > 0)
        fprintf(out, "| every %s input at that rate | %.0f CPU hours |\n", a->format->name,
                all / rate(a) / 3600);
    fprintf(out, "| program | %s |\n| command | `%s` |\n\n", a->program, command);
    if (a->listed == 0) {
        fprintf(out, "No disagreement.\n");
    } else {
        fprintf(out, "The first %u disagreements in domain order (the direction in "
                "parentheses: the sign of exact - rounded):\n\n", a->listed);
        fprintf(out, "| index | input | value | MPFR | fast | kind |\n"
                     "|---|---|---|---|---|---|\n");
        for (uint32_t i = 0; i < a->listed; i++)
            disagreement(out, a->format, &a->list[i], "| ", " | ", " |\n");
    }
    return ferror(out) ? -1 : 0;
}
