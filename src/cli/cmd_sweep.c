/* gelu-acc sweep: measure one implementation over a domain, or a shard of
 * it into a partial file, with checkpoints if asked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/options.h"
#include "cli/progress.h"
#include "engine/run_sweep.h"
#include "io/parse_count.h"
#include "report/plan.h"
#include "state/ranks.h"

static const char help[] =
    "usage: gelu-acc sweep (--impl NAME | --kernel LIB.so:SYMBOL) --format FORMAT\n"
    "                      [--reference gelu|gelu_tanh] [--domain D] [--json | --csv]\n"
    "                      [--oracle fast|mpfr] [--threads N] [--timeout SECONDS]\n"
    "                      [--max-failures K] [--shard K/N --partial FILE]\n"
    "                      [--checkpoint FILE [--checkpoint-interval SECONDS]]\n"
    "                      [--save-outputs FILE]\n"
    "       gelu-acc sweep --format float8_e4m3fn|float8_e5m2 --input-format WIDE\n"
    "                      [--domain D]\n"
    "\n"
    "Measures an implementation of the catalogue ('gelu-acc list'), or a kernel\n"
    "of the C ABI in <gelu-acc/kernel.h> from a shared library, against the\n"
    "correctly rounded reference (default: exact GELU) on every input of the domain:\n"
    "  all              every encoding (default for float16 and bfloat16)\n"
    "  range:A:B[:N]    every encoding with value in [A, B], or N of them on a stride\n"
    "  random:N[:SEED]  N encodings drawn uniformly (float64 default: random:1048576)\n"
    "  stride:K[:OFF]   every Kth encoding (float32 default: stride:4096)\n"
    "  file:PATH        encodings listed in a file, one hexadecimal encoding per line,\n"
    "                   or a .npy array\n"
    "  raw:PATH         a raw file: little-endian encodings of the format's width\n"
    "  D1,D2,...        the inputs of D1, then D2, ...\n"
    "float64 refuses all and stride: (2^64 encodings) and range:A:B over more\n"
    "than 2^32 encodings.\n"
    "Prints a readable summary, or JSON / CSV (schemas in doc/commands.md), with the\n"
    "kernel's shape: adjacent inputs whose outputs go against gelu's order left\n"
    "and right of its minimum (all, stride: and range: domains), its minimum,\n"
    "nonzero outputs of the wrong sign, and x >= 0 where k(x) - k(-x) = x breaks\n"
    "beyond the outputs' rounding (the kernel runs on -x too; doc/metrics.md).\n"
    "A plugin kernel runs in worker processes: a crash, a hang (--timeout per\n"
    "batch, default 10 s, at most 86400 s), an access past its arrays or an output\n"
    "that depends on its position in the batch is reported with the inputs where\n"
    "it happened.  --max-failures K stops at the Kth failed batch in domain order.\n"
    "--shard K/N --partial FILE measures shard K of N (1 <= K <= N: a run of\n"
    "whole chunks of the domain) and writes its complete state to FILE instead of\n"
    "printing; 'gelu-acc merge' of the N files prints what one sweep prints, byte\n"
    "for byte (--partial alone: the whole domain, shard 1/1).\n"
    "--checkpoint FILE saves the state to FILE every --checkpoint-interval seconds\n"
    "(default 10, at least 1) and at the end; the same command run again resumes\n"
    "from it and "
    "prints the same bytes.  A checkpoint of another command is refused.\n"
    "--save-outputs FILE also writes the kernel's outputs over the domain, in\n"
    "domain order (.npy when FILE ends so, else raw): with the domain's inputs\n"
    "('gelu-acc inputs') a snapshot that 'compare' and 'check' read as\n"
    "outputs:FILE; at most 2^26 inputs, one process (doc/compare.md, \"Snapshots\").\n"
    "--input-format WIDE measures GELU fused with a cast: every encoding of WIDE\n"
    "(bfloat16, float16; float32 needs --domain) through float32 GELU converted\n"
    "once into the float8 FORMAT (models erf_satfinite, erf_overflow_nan,\n"
    "erf_truncate) against the truth of the cast under each overflow convention\n"
    "(MPFR); prints the table the report's float8 pages show.\n"
    "Under 'mpirun -n P' (a gelu-acc built with MPI: doc/scale.md, \"MPI\") rank R\n"
    "measures shard R+1 of P, rank 0 merges the shards exactly and alone prints\n"
    "(or writes --partial), the same bytes for every P; --checkpoint FILE keeps\n"
    "one file per rank, FILE.K-of-P.  An error on one rank stops every rank.\n"
    "Numbers and domain fields: doc/commands.md, \"Numbers, domains and bits files\";\n"
    "shards and MPI: doc/scale.md.\n"
    "--backward measures a backward kernel on (x, dy) pairs: see\n"
    "'gelu-acc sweep --backward --help'.\n"
    "Exit status: 0 measured (or the partial file written), 1 the kernel failed,\n"
    "2 usage or input error.\n";

static void warn(const char *message)
{
    ga_cli_error("sweep: warning: %s", message);
}

/* --input-format WIDE: every fused model, every convention, nothing else to choose. */
static int sweep_cast(const struct ga_cli_options *o, const struct ga_format *f,
                      const char *input_format)
{
    if (ga_ranks_count() > 1) {
        ga_cli_error("sweep: --input-format runs as one process, not under mpirun");
        return GA_EXIT_USAGE;
    }
    if (o->impl || o->kernel || o->share.partial || o->share.checkpoint || o->form != GA_CLI_TEXT
        || o->reference != GA_GELU) {
        ga_cli_error("sweep: --input-format measures the fused GELU + cast models against "
                     "exact GELU and prints their table: it takes only --format and --domain");
        return GA_EXIT_USAGE;
    }
    return ga_cli_sweep_cast(f, input_format, o->domain);
}

