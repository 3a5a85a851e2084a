/* gelu-acc sweep: measure one implementation over a domain, or a shard of
 * it into a partial file, with checkpoints if asked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/ranks.h"
#include "io/parse_count.h"
#include "measure/kernel_spec.h"
#include "state/partial.h"
#include "state/shard.h"

static const char help[] =
    "usage: gelu-acc sweep (--impl NAME | --kernel LIB.so:SYMBOL) --format FORMAT\n"
    "                      [--reference gelu|gelu_tanh] [--domain D] [--json | --csv]\n"
    "                      [--oracle fast|mpfr] [--threads N] [--timeout SECONDS]\n"
    "                      [--max-failures K] [--shard K/N --partial FILE]\n"
    "                      [--checkpoint FILE [--checkpoint-interval SECONDS]]\n"
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
    "Prints a readable summary, or JSON / CSV (schemas in the README), with the\n"
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
    "(default 10) and at the end; the same command run again resumes from it and\n"
    "prints the same bytes.  A checkpoint of another command is refused.\n"
    "--input-format WIDE measures GELU fused with a cast: every encoding of WIDE\n"
    "(bfloat16, float16; float32 needs --domain) through float32 GELU converted\n"
    "once into the float8 FORMAT (models erf_satfinite, erf_overflow_nan,\n"
    "erf_truncate) against the truth of the cast under each overflow convention\n"
    "(MPFR); prints the table the report's float8 pages show.\n"
    "Under 'mpirun -n P' (a gelu-acc built with MPI: README, \"MPI\") rank R\n"
    "measures shard R+1 of P, rank 0 merges the shards exactly and alone prints\n"
    "(or writes --partial), the same bytes for every P; --checkpoint FILE keeps\n"
    "one file per rank, FILE.K-of-P.  An error on one rank stops every rank.\n"
    "Numbers and domain fields: README, \"Numbers, domains and bits files\";\n"
    "shards and MPI: README, \"Shards, merge and checkpoints\".\n"
    "--backward measures a backward kernel on (x, dy) pairs: see\n"
    "'gelu-acc sweep --backward --help'.\n"
    "Exit status: 0 measured (or the partial file written), 1 the kernel failed,\n"
    "2 usage or input error.\n";

/* What --shard, --partial and --checkpoint ask for; under mpirun, the
 * share of this rank (ranks: the number of ranks). */
struct share_request {
    uint32_t shard, shards, ranks;
    const char *partial, *checkpoint;
    double interval_s;
};

static int save_checkpoint(void *ctx, const struct ga_partial *p)
{
    const char *path = ctx;
    struct ga_io_error err;

    if (ga_partial_write(path, p, &err) != GA_IO_OK) {
        ga_cli_error("sweep: checkpoint: %s", err.message);
        return GA_PARTIAL_SAVE_FAILED;
    }
    return 0;
}

/* The state to start from: the checkpoint's when there is one (refused when
 * it is another sweep's), else nothing measured.  NULL after a message. */
static struct ga_partial *start_state(const struct ga_partial_identity *id,
                                      const struct share_request *sr, int *status)
{
    struct ga_partial *p;
    struct ga_io_error err;
    struct stat st;
    int field;

    *status = GA_EXIT_USAGE;
    if (!sr->checkpoint || (stat(sr->checkpoint, &st) != 0 && errno == ENOENT)) {
        if (!(p = ga_partial_new(id, sr->shard, sr->shards))) {
            ga_cli_error("sweep: out of memory");
            *status = GA_EXIT_INTERNAL;
        }
        return p;
    }
    if (ga_partial_read(sr->checkpoint, &p, &err) != GA_IO_OK) {
        ga_cli_error("sweep: checkpoint %s", err.message);
        return NULL;
    }
    if ((field = ga_partial_identity_differs(&p->id, id)) >= 0) {
        static struct ga_partial_field there[GA_PARTIAL_FIELDS], here[GA_PARTIAL_FIELDS];
        ga_partial_fields(&p->id, there);
        ga_partial_fields(id, here);
        ga_cli_error("sweep: checkpoint %s belongs to another command: its %s is '%s', this "
                     "command's '%s' (remove the file to start afresh)", sr->checkpoint,
                     here[field].name, there[field].text, here[field].text);
    } else if (p->shard != sr->shard || p->shards != sr->shards) {
        ga_cli_error("sweep: checkpoint %s belongs to another command: it holds shard %u/%u, "
                     "this command measures shard %u/%u (remove the file to start afresh)",
                     sr->checkpoint, p->shard, p->shards, sr->shard, sr->shards);
    } else {
        return p;
    }
    ga_partial_free(p);
    return NULL;
}

/* Under mpirun: the partials of every rank, merged into *p on rank 0 (the
 * other ranks keep theirs).  The ranks are the shards of one command, so
 * only memory can make the merge fail. */
