/* gelu-acc report: the whole catalogue and the real libraries, one page of
 * tables per format, plus CSV and JSON.  The options become a job of the
 * engine (engine/run_report.h). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "engine/run_report.h"
#include "report/plan.h"
#include "state/ranks.h"
#include "state/shard.h"

static const char help[] =
    "usage: gelu-acc report --out DIR [--formats LIST] [--float32-domain D]\n"
    "                       [--real-float32-domain D] [--float64-domain D]\n"
    "                       [--real-outputs MANIFEST]...\n"
    "                       [--bfloat16-backward-domain D] [--float16-backward-domain D]\n"
    "                       [--float32-backward-domain D] [--no-backward]\n"
    "                       [--oracle fast|mpfr] [--threads N] [--force]\n"
    "       gelu-acc report --shard K/N --partial FILE [--formats LIST]\n"
    "                       [--float32-domain D] [--real-float32-domain D] [--oracle ...]\n"
    "\n"
    "Measures every catalogue implementation of each format (default: bfloat16,\n"
    "float16, float32 and the small formats float8_e4m3fn, float8_e5m2,\n"
    "float6_e2m3, float6_e3m2, float4_e2m1) against exact GELU, and the tanh-form\n"
    "ones also against the tanh formula, and writes DIR/FORMAT.md, .csv, .json\n"
    "and .html, plots in DIR/plots/, DIR/facts.md and .html (gelu-acc facts), and\n"
    "DIR/index.html.  The real libraries that run here (gelu-acc list) are\n"
    "measured the same way in the wide formats: a section of each page, and\n"
    "DIR/FORMAT-real.csv and .json.  Formats of 16 bits or fewer are exhaustive\n"
    "(a small format's page also states its truth's overflow convention);\n"
    "float32 uses --float32-domain (default stride:4096), and for the real\n"
    "libraries --real-float32-domain (default: the same).  --formats all adds\n"
    "float64 to the default list (make report uses it); float64 uses\n"
    "--float64-domain (default\n"
    GA_REPORT_FLOAT64_DOMAIN ": 10^7 random encodings over all binades, then\n"
    "10^7 encodings of [-40, 10] on a fixed stride).  --real-outputs adds\n"
    "the rows of real libraries run elsewhere (make real-onnxruntime writes such\n"
    "a manifest for ONNX Runtime), graded from their outputs files on their own\n"
    "inputs.\n"
    "Each bfloat16, float16 and float32 page ends with a backward section: every\n"
    "backward model (gelu-acc list --backward) against the derivative it\n"
    "approximates, and the tanh forms against exact gelu' too, over the pairs of\n"
    "--bfloat16-backward-domain, --float16-backward-domain (default\n"
    GA_BACKWARD_DOMAIN_16 ") and x of --float32-backward-domain with\n"
    "dy = 1 (default " GA_BACKWARD_DOMAIN_32 "); DIR/FORMAT-backward.csv and .json, and heat\n"
    "maps of the bfloat16 error over (x, dy) in DIR/plots/.  --no-backward leaves\n"
    "the section out.  DIR is created if missing; an existing DIR that gelu-acc did not\n"
    "write is refused unless --force, and so is replacing exhaustive float32\n"
    "tables in DIR "
    "with a sample.\n"
    "--shard K/N --partial FILE measures shard K of N of every measurement and\n"
    "writes its state (statistics and plot data) to FILE instead of pages;\n"
    "'gelu-acc merge --out DIR' of the N files writes what one report writes,\n"
    "byte for byte.  Under mpirun (a gelu-acc built with MPI) the ranks are the\n"
    "shards and rank 0 writes DIR.  The backward sections and the rows of\n"
    "--real-outputs are sharded the same way (each shard measures its share of\n"
    "their pairs or inputs; every shard reads the manifests' files).\n"
    "After each format, a line on standard output says what it cost: CPU time\n"
    "(this process and its library workers) and the kernels' own share of it.\n";

/* --real-outputs manifests, at most this many. */
#define MAX_MANIFESTS 8

/* The --real-outputs manifests, read before anything is measured. */
static int read_manifests(const char *const *paths, size_t n, struct ga_real_outputs *ro)
{
    char err[1024];

    for (size_t k = 0; k < n; k++)
        if (ga_real_outputs_read(paths[k], &ro[k], err, sizeof err) != 0) {
            ga_cli_error("report: --real-outputs %s", err);
            for (size_t q = 0; q < k; q++)
                ga_real_outputs_free(&ro[q]);
            return GA_EXIT_USAGE;
        }
    return GA_EXIT_OK;
}

/* The progress line of each sweep of the report (only one runs at a time). */
static void progress(struct ga_sweep_options *so, const char *label)
{
    static struct ga_progress line;

    ga_progress_attach(&line, so, label);
}

/* What each format cost, on the terminal (never in the pages): CPU time,
 * the kernels' share of it, and the ratio the speed targets weigh. */
