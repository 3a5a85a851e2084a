/* gelu-acc truth: the correctly rounded reference for given inputs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/parse_value.h"
#include "io/bits_file.h"
#include "grade/number_text.h"
#include "engine/run_truth.h"
#include "measure/cast_sweep.h"

static const char help[] =
    "usage: gelu-acc truth --format FORMAT [--function FUNCTION] [--oracle fast|mpfr]\n"
    "                      [--overflow infinity|satfinite|nan] [--input-format WIDE]\n"
    "                      (VALUE... | --all | --bits --input FILE) [-- VALUE...]\n"
    "\n"
    "Prints, for each input, the input encoding, the correctly rounded (to nearest,\n"
    "ties to even) result encoding, the input and the result in decimal.\n"
    "  VALUE          decimal or hex-float (0x1.8p-3), nan, inf, -inf; rounded to FORMAT\n"
    "  --function     gelu (default), gelu_tanh, or a derivative: gelu_grad,\n"
    "                 gelu_tanh_grad (their fast path: float32, float16, bfloat16)\n"
    "  --overflow     how a VALUE beyond the largest finite (or an infinite one, in a\n"
    "                 format without infinity) is rounded: infinity (the default where\n"
    "                 FORMAT has one), satfinite (the largest finite: the default\n"
    "                 elsewhere), nan (where FORMAT has a NaN).  GELU of an encoding never\n"
    "                 overflows, so the results are the same under every convention\n"
    "  --input-format GELU fused with a cast: the inputs are WIDE encodings (bfloat16,\n"
    "                 float16, float32; VALUEs rounded to WIDE), the result is rounded\n"
    "                 into the float8 FORMAT under --overflow, where gelu(1000) gives\n"
    "                 448 (satfinite) or NaN (nan) in float8_e4m3fn; gelu only, MPFR\n"
    "  --             ends the options: what follows are values\n"
    "  --all          every encoding of a format of 16 bits or fewer (the input\n"
    "                 format), in encoding order\n"
    "  --bits         read encodings, one hexadecimal encoding per line, from --input\n"
    "  --input FILE   the file of encodings ('-' for standard input)\n"
    "  --exact        add a column with the exact value (17 digits, or M*2^E when tiny)\n";

struct truth_options {
    struct ga_truth_job job;  /* the format, a cast, the function and oracle */
    bool overflow_given, all, bits, exact;
    const char *input;
};

/* Gather the inputs the options name into a malloc'ed array. */
static int collect_inputs(const struct truth_options *o, char **values, int nvalues,
                          ga_bits **inputs, size_t *count)
{
    const struct ga_format *f = o->job.input_format ? o->job.input_format : o->job.format;
    /* a VALUE is rounded into the input format, under its own convention */
    enum ga_overflow overflow = o->job.input_format ? ga_default_overflow(f) : o->job.overflow;
    char err[512];

    if (o->all + o->bits + (nvalues > 0) != 1) {
        ga_cli_error("truth: give exactly one of VALUE..., --all, --bits --input FILE");
        return -1;
    }
    if (o->bits != (o->input != NULL)) {
        ga_cli_error("truth: --bits and --input go together");
        return -1;
    }
    if (o->bits) {
        if (ga_read_bits_file(o->input, f, inputs, count, err, sizeof err) != 0) {
            ga_cli_error("%s", err);
            return -1;
        }
        return 0;
    }
    if (o->all && f->bits > 16) {
        ga_cli_error("truth: --all takes a 16-bit format; %s has 2^%d inputs "
                     "(use 'gelu-acc sweep --domain %s')", f->name, f->bits,
                     ga_is_enumerable(f) ? "all" : "random:N");
        return -1;
    }
    *count = o->all ? (size_t)ga_encoding_count(f) : (size_t)nvalues;
    *inputs = malloc(*count * sizeof **inputs + 1);
    if (!*inputs) {
        ga_cli_error("truth: out of memory");
        return -1;
    }
    for (size_t i = 0; i < *count; i++) {
        int parsed = o->all ? 0 : ga_parse_value_overflow(f, values[i], overflow, &(*inputs)[i]);
        if (o->all)
            (*inputs)[i] = (ga_bits)i;
        if (parsed == -2) {
            ga_cli_error("truth: argument %zu: '%s': %s has no NaN", i + 1, values[i], f->name);
            free(*inputs);
            return -1;
        } else if (parsed != 0) {
            size_t bad_at = 0;
            ga_number_syntax(values[i], &bad_at);
            ga_cli_error("truth: argument %zu: '%s' is not a number (at character %zu; "
                         "numbers are decimal or hex-float, inf or nan)", i + 1, values[i],
                         bad_at + 1);
            free(*inputs);
            return -1;
        }
    }
    return 0;
}