static int merge_ranks(struct ga_partial **p)
{
    unsigned char *data = NULL, **all = NULL;
    size_t size = 0, *sizes = NULL;
    struct ga_partial **parts, *merged = NULL;
    struct ga_partial_set_problem why;
    struct ga_io_error err;
    unsigned ranks = ga_ranks_count(), n = 0;
    int status = GA_EXIT_INTERNAL;

    if (ga_partial_encode(*p, &data, &size, &err) != GA_IO_OK) {
        ga_cli_error("sweep: %s", err.message);
        return GA_EXIT_INTERNAL;
    }
    if (ga_ranks_gather(data, size, &all, &sizes) != 0) {
        free(data);
        return GA_EXIT_INTERNAL;
    }
    free(data);
    if (ga_ranks_rank() != 0)
        return GA_EXIT_OK;
    if (!(parts = calloc(ranks, sizeof *parts))) {
        ga_cli_error("sweep: out of memory");
    } else {
        for (; n < ranks; n++)
            if (ga_partial_decode(all[n], sizes[n], &parts[n], &err) != GA_IO_OK) {
                ga_cli_error("sweep: the partial of rank %u: %s", n, err.message);
                break;
            }
        if (n == ranks && ga_partials_merge(parts, n, &merged, &why) != GA_PARTIALS_OK)
            ga_cli_error("sweep: the ranks' partials do not merge (%d)", (int)why.status);
        else if (n == ranks)
            status = GA_EXIT_OK;
        for (unsigned i = 0; i < n; i++)
            ga_partial_free(parts[i]);
        free(parts);
    }
    ga_ranks_gather_free(all, sizes);
    if (status == GA_EXIT_OK) {
        ga_partial_free(*p);
        *p = merged;
    }
    return status;
}

/* Sweep the share of the request; print the result, or write the partial
 * (under mpirun, rank 0 alone, of every rank's share merged). */