static void cost(const struct ga_format *f, const struct ga_report_cost *c, bool shard)
{
    double cpu = ga_report_cost_cpu(c), kernels = ga_report_cost_kernels(c);

    printf("report: %s%s: %.1f CPU-s, of which the kernels %.1f (models %.1f, library "
           "workers %.1f)", f->name, shard ? " (this shard)" : "", cpu, kernels, c->models_s,
           c->workers_s);
    if (kernels >= 0.05)  /* else too little to weigh */
        printf(": %.1f %%, the page %.2f times its kernels", 100 * kernels / cpu, cpu / kernels);
    putchar('\n');
    fflush(stdout);
}

/* The options that go together, checked once all are read. */
static int check_options(struct ga_report_job *job, char *why, size_t len)
{
    if (!job->dir == !job->partial) {
        ga_cli_error("report: give --out DIR, or --partial FILE for a shard");
        return -1;
    }
    if (ga_cli_writable("report", "partial", job->partial) != 0)
        return -1;
    if (job->shards > 1 && !job->partial) {
        ga_cli_error("report: --shard needs --partial FILE (then 'gelu-acc merge --out DIR')");
        return -1;
    }
    if (ga_ranks_count() > 1 && (job->partial || job->shards > 1)) {
        ga_cli_error("report: under mpirun the ranks are the shards: --shard and --partial "
                     "cannot be used");
        return -1;
    }
    if (strcmp(job->formats, "all") == 0)
        job->formats = GA_REPORT_FORMATS_ALL;
    if (ga_report_check_formats(job, why, len) != 0) {
        ga_cli_error("%s", why);
        return -1;
    }
    return 0;
}

/* The message of an engine call, when it has one; its status. */
static int said(int status, const char *why)
{
    if (why[0])
        ga_cli_error("%s", why);
    return status;
}

int ga_cli_report_merge(char **names, size_t n, const char *dir, bool force)
{
    char why[GA_ENGINE_WHY];

    return said(ga_run_report_merge(names, n, dir, force, why, sizeof why), why);
}

int ga_cmd_report(int argc, char **argv)
{
    static const struct option options[] = {
        { "out", required_argument, NULL, 'o' },
        { "formats", required_argument, NULL, 'f' },
        { "float32-domain", required_argument, NULL, 'd' },
        { "real-float32-domain", required_argument, NULL, 'R' },
        { "float64-domain", required_argument, NULL, 'D' },
        { "real-outputs", required_argument, NULL, 'M' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "force", no_argument, NULL, 'F' },
        { "shard", required_argument, NULL, 'S' },
        { "partial", required_argument, NULL, 'P' },
        { "bfloat16-backward-domain", required_argument, NULL, 'B' },
        { "float16-backward-domain", required_argument, NULL, 'H' },
        { "float32-backward-domain", required_argument, NULL, 'W' },
        { "no-backward", no_argument, NULL, 'N' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct ga_report_job job = {
        .formats = GA_REPORT_FORMATS, .float32_domain = "stride:4096",
        .float64_domain = GA_REPORT_FLOAT64_DOMAIN, .options = { .oracle = GA_ORACLE_FAST },
        .shard = 1, .shards = 1, .progress = progress, .cost = cost,
    };
    char why[GA_ENGINE_WHY];
    int opt, status;
    const char *manifests[MAX_MANIFESTS];
    struct ga_real_outputs ro[MAX_MANIFESTS];
    size_t nro = 0;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("report", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'o': job.dir = optarg; break;
        case 'f': job.formats = optarg; break;
        case 'd': job.float32_domain = optarg; break;
        case 'R': job.real_float32_domain = optarg; break;
        case 'D': job.float64_domain = optarg; break;
        case 'M':
            if (nro == MAX_MANIFESTS) {
                ga_cli_error("report: more than %d --real-outputs", MAX_MANIFESTS);
                return GA_EXIT_USAGE;
            }
            manifests[nro++] = optarg;
            break;
        case 'F': job.force = true; break;
        case 'O':
            if (ga_cli_oracle(optarg, &job.options.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("report", optarg, &job.options.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'S':
            if (ga_shard_parse(optarg, &job.shard, &job.shards) != 0) {
                ga_cli_error("report: --shard takes K/N with 1 <= K <= N <= %u, not '%s'",
                             GA_SHARD_MAX, optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'P': job.partial = optarg; break;
        case 'B': job.backward.bfloat16 = optarg; break;
        case 'H': job.backward.float16 = optarg; break;
        case 'W': job.backward.float32 = optarg; break;
        case 'N': job.backward.none = true; break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("report: see 'gelu-acc report --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("report: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (check_options(&job, why, sizeof why) != 0)
        return GA_EXIT_USAGE;
    status = read_manifests(manifests, nro, ro);
    job.outputs = ro;
    job.noutputs = nro;
    if (status == GA_EXIT_OK)
        status = said(ga_run_report(&job, why, sizeof why), why);
    for (size_t k = 0; k < nro; k++)
        ga_real_outputs_free(&ro[k]);
    return status;
}
