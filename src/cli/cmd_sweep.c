/* gelu-acc sweep: measure one implementation over a domain. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure.h"
#include "sweep/kernel_spec.h"

static const char help[] =
    "usage: gelu-acc sweep (--impl NAME | --kernel LIB.so:SYMBOL) --format FORMAT\n"
    "                      [--reference gelu|gelu_tanh] [--domain D] [--json | --csv]\n"
    "                      [--oracle fast|mpfr] [--threads N] [--timeout SECONDS]\n"
    "                      [--max-failures K]\n"
    "\n"
    "Measures an implementation of the catalogue ('gelu-acc list'), or a kernel\n"
    "of the C ABI in <gelu-acc/kernel.h> from a shared library, against the\n"
    "correctly rounded reference (default: exact GELU) on every input of the domain:\n"
    "  all              every encoding (default for float16 and bfloat16)\n"
    "  range:A:B        every encoding with value in [A, B]\n"
    "  random:N[:SEED]  N encodings drawn uniformly\n"
    "  stride:K[:OFF]   every Kth encoding (float32 default: stride:4096)\n"
    "  file:PATH        encodings listed in a file, one hexadecimal encoding per line\n"
    "Prints a readable summary, or JSON / CSV (schemas in the README).\n"
    "A plugin kernel runs in worker processes: a crash, a hang (--timeout per\n"
    "batch, default 10 s, at most 86400 s), an access past its arrays or an output\n"
    "that depends on its position in the batch is reported with the inputs where\n"
    "it happened.  --max-failures K stops at the Kth failed batch in domain order.\n"
    "Numbers and domain fields: README, \"Numbers, domains and bits files\".\n"
    "Exit status: 0 measured, 1 the kernel failed, 2 usage or input error.\n";

int ga_cmd_sweep(int argc, char **argv)
{
    static const struct option options[] = {
        { "impl", required_argument, NULL, 'i' },
        { "kernel", required_argument, NULL, 'k' },
        { "timeout", required_argument, NULL, 'T' },
        { "max-failures", required_argument, NULL, 'm' },
        { "format", required_argument, NULL, 'f' },
        { "reference", required_argument, NULL, 'r' },
        { "domain", required_argument, NULL, 'd' },
        { "oracle", required_argument, NULL, 'o' },
        { "threads", required_argument, NULL, 't' },
        { "json", no_argument, NULL, 'j' },
        { "csv", no_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *impl_name = NULL, *kernel = NULL, *format_name = NULL, *domain_spec = NULL;
    struct ga_plugin_options po;
    struct ga_kernel_request rq = { .reference = GA_GELU };
    struct ga_kernel k;
    struct ga_io_error io;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST };
    enum ga_cli_form form = GA_CLI_TEXT;
    const struct ga_format *f;
    struct ga_result *result;
    char *plugin_spec = NULL;
    int opt, status;

    ga_plugin_default_options(&po);
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'i': impl_name = optarg; break;
        case 'k': kernel = optarg; break;
        case 'T':
            if (ga_cli_timeout("sweep", optarg, &po.timeout_s) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'm':
            if (ga_sweep_parse_max_failures(optarg, &so.max_failures) != 0) {
                ga_cli_error("sweep: --max-failures takes a positive count, not '%s'", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'f': format_name = optarg; break;
        case 'd': domain_spec = optarg; break;
        case 'j':
        case 'c':
            if (form != GA_CLI_TEXT) {
                ga_cli_error("sweep: choose one of --json and --csv");
                return GA_EXIT_USAGE;
            }
            form = opt == 'j' ? GA_CLI_JSON : GA_CLI_CSV;
            break;
        case 'r':
            if (ga_cli_function(optarg, &rq.reference) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'o':
            if (ga_cli_oracle(optarg, &so.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("sweep", optarg, &so.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("sweep: see 'gelu-acc sweep --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("sweep: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(format_name)))
        return GA_EXIT_USAGE;
    if (!impl_name == !kernel) {
        ga_cli_error("sweep: give one of --impl NAME (see 'gelu-acc list') and --kernel LIB.so:SYMBOL");
        return GA_EXIT_USAGE;
    }
    if (kernel) {
        size_t n = strlen(kernel) + sizeof "plugin:";
        if (!(plugin_spec = malloc(n)))
            return GA_EXIT_INTERNAL;
        snprintf(plugin_spec, n, "plugin:%s", kernel);
    }
    rq.spec = kernel ? plugin_spec : impl_name;
    rq.format = f;
    rq.domain = domain_spec;
    rq.plugin_options = &po;
    if (ga_kernel_open(&k, &rq, &io) != GA_IO_OK) {
        ga_cli_error("sweep: %s", io.message);
        free(plugin_spec);
        return GA_EXIT_USAGE;
    }
    free(plugin_spec);
    impl_name = k.measurement.impl->name;
    ga_cli_warn_undeclared("sweep", &k, f);

    if (!(result = malloc(sizeof *result))) {
        status = GA_EXIT_INTERNAL;
    } else if ((status = ga_cli_measure("sweep", f, &k.domain, &k.measurement, &so, NULL,
                                        result)) == GA_EXIT_OK) {
        status = ga_cli_print_result(result, form);
        if (status == GA_EXIT_OK && result->failed) {
            ga_cli_error("sweep: %s failed: %s", impl_name, result->spans[0].what);
            status = GA_EXIT_REGRESSION;
        }
    }
    free(result);
    ga_kernel_close(&k);
    return status;
}
