/* gelu-acc sweep --backward: a backward kernel over a pair domain. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "formats/parse_value.h"
#include "report/backward_print.h"
#include "sweep/backward_sweep.h"

static const char help[] =
    "usage: gelu-acc sweep --backward --impl NAME --format FORMAT [--domain D] [--dy V]\n"
    "                      [--reference gelu_grad|gelu_tanh_grad] [--json] [--threads N]\n"
    "\n"
    "Measures a backward kernel ('gelu-acc list --backward') on pairs (x, dy)\n"
    "against RN_FORMAT(dy * d(x)), d the derivative it approximates (default:\n"
    "the one the catalogue names), certified:\n"
    "  pairs:all              every (x, dy) pair of bfloat16 or float16 (2^32)\n"
    "  pairs:random:N[:SEED]  N pairs drawn uniformly\n"
    "  any forward domain     x over it, dy fixed to --dy V (default 1)\n"
    "Default domain: pairs:all for the 16-bit formats, stride:4096 with dy = 1\n"
    "for float32.  Prints ulp error, correctly rounded and faithful counts, the\n"
    "error in units of ulp(dy), sign errors, the worst pair, and the same for the\n"
    "root region x in [-1, -0.5] with the x interval where dx stops being faithful.\n"
    "Exit status: 0 measured, 2 usage or input error, 3 a truth not decided.\n";

static int parse_reference(const char *name, enum ga_function *fn)
{
    if (ga_oracle_function_by_name(name, fn) == 0 && !ga_function_is_forward(*fn))
        return 0;
    ga_cli_error("sweep: --reference of a backward sweep is gelu_grad or gelu_tanh_grad, not '%s'", name);
    return -1;
}

int ga_cmd_sweep_backward(int argc, char **argv)
{
    static const struct option options[] = {
        { "backward", no_argument, NULL, 'b' },
        { "impl", required_argument, NULL, 'i' },
        { "format", required_argument, NULL, 'f' },
        { "domain", required_argument, NULL, 'd' },
        { "dy", required_argument, NULL, 'y' },
        { "reference", required_argument, NULL, 'r' },
        { "json", no_argument, NULL, 'j' },
        { "threads", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *impl_name = NULL, *format_name = NULL, *domain = NULL, *dy_text = "1";
    struct ga_backward_sweep s = { 0 };
    struct ga_backward_stats st;
    struct ga_pairs pairs;
    const struct ga_format *f;
    int opt, json = 0, have_reference = 0, status;
    ga_bits dy;
    char err[512];

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'b': break;
        case 'i': impl_name = optarg; break;
        case 'f': format_name = optarg; break;
        case 'd': domain = optarg; break;
        case 'y': dy_text = optarg; break;
        case 'r':
            if (parse_reference(optarg, &s.reference) != 0)
                return GA_EXIT_USAGE;
            have_reference = 1;
            break;
        case 'j': json = 1; break;
        case 't':
            if (ga_cli_threads("sweep", optarg, &s.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("sweep: see 'gelu-acc sweep --backward --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("sweep: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(format_name)))
        return GA_EXIT_USAGE;
    if (!impl_name || !(s.impl = ga_backward_catalogue_find(impl_name))) {
        ga_cli_error("sweep: --backward needs --impl with a backward kernel ('gelu-acc list "
                     "--backward'), not '%s'", impl_name ? impl_name : "");
        return GA_EXIT_USAGE;
    }
    if (!ga_backward_supports(s.impl, f)) {
        ga_cli_error("sweep: %s does not support %s", s.impl->name, f->name);
        return GA_EXIT_USAGE;
    }
    if (!have_reference)
        s.reference = s.impl->approximates;
    if (ga_parse_value(f, dy_text, &dy) != 0) {
        ga_cli_error("sweep: --dy takes a number, not '%s'", dy_text);
        return GA_EXIT_USAGE;
    }
    if (!domain)
        domain = f->bits == 16 ? "pairs:all" : ga_domain_default(f);
    if (ga_pairs_parse(&pairs, domain, f, dy, err, sizeof err) != 0) {
        ga_cli_error("sweep: %s", err);
        return GA_EXIT_USAGE;
    }
    s.pairs = &pairs;
    if (ga_backward_sweep_run(&s, &st, err, sizeof err) != 0) {
        ga_cli_error("sweep: %s", err);
        status = GA_EXIT_INTERNAL;
    } else if ((json ? ga_backward_print_json : ga_backward_print_text)(stdout, &s, &st) != 0) {
        ga_cli_error("sweep: writing the results failed");
        status = GA_EXIT_USAGE;
    } else {
        status = GA_EXIT_OK;
    }
    ga_pairs_free(&pairs);
    return status;
}
