/* gelu-acc sweep --backward: a backward kernel over a pair domain. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/measure.h"
#include "formats/parse_value.h"
#include "cli/backward_run.h"

static const char help[] =
    "usage: gelu-acc sweep --backward (--impl NAME | --kernel LIB.so:SYMBOL)\n"
    "                      --format FORMAT [--domain D] [--dy V] [--timeout SECONDS]\n"
    "                      [--reference gelu_grad|gelu_tanh_grad] [--json] [--threads N]\n"
    "\n"
    "Measures a backward kernel ('gelu-acc list --backward': models and real\n"
    "libraries' kernels), or a backward kernel\n"
    "of <gelu-acc/kernel.h> (GELU_ACC_BACKWARD_KERNEL_BF16...; default reference\n"
    "gelu_grad) from a shared library, on pairs (x, dy)\n"
    "against RN_FORMAT(dy * d(x)), d the derivative it approximates (default:\n"
    "the one the catalogue names), certified:\n"
    "  pairs:all              every (x, dy) pair of bfloat16 or float16 (2^32)\n"
    "  pairs:random:N[:SEED]  N pairs drawn uniformly\n"
    "  any forward domain     x over it, dy fixed to --dy V (default 1)\n"
    "V is a number rounded to FORMAT, as every value on the command line: --dy\n"
    "0x3f80 is the hex float 16256, not an encoding (bfloat16's 1 is --dy 1 or\n"
    "0x1p0); the JSON's \"dy\" shows the encoding used.\n"
    "Default domain: pairs:all for the 16-bit formats, stride:4096 with dy = 1\n"
    "for float32.  Prints ulp error, correctly rounded and faithful counts, the\n"
    "error in units of ulp(dy), sign errors, the worst pair, and the same for the\n"
    "root region x in [-1, -0.5] with the x interval where dx stops being faithful.\n"
    "A plugin kernel runs in worker processes as in a forward sweep: a batch it\n"
    "crashes or hangs on (--timeout per batch, default 10 s) is left out and\n"
    "reported with the pairs responsible.\n"
    "Exit status: 0 measured, 1 the kernel failed, 2 usage or input error,\n"
    "3 a truth not decided.\n";

int ga_cmd_sweep_backward(int argc, char **argv)
{
    static const struct option options[] = {
        { "backward", no_argument, NULL, 'b' },
        { "impl", required_argument, NULL, 'i' },
        { "kernel", required_argument, NULL, 'k' },
        { "timeout", required_argument, NULL, 'T' },
        { "format", required_argument, NULL, 'f' },
        { "domain", required_argument, NULL, 'd' },
        { "dy", required_argument, NULL, 'y' },
        { "reference", required_argument, NULL, 'r' },
        { "json", no_argument, NULL, 'j' },
        { "threads", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *impl_name = NULL, *kernel = NULL, *format_name = NULL, *domain = NULL;
    const char *dy_text = "1";
    struct ga_plugin_options po;
    struct ga_io_error io;
    struct ga_backward_sweep s = { 0 };
    struct ga_pairs pairs;
    const struct ga_format *f;
    bool json = false;
    int opt, have_reference = 0, status;
    ga_bits dy;
    char err[512];

    ga_plugin_default_options(&po);
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'b': break;
        case 'i': impl_name = optarg; break;
        case 'k': kernel = optarg; break;
        case 'T':
            if (ga_cli_timeout("sweep", optarg, &po.timeout_s) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'f': format_name = optarg; break;
        case 'd': domain = optarg; break;
        case 'y': dy_text = optarg; break;
        case 'r':
            if (ga_cli_derivative("sweep", optarg, &s.reference) != 0)
                return GA_EXIT_USAGE;
            have_reference = 1;
            break;
        case 'j': json = true; break;
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
    if (!impl_name == !kernel) {
        ga_cli_error("sweep: --backward needs one of --impl NAME ('gelu-acc list --backward') "
                     "and --kernel LIB.so:SYMBOL");
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(format_name)))
        return GA_EXIT_USAGE;
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
    if (kernel) {
        if (po.narrow_timeout_s > po.timeout_s)
            po.narrow_timeout_s = po.timeout_s;
        if (ga_plugin_open_backward(kernel, f, &po, &s.plugin, &io) != GA_IO_OK) {
            ga_cli_error("sweep: %s", io.message);
            ga_pairs_free(&pairs);
            return GA_EXIT_USAGE;
        }
        s.name = kernel;
        if (!have_reference)
            s.reference = GA_GELU_GRAD;
    } else if (!ga_backward_catalogue_find(impl_name) && ga_real_backward_find(impl_name)) {
        const struct ga_real_desc *r = ga_real_backward_find(impl_name);
        struct gelu_acc_real_info about;
        if (ga_real_open_backward(r, f, &po, &s.plugin, &about, &io) != GA_IO_OK) {
            ga_cli_error("sweep: %s", io.message);
            ga_pairs_free(&pairs);
            return GA_EXIT_USAGE;
        }
        s.name = r->name;
        if (!have_reference)
            s.reference = r->approximates;
    } else if (!(s.impl = ga_backward_catalogue_find(impl_name))) {
        ga_cli_error("sweep: --backward needs --impl with a backward kernel ('gelu-acc list "
                     "--backward'), not '%s'", impl_name);
        ga_pairs_free(&pairs);
        return GA_EXIT_USAGE;
    } else if (!ga_backward_supports(s.impl, f)) {
        ga_cli_error("sweep: %s does not support %s", s.impl->name, f->name);
        ga_pairs_free(&pairs);
        return GA_EXIT_USAGE;
    } else {
        s.name = s.impl->name;
        if (!have_reference)
            s.reference = s.impl->approximates;
    }
    s.pairs = &pairs;
    status = ga_cli_backward_run("sweep", &s, json, NULL, NULL);
    ga_pairs_free(&pairs);
    ga_plugin_close(s.plugin);
    return status;
}
