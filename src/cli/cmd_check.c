/* gelu-acc check: regression-test kernels against a baseline file. */
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/baseline.h"
#include "cli/graded.h"
#include "cli/measure.h"
#include "io/detect.h"
#include "io/plugin.h"
#include "report/report_file.h"
#include "report/result.h"

static const char help[] =
    "usage: gelu-acc check --baseline FILE [--update-baseline] [--oracle fast|mpfr]\n"
    "                      [--threads N]\n"
    "\n"
    "Measures every kernel the baseline lists (catalogue names, plugins\n"
    "'plugin:lib.so:symbol', outputs files 'outputs:FILE' with 'inputs = FILE')\n"
    "and compares with the recorded bounds (format: README, \"Baselines\").\n"
    "Prints each exceeded bound with the kernel, the metric, the old and new\n"
    "values and the worst input.  --update-baseline rewrites FILE with the\n"
    "measured values instead.\n"
    "Exit status: 0 every bound holds, 1 a bound was exceeded or a kernel failed,\n"
    "2 usage or input error.\n";

/* path as written in the baseline, relative to the baseline's directory. */
static char *resolve(const char *baseline, const char *path)
{
    char *copy = strdup(baseline), *dir, *out;

    if (!copy)
        return NULL;
    dir = dirname(copy);
    out = malloc(strlen(dir) + strlen(path) + 2);
    if (out && path[0] == '/')
        strcpy(out, path);
    else if (out)
        sprintf(out, "%s/%s", dir, path);
    free(copy);
    return out;
}

/* Measure one entry into r.  Returns a GA_EXIT_* status. */
static int measure(const char *baseline, const struct ga_baseline_entry *e,
                   const struct ga_sweep_options *so, struct ga_result *r)
{
    const struct ga_format *f = e->format;
    struct ga_measurement m = { .reference = e->reference };
    struct ga_plugin *plugin = NULL;
    struct ga_io_error io;
    struct ga_domain d;
    char err[512], *path = NULL;
    struct ga_graded g;
    bool graded = false;
    int status = GA_EXIT_OK;

    if (strncmp(e->kernel, "outputs:", 8) == 0) {
        char *in_path = resolve(baseline, e->inputs), *out_path = resolve(baseline, e->kernel + 8);
        if (!in_path || !out_path)
            ga_io_fail(&io, GA_IO_SYSTEM, "out of memory");
        else
            graded = ga_graded_open(&g, in_path, out_path, f, &io) == GA_IO_OK;
        free(in_path);
        free(out_path);
        if (!graded) {
            ga_cli_error("check: [%s]: %s", e->name, io.message);
            return GA_EXIT_USAGE;
        }
        ga_graded_attach(&g, e->inputs, &d, &m);
    } else {
        if (ga_domain_parse(&d, e->domain, f, err, sizeof err) != 0) {
            ga_cli_error("check: [%s]: %s", e->name, err);
            return GA_EXIT_USAGE;
        }
        if (strncmp(e->kernel, "plugin:", 7) == 0) {
            struct ga_plugin_options po;
            ga_plugin_default_options(&po);
            po.name = e->name;
            po.approximates = e->reference;
            path = resolve(baseline, e->kernel + 7);
            if (!path || ga_plugin_open(path, f, &po, &plugin, &io) != GA_IO_OK) {
                ga_cli_error("check: [%s]: %s", e->name, path ? io.message : "out of memory");
                status = GA_EXIT_USAGE;
            } else {
                m.impl = ga_plugin_impl(plugin);
            }
        } else if (!(m.impl = ga_catalogue_find(e->kernel)) || !ga_impl_supports(m.impl, f)) {
            ga_cli_error("check: [%s]: '%s' is not a catalogue implementation for %s "
                         "(or write plugin:PATH:SYMBOL, outputs:FILE)", e->name, e->kernel, f->name);
            status = GA_EXIT_USAGE;
        }
    }
    if (status == GA_EXIT_OK)
        status = ga_cli_measure("check", f, &d, &m, so, e->name, r);
    ga_plugin_close(plugin);
    ga_domain_free(&d);
    free(path);
    if (graded)
        ga_graded_close(&g);
    return status;
}

struct rewrite {
    const struct ga_baseline *b;
    const struct ga_result *results;
};

static int write_baseline(FILE *out, const void *ctx)
{
    const struct rewrite *w = ctx;

    fputs("# gelu-acc baseline: the recorded accuracy of each kernel.  'gelu-acc check\n"
          "# --baseline FILE' fails when a kernel exceeds a bound; '--update-baseline'\n"
          "# rewrites this file from a new measurement.  Format: README, \"Baselines\".\n\n", out);
    for (size_t i = 0; i < w->b->count; i++)
        if (ga_baseline_write_entry(out, &w->b->entries[i], w->results[i].region) != 0)
            return -1;
    return 0;
}

int ga_cmd_check(int argc, char **argv)
{
    static const struct option options[] = {
        { "baseline", required_argument, NULL, 'b' },
        { "update-baseline", no_argument, NULL, 'u' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *path = NULL;
    struct ga_sweep_options so = { GA_ORACLE_FAST, 0, NULL, NULL };
    struct ga_baseline b;
    struct ga_result *results;
    bool update = false;
    char err[1024];
    int opt, status = GA_EXIT_OK, exceeded = 0;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
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
    if (!(results = calloc(b.count, sizeof *results))) {
        ga_baseline_free(&b);
        return GA_EXIT_INTERNAL;
    }
    for (size_t i = 0; i < b.count && status != GA_EXIT_USAGE; i++) {
        const struct ga_baseline_entry *e = &b.entries[i];
        int s = measure(path, e, &so, &results[i]);
        int n;

        if (s != GA_EXIT_OK) {
            status = s;
            continue;
        }
        if (results[i].failed) {
            char lo[16], hi[16];
            ga_format_bits(e->format, results[i].failure_first, lo);
            ga_format_bits(e->format, results[i].failure_last, hi);
            printf("FAIL %s: the kernel %s on inputs %s..%s (%llu batches, %llu inputs not "
                   "measured)\n", e->name, results[i].failure.what, lo, hi,
                   (unsigned long long)results[i].failed_batches,
                   (unsigned long long)results[i].failed_inputs);
            exceeded++;
            continue;
        }
        if (update)
            continue;
        n = ga_baseline_compare(stdout, e, results[i].region);
        printf("%s %s (%s, %s, %llu inputs)\n", n ? "FAIL" : "PASS", e->name, e->format->name,
               ga_function_name(e->reference), (unsigned long long)results[i].region[GA_REGION_ALL].count);
        exceeded += n;
    }
    if (status == GA_EXIT_OK && update && exceeded == 0) {
        struct rewrite w = { &b, results };
        struct ga_io_error io;
        char *copy = strdup(path);
        const char *base = copy ? basename(copy) : path;
        char *dir_copy = strdup(path);
        if (!copy || !dir_copy
            || ga_write_report_file(dirname(dir_copy), base, true, write_baseline, &w, &io) != GA_IO_OK) {
            ga_cli_error("check: %s", copy && dir_copy ? io.message : "out of memory");
            status = GA_EXIT_USAGE;
        } else {
            printf("updated %s (%zu kernels)\n", path, b.count);
        }
        free(copy);
        free(dir_copy);
    }
    if (status == GA_EXIT_OK && exceeded)
        status = GA_EXIT_REGRESSION;
    free(results);
    ga_baseline_free(&b);
    return status;
}