static int sweep_share(struct ga_kernel *k, const struct ga_format *f,
                       const struct ga_sweep_options *so, const char *kernel, double timeout_s,
                       const struct share_request *sr, enum ga_cli_form form)
{
    struct ga_partial_identity *id = malloc(sizeof *id);
    struct ga_sweep_options o = *so;
    struct ga_progress progress;
    struct ga_partial *p = NULL;
    struct ga_io_error err;
    ga_bits input = 0;
    int status = GA_EXIT_INTERNAL;

    if (!id) {
        ga_cli_error("sweep: out of memory");
    } else if (ga_partial_identity_init(id, PACKAGE_NAME " " PACKAGE_VERSION, f, kernel,
                                        &k->measurement, &k->domain, so->oracle,
                                        so->max_failures, timeout_s) != 0) {
        ga_cli_error("sweep: the kernel's description is too long for a partial file");
    } else if ((p = start_state(id, sr, &status))) {
        ga_progress_attach(&progress, &o, k->measurement.impl->name);
        status = ga_partial_run(p, &k->domain, &k->measurement, &o,
                                sr->checkpoint ? save_checkpoint : NULL, (void *)sr->checkpoint,
                                sr->interval_s, &input);
        if (status == GA_PARTIAL_SAVE_FAILED)
            status = GA_EXIT_USAGE;
        else
            status = ga_cli_sweep_failure("sweep", status, f, &k->domain, &k->measurement, 1,
                                          input);
        if (status == GA_EXIT_OK && sr->ranks > 1)
            status = merge_ranks(&p);
        if (status == GA_EXIT_OK && ga_ranks_rank() != 0)
            ;  /* rank 0 writes or prints */
        else if (status == GA_EXIT_OK && sr->partial
            && ga_partial_write(sr->partial, p, &err) != GA_IO_OK) {
            ga_cli_error("sweep: partial: %s", err.message);
            status = GA_EXIT_USAGE;
        } else if (status == GA_EXIT_OK && !sr->partial) {
            status = ga_cli_print_partial("sweep", p, &k->domain, form);
        }
    }
    ga_partial_free(p);
    free(id);
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
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_DOMAIN,
        GA_CLI_OPTION_ORACLE,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_CSV,
        { "shard", required_argument, NULL, 'S' },
        { "partial", required_argument, NULL, 'P' },
        { "checkpoint", required_argument, NULL, 'C' },
        { "checkpoint-interval", required_argument, NULL, 'I' },
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    struct ga_cli_options o;
    struct ga_kernel_request rq = { 0 };
    struct ga_kernel k;
    struct ga_io_error io;
    struct ga_sweep_options so = { 0 };
    const struct ga_format *f;
    struct ga_result *result;
    struct share_request sr = { .shard = 1, .shards = 1, .ranks = ga_ranks_count(),
                                .interval_s = 10 };
    char *rank_checkpoint = NULL;
    const char *interval = NULL, *input_format = NULL;
    char *plugin_spec = NULL;
    int opt, status;

    if (ga_cli_wants_backward(argc, argv))
        return ga_cmd_sweep_backward(argc, argv);
    ga_cli_options_init(&o, "sweep", help, false, true);
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'm':
            if (ga_parse_max_failures(optarg, &so.max_failures) != 0) {
                ga_cli_error("sweep: --max-failures takes a positive count, not '%s'", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'W': input_format = optarg; break;
        case 'S':
            if (ga_shard_parse(optarg, &sr.shard, &sr.shards) != 0) {
                ga_cli_error("sweep: --shard takes K/N with 1 <= K <= N <= %u, not '%s'",
                             GA_SHARD_MAX, optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'P': sr.partial = optarg; break;
        case 'C': sr.checkpoint = optarg; break;
        case 'I':
            if (ga_cli_checkpoint_interval("sweep", optarg, &sr.interval_s) != 0)
                return GA_EXIT_USAGE;
            interval = optarg;
            break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
        }
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0)
        return GA_EXIT_USAGE;
    so.oracle = o.oracle;
    so.threads = o.threads;
    if (sr.shards > 1 && !sr.partial) {
        ga_cli_error("sweep: --shard needs --partial FILE (then 'gelu-acc merge' the files)");
        return GA_EXIT_USAGE;
    }
    if (sr.shards > 1 && so.max_failures > 0) {
        ga_cli_error("sweep: --max-failures cannot be used with --shard: a shard does not know "
                     "the failed batches of the shards before it");
        return GA_EXIT_USAGE;
    }
    if (sr.ranks > 1 && (sr.shards > 1 || so.max_failures > 0)) {
        ga_cli_error("sweep: under mpirun the ranks are the shards: --shard and --max-failures "
                     "cannot be used");
        return GA_EXIT_USAGE;
    }
    if (interval && !sr.checkpoint) {
        ga_cli_error("sweep: --checkpoint-interval needs --checkpoint FILE");
        return GA_EXIT_USAGE;
    }
    if (sr.partial && o.form != GA_CLI_TEXT) {
        ga_cli_error("sweep: --partial writes a file and prints nothing: give --json or --csv "
                     "to 'gelu-acc merge'");
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    if (input_format) {  /* every fused model, every convention: nothing else to choose */
        if (ga_ranks_count() > 1) {
            ga_cli_error("sweep: --input-format runs as one process, not under mpirun");
            return GA_EXIT_USAGE;
        }
        if (o.impl || o.kernel || sr.partial || sr.checkpoint || o.form != GA_CLI_TEXT
            || o.reference != GA_GELU) {
            ga_cli_error("sweep: --input-format measures the fused GELU + cast models against "
                         "exact GELU and prints their table: it takes only --format and "
                         "--domain");
            return GA_EXIT_USAGE;
        }
        return ga_cli_sweep_cast(f, input_format, o.domain);
    }
    if (!o.impl == !o.kernel) {
        ga_cli_error("sweep: give one of --impl NAME (see 'gelu-acc list') and --kernel LIB.so:SYMBOL");
        return GA_EXIT_USAGE;
    }
    if (o.kernel) {
        size_t n = strlen(o.kernel) + sizeof "plugin:";
        if (!(plugin_spec = malloc(n)))
            return GA_EXIT_INTERNAL;
        snprintf(plugin_spec, n, "plugin:%s", o.kernel);
    }
    rq.spec = o.kernel ? plugin_spec : o.impl;
    rq.format = f;
    rq.domain = o.domain;
    rq.plugin_options = &o.plugin;
    rq.reference = o.reference;
    if (ga_kernel_open(&k, &rq, &io) != GA_IO_OK) {
        ga_cli_error("sweep: %s", io.message);
        free(plugin_spec);
        return GA_EXIT_USAGE;
    }
    ga_cli_warn_undeclared("sweep", &k, f);

    if (sr.ranks > 1) {
        sr.shard = ga_ranks_rank() + 1;
        sr.shards = sr.ranks;
    }
    if (sr.ranks > 1 && sr.checkpoint) {
        /* one checkpoint per rank: FILE.K-of-P */
        size_t n = strlen(sr.checkpoint) + 32;
        if (!(rank_checkpoint = malloc(n))) {
            status = GA_EXIT_INTERNAL;
            goto out;
        }
        snprintf(rank_checkpoint, n, "%s.%u-of-%u", sr.checkpoint, sr.shard, sr.shards);
        sr.checkpoint = rank_checkpoint;
    }
    k.measurement.want_shape = true;
    if (sr.partial || sr.checkpoint || sr.ranks > 1) {
        status = sweep_share(&k, f, &so, rq.spec, k.plugin || k.real ? o.plugin.timeout_s : 0,
                             &sr, o.form);
    } else if (!(result = malloc(sizeof *result))) {
        status = GA_EXIT_INTERNAL;
    } else {
        if ((status = ga_cli_measure("sweep", f, &k.domain, &k.measurement, &so, NULL,
                                     result)) == GA_EXIT_OK)
            status = ga_cli_print_sweep("sweep", result, o.form);
        free(result);
    }
out:
    free(rank_checkpoint);
    free(plugin_spec);
    ga_kernel_close(&k);
    return status;
}