/* The options that go together, beyond each one's own syntax. */
static int consistent(const struct ga_cli_options *o, uint64_t max_failures)
{
    if (o->share.shards > 1 && max_failures > 0 && ga_ranks_count() <= 1) {
        ga_cli_error("sweep: --max-failures cannot be used with --shard: a shard does not know "
                     "the failed batches of the shards before it");
        return -1;
    }
    if (ga_ranks_count() > 1 && max_failures > 0) {
        ga_cli_error("sweep: under mpirun the ranks are the shards: --shard and --max-failures "
                     "cannot be used");
        return -1;
    }
    if (o->share.partial && o->form != GA_CLI_TEXT) {
        ga_cli_error("sweep: --partial writes a file and prints nothing: give --json or --csv "
                     "to 'gelu-acc merge'");
        return -1;
    }
    if (!o->impl == !o->kernel) {
        ga_cli_error("sweep: give one of --impl NAME (see 'gelu-acc list') and --kernel "
                     "LIB.so:SYMBOL");
        return -1;
    }
    return 0;
}

/* The sweep of the job, printed (rank 0, without --partial). */
static int sweep(struct ga_sweep_job *job, const struct ga_cli_options *o)
{
    struct ga_sweep_done done;
    struct ga_progress progress;
    char why[GA_ENGINE_WHY];
    int status;

    ga_progress_attach(&progress, &job->options, o->impl ? o->impl : o->kernel);
    status = ga_run_sweep(job, &done, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_cli_error("sweep: %s", why);
    else if (done.state && !done.written && done.kernel.real != NULL) {
        struct ga_report_machine_text text;
        struct ga_result_machine machine;
        ga_report_kernel_machine(done.kernel.real, ga_format_by_name(done.state->id.format),
                                 &text, &machine);
        status = ga_cli_print_partial("sweep", done.state, &done.kernel.domain, o->form,
                                      &machine);
    } else if (done.state && !done.written) {
        status = ga_cli_print_partial("sweep", done.state, &done.kernel.domain, o->form, NULL);
    }
    ga_sweep_done_free(&done);
    return status;
}

int ga_cmd_sweep(int argc, char **argv)
{
    static const struct option options[] = {
        GA_CLI_OPTION_IMPL,
        GA_CLI_OPTION_KERNEL,
        GA_CLI_OPTION_TIMEOUT,
        { "max-failures", required_argument, NULL, 'm' },
        GA_CLI_OPTION_FORMAT,
        { "input-format", required_argument, NULL, 'W' },
        { "save-outputs", required_argument, NULL, 'S' },
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_DOMAIN,
        GA_CLI_OPTION_ORACLE,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_CSV,
        GA_CLI_OPTIONS_SHARE,
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    struct ga_cli_options o;
    struct ga_sweep_job job = { .warn = warn };
    const struct ga_format *f;
    const char *input_format = NULL;
    char plugin_spec[GA_DOMAIN_SPEC_LEN + 8];
    int opt, status;

    if (ga_cli_wants_backward(argc, argv))
        return ga_cmd_sweep_backward(argc, argv);
    ga_cli_options_init(&o, "sweep", help, false, true);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("sweep", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'm':
            if (ga_parse_max_failures(optarg, &job.options.max_failures) != 0) {
                ga_cli_error("sweep: --max-failures takes a positive count, not '%s'", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'W': input_format = optarg; break;
        case 'S': job.save_outputs = optarg; break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
        }
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0 || !(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    if (input_format && job.save_outputs) {
        ga_cli_error("sweep: --save-outputs keeps one kernel's outputs: not with --input-format");
        return GA_EXIT_USAGE;
    }
    if (input_format)
        return sweep_cast(&o, f, input_format);
    if (consistent(&o, job.options.max_failures) != 0 || ga_cli_share(&o) != 0)
        return GA_EXIT_USAGE;
    if (o.kernel && (size_t)snprintf(plugin_spec, sizeof plugin_spec, "plugin:%s", o.kernel)
                        >= sizeof plugin_spec) {
        ga_cli_error("sweep: --kernel: a spec of %zu characters is too long", strlen(o.kernel));
        return GA_EXIT_USAGE;
    }
    job.kernel = (struct ga_kernel_request){
        .spec = o.kernel ? plugin_spec : o.impl, .format = f, .domain = o.domain,
        .plugin_options = &o.plugin, .reference = o.reference,
    };
    job.options.oracle = o.oracle;
    job.options.threads = o.threads;
    job.share = o.share;
    return sweep(&job, &o);
}
