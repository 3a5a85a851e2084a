/* gelu-acc sweep --backward: a backward kernel over a pair domain. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/backward_run.h"
#include "cli/measure.h"
#include "cli/options.h"
#include "cli/ranks.h"
#include "config.h"
#include "formats/parse_value.h"
#include "state/shard.h"

static const char help[] =
    "usage: gelu-acc sweep --backward (--impl NAME | --kernel LIB.so:SYMBOL)\n"
    "                      --format FORMAT [--domain D] [--dy V] [--timeout SECONDS]\n"
    "                      [--reference gelu_grad|gelu_tanh_grad] [--json] [--threads N]\n"
    "                      [--shard K/N --partial FILE]\n"
    "                      [--checkpoint FILE [--checkpoint-interval SECONDS]]\n"
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
    "Under 'mpirun -n P' (a gelu-acc built with\n"
    "MPI) rank R measures shard R+1 of P and rank 0 prints them merged, the same\n"
    "bytes.\n"
    "Exit status: 0 measured, 1 the kernel failed, 2 usage or input error,\n"
    "3 a truth not decided.\n";

/* --partial or --checkpoint: shard k of n of s, with the sweep's identity. */
static int run_shard(const struct ga_backward_sweep *s, const struct ga_format *f,
                     const struct ga_cli_options *o, ga_bits dy, uint32_t k, uint32_t n,
                     const char *partial, const char *checkpoint, double interval_s)
{
    struct ga_backward_sweep_id *id = calloc(1, sizeof *id);
    struct ga_backward_sweep tabled = *s;
    struct ga_grad_value *table = NULL;
    int status;

    if (!id) {
        ga_cli_error("sweep: out of memory");
        return GA_EXIT_INTERNAL;
    }
    ga_backward_sweep_id_init(id, PACKAGE_NAME " " PACKAGE_VERSION, s, dy,
                              s->plugin ? o->plugin.timeout_s : 0);
    /* d(x) of every 16-bit x once, not once per run of chunks */
    if (f->bits <= 16 && !(table = ga_backward_grad_table(s->reference, f))) {
        ga_cli_error("sweep: the derivative was not decided for some %s input, or out of "
                     "memory", f->name);
        free(id);
        return GA_EXIT_INTERNAL;
    }
    tabled.grad_table = table;
    status = ga_cli_backward_shard(&tabled, id, k, n, partial, checkpoint, interval_s,
                                   o->form == GA_CLI_JSON);
    free(table);
    free(id);
    return status;
}

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
        { "shard", required_argument, NULL, 'S' },
        { "partial", required_argument, NULL, 'P' },
        { "checkpoint", required_argument, NULL, 'C' },
        { "checkpoint-interval", required_argument, NULL, 'I' },
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    const char *dy_text = "1", *partial = NULL, *checkpoint = NULL, *interval = NULL;
    double interval_s = 10;
    uint32_t shard = 1, shards = 1;
    struct ga_cli_options o;
    struct ga_io_error io;
    struct ga_backward_sweep s = { 0 };
    struct ga_pairs pairs;
    const struct ga_format *f;
    int opt, status;
    ga_bits dy;
    char err[512];

    ga_cli_options_init(&o, "sweep", help, true, false);
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        if (opt == 'y') {
            dy_text = optarg;
        } else if (opt == 'P') {
            partial = optarg;
        } else if (opt == 'C') {
            checkpoint = optarg;
        } else if (opt == 'I') {
            if (ga_cli_checkpoint_interval("sweep", optarg, &interval_s) != 0)
                return GA_EXIT_USAGE;
            interval = optarg;
        } else if (opt == 'S') {
            if (ga_shard_parse(optarg, &shard, &shards) != 0) {
                ga_cli_error("sweep: --shard takes K/N with 1 <= K <= N <= %" PRIu32 ", not "
                             "'%s'", GA_SHARD_MAX, optarg);
                return GA_EXIT_USAGE;
            }
        } else if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON) {
            return status;
        }
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0)
        return GA_EXIT_USAGE;
    if (shards > 1 && !partial) {
        ga_cli_error("sweep: --shard needs --partial FILE (then 'gelu-acc merge')");
        return GA_EXIT_USAGE;
    }
    if (interval && !checkpoint) {
        ga_cli_error("sweep: --checkpoint-interval needs --checkpoint FILE");
        return GA_EXIT_USAGE;
    }
    if ((partial || checkpoint) && ga_ranks_count() > 1) {
        ga_cli_error("sweep: under mpirun the ranks are the shards: --shard, --partial and "
                     "--checkpoint cannot be used with --backward");
        return GA_EXIT_USAGE;
    }
    if (!o.impl == !o.kernel) {
        ga_cli_error("sweep: --backward needs one of --impl NAME ('gelu-acc list --backward') "
                     "and --kernel LIB.so:SYMBOL");
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    if (ga_parse_value(f, dy_text, &dy) != 0) {
        ga_cli_error("sweep: --dy takes a number, not '%s'", dy_text);
        return GA_EXIT_USAGE;
    }
    if (!o.domain)
        o.domain = f->bits == 16 ? "pairs:all" : ga_domain_default(f);
    if (ga_pairs_parse(&pairs, o.domain, f, dy, err, sizeof err) != 0) {
        ga_cli_error("sweep: %s", err);
        return GA_EXIT_USAGE;
    }
    s.reference = o.reference;  /* gelu_grad unless given; a catalogue kernel's otherwise */
    s.threads = o.threads;
    if (o.kernel) {
        if (o.plugin.narrow_timeout_s > o.plugin.timeout_s)
            o.plugin.narrow_timeout_s = o.plugin.timeout_s;
        if (ga_plugin_open_backward(o.kernel, f, &o.plugin, &s.plugin, &io) != GA_IO_OK) {
            ga_cli_error("sweep: %s", io.message);
            ga_pairs_free(&pairs);
            return GA_EXIT_USAGE;
        }
        s.name = o.kernel;
    } else if (!ga_backward_catalogue_find(o.impl) && ga_real_backward_find(o.impl)) {
        const struct ga_real_desc *r = ga_real_backward_find(o.impl);
        struct gelu_acc_real_info about;
        if (ga_real_open_backward(r, f, &o.plugin, &s.plugin, &about, &io) != GA_IO_OK) {
            ga_cli_error("sweep: %s", io.message);
            ga_pairs_free(&pairs);
            return GA_EXIT_USAGE;
        }
        s.name = r->name;
        if (!o.have_reference)
            s.reference = r->approximates;
    } else if (!(s.impl = ga_backward_catalogue_find(o.impl))) {
        ga_cli_error("sweep: --backward needs --impl with a backward kernel ('gelu-acc list "
                     "--backward'), not '%s'", o.impl);
        ga_pairs_free(&pairs);
        return GA_EXIT_USAGE;
    } else if (!ga_backward_supports(s.impl, f)) {
        ga_cli_error("sweep: %s does not support %s", s.impl->name, f->name);
        ga_pairs_free(&pairs);
        return GA_EXIT_USAGE;
    } else {
        s.name = s.impl->name;
        if (!o.have_reference)
            s.reference = s.impl->approximates;
    }
    s.pairs = &pairs;
    if (partial || checkpoint)
        status = run_shard(&s, f, &o, dy, shard, shards, partial, checkpoint, interval_s);
    else
        status = ga_cli_backward_run("sweep", &s, o.form == GA_CLI_JSON, NULL, NULL);
    ga_pairs_free(&pairs);
    ga_plugin_close(s.plugin);
    return status;
}