static int print_truths(const struct truth_options *o, const ga_bits *inputs, size_t n)
{
    const struct ga_format *f = o->job.format;
    const struct ga_format *in = o->job.input_format ? o->job.input_format : f;
    struct ga_truth *truths = malloc(n * sizeof *truths + 1);
    int digits = ga_cli_digits(f);
    size_t undecided;

    if (!truths) {
        ga_cli_error("truth: out of memory");
        return GA_EXIT_USAGE;
    }
    if (ga_run_truth(&o->job, inputs, n, truths, &undecided) != 0) {
        char hex[GA_BITS_TEXT_LEN];
        ga_format_bits(in, inputs[undecided], hex);
        ga_cli_error("truth: the oracle reached its %d-bit cap on input %s", GA_ZIV_MAX_PRECISION, hex);
        free(truths);
        return GA_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < n; i++) {
        char in_hex[GA_BITS_TEXT_LEN], out_hex[GA_BITS_TEXT_LEN];
        ga_format_bits(in, inputs[i], in_hex);
        ga_format_bits(f, truths[i].rounded, out_hex);
        printf("%s %s %.*g %.*g", in_hex, out_hex, ga_cli_digits(in), ga_decode(in, inputs[i]),
               digits, ga_decode(f, truths[i].rounded));
        if (o->exact) {
            char exact[GA_TEXT_LEN];
            printf(" %s", ga_text_exact_digits(&truths[i].exact, 17, exact));
        }
        putchar('\n');
    }
    free(truths);
    return fflush(stdout) == 0 ? GA_EXIT_OK : GA_EXIT_USAGE;
}

/* --input-format: gelu of a wide format cast into a float8 one. */
static int check_cast(struct truth_options *o, const char *input_format_name)
{
    if (!(o->job.input_format = ga_cli_format(input_format_name)))
        return -1;
    if (ga_is_small_format(o->job.input_format) || !ga_cast_output_allowed(o->job.format)
        || o->job.function != GA_GELU) {
        ga_cli_error("truth: --input-format casts gelu of a wide format (bfloat16, float16, "
                     "float32) into float8_e4m3fn or float8_e5m2; got %s into %s, function %s",
                     o->job.input_format->name, o->job.format->name,
                     ga_function_name(o->job.function));
        return -1;
    }
    return 0;
}

int ga_cmd_truth(int argc, char **argv)
{
    struct truth_options o = { .job = { .function = GA_GELU, .oracle = GA_ORACLE_FAST } };
    const char *format_name = NULL, *input_format_name = NULL;
    char **values = malloc((size_t)argc * sizeof *values);
    int nvalues = 0, status;
    ga_bits *inputs;
    size_t count;

    if (!values)
        return GA_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {  /* the rest are values, even "--all" */
            while (++i < argc)
                values[nvalues++] = argv[i];
            break;
        }
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = strcmp(a, "--format") == 0 || strcmp(a, "--function") == 0
                        || strcmp(a, "--oracle") == 0 || strcmp(a, "--input") == 0
                        || strcmp(a, "--overflow") == 0 || strcmp(a, "--input-format") == 0;

        if (takes_value && !next) {
            ga_cli_error("truth: %s needs a value", a);
            free(values);
            return GA_EXIT_USAGE;
        }
        if (strcmp(a, "--help") == 0) {
            fputs(help, stdout);
            free(values);
            return GA_EXIT_OK;
        } else if (strcmp(a, "--format") == 0) {
            format_name = argv[++i];
        } else if (strcmp(a, "--function") == 0) {
            if (ga_oracle_function_by_name(argv[++i], &o.job.function) != 0) {
                ga_cli_error("truth: unknown function '%s' (known: gelu, gelu_tanh, gelu_grad, "
                             "gelu_tanh_grad)", argv[i]);
                goto usage;
            }
        } else if (strcmp(a, "--oracle") == 0) {
            if (ga_cli_oracle(argv[++i], &o.job.oracle) != 0)
                goto usage;
        } else if (strcmp(a, "--input-format") == 0) {
            input_format_name = argv[++i];
        } else if (strcmp(a, "--input") == 0) {
            o.input = argv[++i];
        } else if (strcmp(a, "--overflow") == 0) {
            if (ga_overflow_by_name(argv[++i], &o.job.overflow) != 0) {
                ga_cli_error("truth: unknown --overflow '%s' (infinity, satfinite or nan)",
                             argv[i]);
                goto usage;
            }
            o.overflow_given = true;
        } else if (strcmp(a, "--all") == 0) {
            o.all = true;
        } else if (strcmp(a, "--bits") == 0) {
            o.bits = true;
        } else if (strcmp(a, "--exact") == 0) {
            o.exact = true;
        } else if (strncmp(a, "--", 2) == 0 && a[2] != '\0') {
            ga_cli_error("truth: unknown option '%s' (see 'gelu-acc truth --help')", a);
            goto usage;
        } else {
            values[nvalues++] = argv[i];  /* "-0.5" and "-inf" are values */
        }
    }
    o.job.format = ga_cli_format(format_name);
    if (!o.job.format)
        goto usage;
    if (!o.overflow_given)
        o.job.overflow = ga_default_overflow(o.job.format);
    else if (!ga_overflow_allowed(o.job.format, o.job.overflow)) {
        ga_cli_error("truth: --overflow %s needs %s, which %s does not have",
                     ga_overflow_name(o.job.overflow),
                     o.job.overflow == GA_OVERFLOW_NAN ? "a NaN" : "an infinity",
                     o.job.format->name);
        goto usage;
    }
    if (input_format_name && check_cast(&o, input_format_name) != 0)
        goto usage;
    if (collect_inputs(&o, values, nvalues, &inputs, &count) != 0)
        goto usage;
    free(values);
    status = print_truths(&o, inputs, count);
    free(inputs);
    return status;
usage:
    free(values);
    return GA_EXIT_USAGE;
}
