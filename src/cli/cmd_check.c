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
#include "measure/kernel_spec.h"
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
    "values and the worst input.  --update-baseline rewrites FILE with the\n"
    "measured values instead.  --timeout (per kernel call, default 10 s) and\n"
    "--max-failures (stop a kernel at its Kth failed batch) apply to every plugin\n"
    "kernel, over the file's 'timeout' and 'max_failures' keys.\n"
    "A section with 'reference = gelu_grad' (or gelu_tanh_grad) records a backward\n"
    "kernel, measured as 'sweep --backward' measures it, with backward bounds.\n"
    "Exit status: 0 every bound holds, 1 a bound was exceeded or a kernel failed,\n"
    "2 usage or input error.\n";

/* Plugin settings from the command line; 0: the entry's, or the default. */
struct overrides {
    double timeout_s;
    uint64_t max_failures;
};

/* Measure one entry (of the baseline at path) into r.  Returns a GA_EXIT_*
 * status; a kernel that cannot be opened is named by its section's line. */
static int measure(const char *path, const char *baseline_dir, const struct ga_baseline_entry *e,
                   const struct ga_sweep_options *options, const struct overrides *cli,
                   struct ga_result *r)
{
    struct ga_sweep_options so = *options;
    struct ga_plugin_options po;
    struct ga_kernel_request rq = {
        .spec = e->kernel, .format = e->format, .reference = e->reference,
        .domain = e->domain, .inputs = e->inputs, .base_dir = baseline_dir,
        .plugin_options = &po,
    };
    struct ga_kernel k;
    struct ga_io_error io;
    int status;

    ga_plugin_default_options(&po);
    po.name = e->name;
    if (cli->timeout_s > 0 || e->timeout_s > 0)
        po.timeout_s = cli->timeout_s > 0 ? cli->timeout_s : e->timeout_s;
    so.max_failures = cli->max_failures > 0 ? cli->max_failures : e->max_failures;
    enum ga_io_status opened = ga_kernel_open(&k, &rq, &io);

    if (opened == GA_IO_KERNEL_FAULT) {
        /* its constructors failed as a kernel fails: this section fails,
         * the others are still measured */
        printf("FAIL %s (%s): %s\n", e->name, e->format->name, io.message);
        return GA_EXIT_REGRESSION;
    }
    if (opened != GA_IO_OK) {
        ga_cli_error("check: %s:%d: [%s]: %s", path, e->line, e->name, io.message);
        return GA_EXIT_USAGE;
    }
    ga_cli_warn_undeclared("check", &k, e->format);
    status = ga_cli_measure("check", e->format, &k.domain, &k.measurement, &so, e->name, r);
    ga_kernel_close(&k);
    return status;
}

/* One line per span of failing inputs, in domain order, then the cost. */
static void print_failure(const struct ga_baseline_entry *e, const struct ga_result *r)
{
    for (size_t k = 0; k < r->span_count; k++) {
        char lo[GA_BITS_TEXT_LEN], hi[GA_BITS_TEXT_LEN];
        ga_format_bits(e->format, r->spans[k].first, lo);
        ga_format_bits(e->format, r->spans[k].last, hi);
        printf("FAIL %s: the kernel %s on inputs %s..%s (%llu batch%s)\n", e->name,
               r->spans[k].what, lo, hi, (unsigned long long)r->spans[k].batches,
               r->spans[k].batches == 1 ? "" : "es");
    }
    if (r->unlisted_spans)
        printf("FAIL %s: and %llu more failing spans after these\n", e->name,
               (unsigned long long)r->unlisted_spans);
    printf("FAIL %s: %llu failed batch%s, %llu inputs not measured%s\n", e->name,
           (unsigned long long)r->failed_batches, r->failed_batches == 1 ? "" : "es",
           (unsigned long long)(r->failed_inputs + r->skipped_inputs),
           r->skipped_inputs ? " (stopped at the max_failures-th failed batch)" : "");
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

/* Measure and compare every entry of baseline b (at path), printing a line
 * per kernel; *exceeded counts the bounds exceeded and kernels failed.
 * With update, the measurements are kept for the rewrite and nothing is
 * compared.  A GA_EXIT_* status (GA_EXIT_OK though bounds are exceeded). */
static int check_entries(const char *path, const char *baseline_dir, const struct ga_baseline *b,
                         const struct ga_sweep_options *so, const struct overrides *cli,
                         bool update, struct ga_result *results,
                         struct ga_backward_stats *backward, int *exceeded)
{
    int status = GA_EXIT_OK;

    for (size_t i = 0; i < b->count && status != GA_EXIT_USAGE; i++) {
        const struct ga_baseline_entry *e = &b->entries[i];
        int s, n;

        if (e->backward) {
            s = ga_cli_check_backward(path, baseline_dir, e, so->threads, cli->timeout_s,
                                      &backward[i]);
            if (s != GA_EXIT_OK)
                status = s;
            else
                *exceeded += ga_cli_check_backward_verdict(e, &backward[i], update);
            continue;
        }
        s = measure(path, baseline_dir, e, so, cli, &results[i]);

        if (s == GA_EXIT_REGRESSION) {
            (*exceeded)++;
            continue;
        }
        if (s != GA_EXIT_OK) {
            status = s;
            continue;
        }
        if (results[i].failed) {
            print_failure(e, &results[i]);
            (*exceeded)++;
            continue;
        }
        if (update)
            continue;
        n = ga_baseline_compare(stdout, e, results[i].region);
        printf("%s %s (%s, %s, %llu inputs)\n", n ? "FAIL" : "PASS", e->name, e->format->name,
               ga_function_name(e->reference), (unsigned long long)results[i].region[GA_REGION_ALL].count);
        *exceeded += n;
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
    const char *path = NULL, *baseline_dir;
    char *dir_copy;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST };
    struct overrides cli = { 0, 0 };
    struct ga_baseline b;
    struct ga_result *results;
    struct ga_backward_stats *backward;
    bool update = false;
    char err[1024];
    int opt, status = GA_EXIT_OK, exceeded = 0;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("check", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'b': path = optarg; break;
        case 'u': update = true; break;
        case 'O':
            if (ga_cli_oracle(optarg, &so.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("check", optarg, &so.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'T':
            if (ga_cli_timeout("check", optarg, &cli.timeout_s) != 0) {
                return GA_EXIT_USAGE;
            }
            break;
        case 'm':
            if (ga_parse_max_failures(optarg, &cli.max_failures) != 0) {
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
    baseline_dir = dirname(dir_copy);
    status = check_entries(path, baseline_dir, &b, &so, &cli, update, results, backward,
                           &exceeded);
    if (status == GA_EXIT_OK && update && exceeded == 0)
        status = update_baseline(path, baseline_dir, &b, results, backward);
    if (status == GA_EXIT_OK && exceeded)
        status = GA_EXIT_REGRESSION;
    free(dir_copy);
    free(results);
    free(backward);
    ga_baseline_free(&b);
    return status;
}
