/* gelu-acc sweep --backward: a backward kernel over a pair domain. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/measure.h"
#include "cli/options.h"
#include "engine/run_backward.h"
#include "report/plan.h"

static const char help[] =
    "usage: gelu-acc sweep --backward (--impl NAME | --kernel LIB.so:SYMBOL)\n"
    "                      --format FORMAT [--domain D] [--dy V] [--timeout SECONDS]\n"
    "                      [--reference gelu_grad|gelu_tanh_grad] [--json] [--threads N]\n"
    "                      [--shard K/N --partial FILE]\n"
    "                      [--checkpoint FILE [--checkpoint-interval SECONDS]]\n"
    "                      [--save-outputs FILE]\n"
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
    "--shard K/N --partial FILE measures shard K of N of the pairs (a run of\n"
    "whole chunks of 65536) and writes its state to FILE instead of printing;\n"
    "'gelu-acc merge' of the N files prints what one sweep prints, byte for byte\n"
    "(--partial alone: shard 1/1).  --checkpoint FILE saves the state to FILE\n"
    "every --checkpoint-interval seconds (default 10) and at the end; the same\n"
    "command run again resumes from it and prints (or writes) the same bytes.\n"
    "--save-outputs FILE also writes dx in pair order to FILE and the pairs beside\n"
    "it (STEM.x.npy and STEM.dy.npy for STEM.npy, else FILE.x and FILE.dy): a\n"
    "snapshot that 'compare --backward' reads as outputs:FILE --inputs X\n"
    "--dy-inputs DY; at most 2^26 pairs, one process (doc/compare.md).\n"
    "Under 'mpirun -n P' (a gelu-acc built with\n"
    "MPI) rank R measures shard R+1 of P and rank 0 prints them merged, the same\n"
    "bytes.\n"
    "Exit status: 0 measured, 1 the kernel failed, 2 usage or input error,\n"
    "3 a truth not decided.\n";

int ga_cmd_sweep_backward(int argc, char **argv)
{
    static const struct option options[] = {
        GA_CLI_OPTION_BACKWARD,
        GA_CLI_OPTION_IMPL,
        GA_CLI_OPTION_KERNEL,
        GA_CLI_OPTION_TIMEOUT,
        GA_CLI_OPTION_FORMAT,
        GA_CLI_OPTION_DOMAIN,
        { "dy", required_argument, NULL, 'y' },
        { "save-outputs", required_argument, NULL, 'S' },
        GA_CLI_OPTIONS_SHARE,
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    struct ga_cli_options o;
    struct ga_backward_job job;
    struct ga_backward_done done;
    const struct ga_format *f;
    const char *dy = NULL, *save = NULL;
    char spec[GA_DOMAIN_SPEC_LEN + 8], why[GA_ENGINE_WHY];
    int opt, status;

    ga_cli_options_init(&o, "sweep", help, true, false);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("sweep", argc, argv, "", options, &seen)) != -1) {
        if (opt == 'y')
            dy = optarg;
        else if (opt == 'S')
            save = optarg;
        else if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
            return status;
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0 || ga_cli_share(&o) != 0)
        return GA_EXIT_USAGE;
    if (!o.impl == !o.kernel) {
        ga_cli_error("sweep: --backward needs one of --impl NAME ('gelu-acc list --backward') "
                     "and --kernel LIB.so:SYMBOL");
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    snprintf(spec, sizeof spec, "%s%s", o.kernel ? "plugin:" : "", o.kernel ? o.kernel : o.impl);
    job = (struct ga_backward_job){
        .kernel = { .spec = spec, .format = f, .reference = o.reference,
                    .have_reference = o.have_reference || o.kernel, .domain = o.domain,
                    .dy = dy, .plugin_options = &o.plugin, .threads = o.threads },
        .share = o.share,
        .save_outputs = save,
    };
    status = ga_run_backward(&job, &done, why, sizeof why);
    if (status != GA_ENGINE_OK && status != GA_ENGINE_FAILED)
        ga_cli_error("sweep: %s", why);
    else if (done.have_stats) {
        /* a real library's kernel: the machine keys of a report's real rows */
        struct ga_report_machine_text text;
        struct ga_result_machine machine;
        const struct ga_backward_kernel *k = &done.kernel;
        if (k->real != NULL)
            ga_report_call_machine(k->real->library, k->real->entry, k->length, &k->about,
                                   &text, &machine);
        status = ga_cli_print_backward_stats("sweep", &k->sweep, &done.stats,
                                             o.form == GA_CLI_JSON,
                                             k->real != NULL ? &machine : NULL);
    }
    ga_backward_done_free(&done);
    return status;
}
