/* gelu-acc facts: facts about GELU, each computed with MPFR and checked. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "report/facts.h"

static const char help[] =
    "usage: gelu-acc facts [--json]\n"
    "\n"
    "Computes with MPFR, and prints, facts about GELU: its minimum x0 (bracketed\n"
    "by the proved sign of gelu') and gelu(x0), the same for the tanh form, the\n"
    "largest difference of the tanh form and of quick GELU x*sigmoid(1.702x) from\n"
    "exact GELU and where; for each format, where the correctly rounded gelu and\n"
    "gelu_tanh of a negative input are -0 (a left tail up to the largest such input,\n"
    "and an interval next to zero from the least one, or every negative input), and\n"
    "both minima's values rounded to the format (doc/mathematics.md).\n"
    "  --json         one JSON object instead of text\n";

/* "  name: value (bits)", or "  name: none". */
static void print_input(const struct ga_format *f, const char *name, bool has, ga_bits x)
{
    char hex[GA_BITS_TEXT_LEN];

    if (!has) {
        printf("  %s: none", name);
        return;
    }
    ga_format_bits(f, x, hex);
    printf("  %s: %.*g (%s)", name, ga_cli_digits(f), ga_decode(f, x), hex);
}

static void print_text(const struct ga_facts *k)
{
    const struct ga_fact_minimum *m[2] = { &k->gelu_minimum, &k->tanh_minimum };
    const struct ga_fact_largest_difference *d[2] = { &k->tanh_difference, &k->quick_difference };
    static const char *const fn_names[2] = { "gelu", "gelu_tanh" };
    static const char *const approx_names[2] = { "gelu_tanh", "quick (x sigmoid(1.702 x))" };

    printf("Facts about GELU, computed with MPFR (doc/mathematics.md, 'Facts, checked')\n");
    for (int i = 0; i < 2; i++)
        printf("minimum of %-9s at x0 = %.17g (derivative < 0 at %.17g, > 0 at %.17g), "
               "value %.16g\n", fn_names[i], (m[i]->lo + m[i]->hi) / 2, m[i]->lo, m[i]->hi,
               m[i]->value);
    for (int i = 0; i < 2; i++)
        printf("largest |%s - gelu| = %.6e at x = +-%.16g (%s - gelu = %+.16g there)\n",
               approx_names[i], fabs(d[i]->diff), d[i]->x, i == 0 ? "gelu_tanh" : "quick",
               d[i]->diff);
    printf("where the truth of a negative input is -0: the tail (every input at and below\n"
           "x), next to zero (every input from x up to -0); and the minima rounded:\n");
    for (int f = 0; f < GA_FORMAT_COUNT; f++) {
        const struct ga_format *fmt = ga_format_get((enum ga_format_id)f);
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            printf("  %-13s %-9s", fmt->name, ga_function_name((enum ga_function)fn));
            if (k->all_zero[f][fn]) {
                printf("  -0 for every negative input");
            } else {
                print_input(fmt, "tail", k->has_zero_from[f][fn], k->zero_from[f][fn]);
                print_input(fmt, "next to zero", k->has_zero_near[f][fn], k->zero_near[f][fn]);
            }
            print_input(fmt, "minimum", true, k->minimum_rounded[f][fn]);
            putchar('\n');
        }
    }
}

/* "name": {"x": ..., "bits": "..."} or "name": null. */
static void json_input(const struct ga_format *f, const char *name, bool has, ga_bits x)
{
    char hex[GA_BITS_TEXT_LEN];

    printf("\"%s\": ", name);
    if (!has) {
        printf("null");
        return;
    }
    ga_format_bits(f, x, hex);
    printf("{\"x\": %.17g, \"bits\": \"%s\"}", ga_decode(f, x), hex);
}

static void print_json(const struct ga_facts *k)
{
    const struct ga_fact_minimum *m[2] = { &k->gelu_minimum, &k->tanh_minimum };
    const struct ga_fact_largest_difference *d[2] = { &k->tanh_difference, &k->quick_difference };
    static const char *const min_keys[2] = { "gelu_minimum", "gelu_tanh_minimum" };
    static const char *const diff_keys[2] = { "gelu_tanh_minus_gelu", "quick_minus_gelu" };

    printf("{\n");
    for (int i = 0; i < 2; i++)
        printf("  \"%s\": {\"x\": %.17g, \"x_lo\": %.17g, \"x_hi\": %.17g, \"value\": %.17g},\n",
               min_keys[i], (m[i]->lo + m[i]->hi) / 2, m[i]->lo, m[i]->hi, m[i]->value);
    for (int i = 0; i < 2; i++)
        printf("  \"%s\": {\"largest_at\": %.17g, \"difference\": %.17g},\n", diff_keys[i],
               d[i]->x, d[i]->diff);
    printf("  \"formats\": {");
    for (int f = 0; f < GA_FORMAT_COUNT; f++) {
        const struct ga_format *fmt = ga_format_get((enum ga_format_id)f);
        printf("%s\n    \"%s\": {", f ? "," : "", fmt->name);
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++) {
            printf("%s\n      \"%s\": {\"every_negative_zero\": %s, ", fn ? "," : "",
                   ga_function_name((enum ga_function)fn), k->all_zero[f][fn] ? "true" : "false");
            json_input(fmt, "zero_from", k->has_zero_from[f][fn], k->zero_from[f][fn]);
            printf(", ");
            json_input(fmt, "zero_next_to_zero_from", k->has_zero_near[f][fn], k->zero_near[f][fn]);
            printf(", ");
            json_input(fmt, "minimum_rounded", true, k->minimum_rounded[f][fn]);
            printf("}");
        }
        printf("\n    }");
    }
    printf("\n  }\n}\n");
}

int ga_cmd_facts(int argc, char **argv)
{
    struct ga_facts facts;
    bool json = false;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) {
            fputs(help, stdout);
            return GA_EXIT_OK;
        } else if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else {
            ga_cli_error("facts: unknown argument '%s' (see 'gelu-acc facts --help')", argv[i]);
            return GA_EXIT_USAGE;
        }
    }
    if (ga_facts_compute(&facts) != 0) {
        ga_cli_error("facts: a sign of the derivative could not be proved");
        return GA_EXIT_INTERNAL;
    }
    if (json)
        print_json(&facts);
    else
        print_text(&facts);
    return fflush(stdout) == 0 ? GA_EXIT_OK : GA_EXIT_USAGE;
}
