/* gelu-acc check: regression-test kernels against a baseline file. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "io/parse_count.h"
#include "cli/check_backward.h"
#include "cli/measure.h"
#include "cli/progress.h"
#include "engine/run_check.h"
#include "report/report_file.h"
#include "report/result.h"

static const char help[] =
    "usage: gelu-acc check --baseline FILE [--update-baseline] [--oracle fast|mpfr]\n"
    "                      [--threads N] [--timeout SECONDS] [--max-failures K]\n"
    "\n"
    "Measures every kernel the baseline lists (catalogue names, plugins\n"
    "'plugin:lib.so:symbol', outputs files 'outputs:FILE' with 'inputs = FILE')\n"
    "and compares with the recorded bounds (format: doc/baselines.md).\n"
    "Prints each exceeded bound with the kernel, the metric, the old and new\n"
    "values and an input of that figure (max_ulp: the worst; a count: an input\n"
    "it counts).  A section's 'snapshot = FILE' (sweep --save-outputs over the\n"
    "same domain) names the inputs whose class changed and fails when one got\n"
    "worse.  --update-baseline rewrites FILE with the\n"
    "measured values instead.  --timeout (per kernel call, default 10 s) and\n"
    "--max-failures (stop a kernel at its Kth failed batch) apply to every plugin\n"
    "kernel, over the file's 'timeout' and 'max_failures' keys.\n"
    "A section with 'reference = gelu_grad' (or gelu_tanh_grad) records a backward\n"
    "kernel, measured as 'sweep --backward' measures it, with backward bounds.\n"
    "Exit status: 0 every bound holds, 1 a bound was exceeded or a kernel failed,\n"
    "2 usage or input error.\n";

static void warn(const char *message)
{
    ga_cli_error("check: warning: %s", message);
}

struct rewrite {
    const struct ga_baseline *b;
    const struct ga_result *results;
    const struct ga_backward_stats *backward;
};

static int write_baseline(FILE *out, const void *ctx)
{
    const struct rewrite *w = ctx;

    fputs("# gelu-acc baseline: the recorded accuracy of each kernel.  'gelu-acc check\n"
          "# --baseline FILE' fails when a kernel exceeds a bound; '--update-baseline'\n"
          "# rewrites this file from a new measurement.  Format: doc/baselines.md.\n\n", out);
    for (size_t i = 0; i < w->b->count; i++)
        if (w->b->entries[i].backward
                ? ga_baseline_write_backward_entry(out, &w->b->entries[i], &w->backward[i]) != 0
                : ga_baseline_write_entry(out, &w->b->entries[i], w->results[i].region) != 0)
            return -1;
    return 0;
}

/* Measure and compare every entry of baseline b, printing a line per
 * kernel; *exceeded counts the bounds exceeded and kernels failed.  With
 * update, the measurements are kept for the rewrite and nothing is
 * compared.  A GA_EXIT_* status (GA_EXIT_OK though bounds are exceeded). */
static int check_entries(const struct ga_check_job *job, const struct ga_baseline *b,
                         struct ga_result *results, struct ga_backward_stats *backward,
                         int *exceeded)
{
    int status = GA_EXIT_OK;
    char why[GA_ENGINE_WHY];

    for (size_t i = 0; i < b->count && status != GA_EXIT_USAGE; i++) {
        const struct ga_baseline_entry *e = &b->entries[i];
        int s;

        if (e->backward) {
            s = ga_cli_check_backward(job->path, job->baseline_dir, e, job->options.threads,
                                      job->timeout_s, &backward[i]);
            if (s != GA_EXIT_OK)
                status = s;
            else
                *exceeded += ga_cli_check_backward_verdict(e, &backward[i], job->update);
            continue;
        }
        s = ga_run_check_entry(job, e, stdout, &results[i], exceeded, why, sizeof why);
        fflush(stdout);
        if (s != GA_ENGINE_OK) {
            ga_cli_error("check: %s", why);
            status = s;
        }
    }
    return status;
}

/* Rewrite the baseline at path (in baseline_dir) from the measurements. */
static int update_baseline(const char *path, const char *baseline_dir,
                           const struct ga_baseline *b, const struct ga_result *results,
                           const struct ga_backward_stats *backward)
{
    int status = GA_EXIT_OK;
    struct rewrite w = { b, results, backward };
    struct ga_io_error io;
    char *copy = strdup(path);

    if (!copy || ga_write_report_file(baseline_dir, basename(copy), true, write_baseline, &w,
                                      &io) != GA_IO_OK) {
        ga_cli_error("check: %s", copy ? io.message : "out of memory");
        status = GA_EXIT_USAGE;
    } else {
        printf("updated %s (%zu kernels)\n", path, b->count);
    }
    free(copy);
    return status;
}

int ga_cmd_check(int argc, char **argv)
{
    static const struct option options[] = {
        { "baseline", required_argument, NULL, 'b' },
        { "update-baseline", no_argument, NULL, 'u' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "timeout", required_argument, NULL, 'T' },
        { "max-failures", required_argument, NULL, 'm' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *path = NULL;
    char *dir_copy;
    struct ga_check_job job = { .options = { .oracle = GA_ORACLE_FAST }, .warn = warn };
    struct ga_progress progress;
    struct ga_baseline b;
    struct ga_result *results;
    struct ga_backward_stats *backward;
    char err[1024];
    int opt, status = GA_EXIT_OK, exceeded = 0;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("check", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'b': path = optarg; break;
        case 'u': job.update = true; break;
        case 'O':
            if (ga_cli_oracle(optarg, &job.options.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("check", optarg, &job.options.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'T':
            if (ga_cli_timeout("check", optarg, &job.timeout_s) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'm':
            if (ga_parse_max_failures(optarg, &job.max_failures) != 0) {
                ga_cli_error("check: --max-failures takes a positive count, not '%s'", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'h': fputs(help, stdout); return GA_EXIT_OK;
        default:
            ga_cli_error("check: see 'gelu-acc check --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (!path || optind < argc) {
        ga_cli_error(path ? "check: unexpected argument '%s'" : "check: --baseline FILE is required%s",
                     path ? argv[optind] : "");
        return GA_EXIT_USAGE;
    }
    if (ga_baseline_read(path, &b, err, sizeof err) != 0) {
        ga_cli_error("check: %s", err);
        return GA_EXIT_USAGE;
    }
    results = calloc(b.count, sizeof *results);
    backward = calloc(b.count, sizeof *backward);
    if (!results || !backward) {
        free(results);
        free(backward);
        ga_baseline_free(&b);
        return GA_EXIT_INTERNAL;
    }
    if (!(dir_copy = strdup(path))) {
        free(results);
        free(backward);
        ga_baseline_free(&b);
        return GA_EXIT_INTERNAL;
    }
    job.path = path;
    job.baseline_dir = dirname(dir_copy);
    ga_progress_attach(&progress, &job.options, "check");
    status = check_entries(&job, &b, results, backward, &exceeded);
    if (status == GA_EXIT_OK && job.update && exceeded == 0)
        status = update_baseline(path, job.baseline_dir, &b, results, backward);
    if (status == GA_EXIT_OK && exceeded)
        status = GA_EXIT_REGRESSION;
    free(dir_copy);
    free(results);
    free(backward);
    ga_baseline_free(&b);
    return status;
}
