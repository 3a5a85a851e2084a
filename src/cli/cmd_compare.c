/* gelu-acc compare A B: two kernels over the same inputs, input by input. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/progress.h"
#include "engine/run_compare.h"
#include "io/parse_count.h"
#include "report/compare_print.h"

static const char help[] =
    "usage: gelu-acc compare A B --format FORMAT [--reference gelu|gelu_tanh]\n"
    "                        [--domain D | --inputs FILE] [--markdown | --json]\n"
    "       gelu-acc compare --backward A B --format FORMAT [--domain PAIRS] [--dy V]\n"
    "                        [--inputs X_FILE --dy-inputs DY_FILE]\n"
    "                        [--reference gelu_grad|gelu_tanh_grad] [options as above]\n"
    "                        [--fail-on-worse] [--max-worsened N]\n"
    "                        [--name-a NAME] [--name-b NAME]\n"
    "                        [--oracle fast|mpfr] [--threads N] [--timeout SECONDS]\n"
    "\n"
    "Runs two kernels over the same inputs and says, input by input, which\n"
    "improved, which worsened and which stayed the same from A to B.  A side is\n"
    "anything sweep or grade measures: a catalogue or real-library implementation\n"
    "by name ('gelu-acc list'), a plugin kernel as LIB.so:SYMBOL (or\n"
    "plugin:LIB.so:SYMBOL), or outputs computed elsewhere as outputs:FILE, answering\n"
    "the inputs of --inputs FILE element by element (the other side then runs on\n"
    "those inputs).  --domain as for sweep (default: every encoding of a format of\n"
    "16 bits or fewer, stride:4096 for float32).\n"
    "The rule: the same bits (any NaN matching any NaN) are unchanged; otherwise\n"
    "the output nearer the exact value is better (a NaN, or an infinity where the\n"
    "truth is finite, is infinitely far); at equal distance the zero with the\n"
    "exact value's sign is better, other outputs are tied (counted unchanged).\n"
    "Prints each side's summary, the counts, both distributions over the rows NaN,\n"
    "inf where the truth is finite, flushed to zero, zero of the wrong sign,\n"
    "correctly rounded, faithful, < 2, [2, 4), [4, 16), [16, 256), >= 256 ulp,\n"
    "the worst regressions, the best improvements and the ranges of x where B is\n"
    "worse.  --markdown prints a table block for a pull request, --json every\n"
    "figure (doc/compare.md).  --name-a and --name-b name the sides in reports\n"
    "(default: A and B as given).\n"
    "--backward: A and B are backward kernels ('gelu-acc list --backward', plugins\n"
    "declared backward, outputs:FILE over the pairs of --inputs and --dy-inputs),\n"
    "compared pair by pair against RN(dy d(x)) over the pairs of sweep --backward\n"
    "(default pairs:all for 16-bit formats; a forward domain takes dy = --dy V).\n"
    "--fail-on-worse exits 1 when any input got worse; --max-worsened N when more\n"
    "than N did.\n"
    "Exit status: 0 compared (and the gate passed), 1 the gate failed or a side\n"
    "failed (crashed, hung), 2 usage or input error, 3 oracle failure.\n";

static void warn(const char *message)
{
    ga_cli_error("compare: warning: %s", message);
}

enum compare_form { COMPARE_TEXT, COMPARE_MARKDOWN, COMPARE_JSON };

struct compare_gate {
    bool fail_on_worse, has_max;
    uint64_t max_worsened;
};

/* The whole output in memory first, so that a failure leaves nothing half
 * written on standard output. */
static int print(const struct ga_compare_done *done, enum compare_form form)
{
    char *text = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&text, &size);
    int rc;

    if (!mem) {
        ga_cli_error("compare: out of memory");
        return GA_EXIT_INTERNAL;
    }
    if (form == COMPARE_MARKDOWN)
        rc = ga_compare_write_markdown(mem, &done->sides, &done->tally);
    else if (form == COMPARE_JSON)
        rc = ga_compare_write_json(mem, &done->sides, &done->tally);
    else
        rc = ga_compare_write_text(mem, &done->sides, &done->tally);
    if (fclose(mem) != 0 || rc != 0) {
        free(text);
        ga_cli_error("compare: out of memory");
        return GA_EXIT_INTERNAL;
    }
    rc = fwrite(text, 1, size, stdout) == size && fflush(stdout) == 0 ? GA_EXIT_OK : GA_EXIT_USAGE;
    free(text);
    if (rc != GA_EXIT_OK)
        ga_cli_error("compare: cannot write the results to standard output");
    return rc;
}

static int gate(const struct ga_compare_tally *t, const struct compare_gate *g)
{
    if (g->fail_on_worse && t->worsened > 0) {
        ga_cli_error("compare: B is worse than A on %llu inputs (--fail-on-worse)",
                     (unsigned long long)t->worsened);
        return GA_EXIT_REGRESSION;
    }
    if (g->has_max && t->worsened > g->max_worsened) {
        ga_cli_error("compare: B is worse than A on %llu inputs, more than --max-worsened %llu",
                     (unsigned long long)t->worsened, (unsigned long long)g->max_worsened);
        return GA_EXIT_REGRESSION;
    }
    return GA_EXIT_OK;
}

/* A side as the engine takes it: LIB.so:SYMBOL is a plugin. */
static const char *side_spec(const char *arg, char *buf, size_t len)
{
    if (strncmp(arg, "outputs:", 8) == 0 || strncmp(arg, "plugin:", 7) == 0 || !strchr(arg, ':'))
        return arg;
    if ((size_t)snprintf(buf, len, "plugin:%s", arg) >= len)
        return NULL;
    return buf;
}

static int parse_max(const char *arg, struct compare_gate *g)
{
    char *end;
    unsigned long long v;

    errno = 0;
    v = strtoull(arg, &end, 10);
    if (end == arg || *end || errno || arg[0] == '-' || arg[0] == '+') {
        ga_cli_error("compare: --max-worsened takes a count of inputs (0 or more), not '%s'", arg);
        return -1;
    }
    g->has_max = true;
    g->max_worsened = v;
    return 0;
}

static int run(struct ga_compare_job *job, const struct ga_cli_options *o, enum compare_form form,
               const struct compare_gate *g)
{
    struct ga_compare_done done;
    struct ga_progress progress;
    char why[GA_ENGINE_WHY];
    int status;

    job->kernel.format = ga_cli_format(o->format);
    if (!job->kernel.format)
        return GA_EXIT_USAGE;
    job->kernel.reference = o->reference;
    job->backward = o->backward;
    job->have_reference = o->have_reference;
    job->kernel.domain = o->domain;
    job->kernel.plugin_options = &o->plugin;
    job->options.oracle = o->oracle;
    job->options.threads = o->threads;
    job->warn = warn;
    ga_progress_attach(&progress, &job->options, "compare");
    status = ga_run_compare(job, &done, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_cli_error("compare: %s", why);
    else if ((status = print(&done, form)) == GA_EXIT_OK)
        status = gate(&done.tally, g);
    ga_compare_done_free(&done);
    return status;
}

int ga_cmd_compare(int argc, char **argv)
{
    static const struct option options[] = {
        GA_CLI_OPTION_FORMAT, GA_CLI_OPTION_REFERENCE, GA_CLI_OPTION_DOMAIN,
        GA_CLI_OPTION_ORACLE, GA_CLI_OPTION_THREADS, GA_CLI_OPTION_TIMEOUT,
        GA_CLI_OPTION_JSON, GA_CLI_OPTION_HELP,
        { "inputs", required_argument, NULL, 'i' },
        { "markdown", no_argument, NULL, 'M' },
        { "fail-on-worse", no_argument, NULL, 'F' },
        { "max-worsened", required_argument, NULL, 'N' },
        { "name-a", required_argument, NULL, 'a' },
        { "name-b", required_argument, NULL, 'b' },
        GA_CLI_OPTION_BACKWARD,
        { "dy", required_argument, NULL, 'y' },
        { "dy-inputs", required_argument, NULL, 'Y' },
        { NULL, 0, NULL, 0 },
    };
    struct ga_cli_options o;
    struct ga_compare_job job = { 0 };
    struct compare_gate g = { 0 };
    enum compare_form form = COMPARE_TEXT;
    char spec[2][GA_DOMAIN_SPEC_LEN + 8];
    int opt, status;

    ga_cli_options_init(&o, "compare", help, ga_cli_wants_backward(argc, argv), false);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("compare", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'i': job.kernel.inputs = optarg; break;
        case 'M': form = COMPARE_MARKDOWN; break;
        case 'F': g.fail_on_worse = true; break;
        case 'a': job.name[0] = optarg; break;
        case 'b': job.name[1] = optarg; break;
        case 'y': job.dy = optarg; break;
        case 'Y': job.dy_inputs = optarg; break;
        case 'N':
            if (parse_max(optarg, &g) != 0)
                return GA_EXIT_USAGE;
            break;
        case GA_CLI_OPT_JSON: form = COMPARE_JSON; break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
        }
    }
    if (argc - optind != 2) {
        ga_cli_error("compare: give two sides, A and B (see 'gelu-acc compare --help')");
        return GA_EXIT_USAGE;
    }
    if (!o.format) {
        ga_cli_error("compare: --format FORMAT is required");
        return GA_EXIT_USAGE;
    }
    if (!o.backward && (job.dy || job.dy_inputs)) {
        ga_cli_error("compare: --dy and --dy-inputs go with --backward");
        return GA_EXIT_USAGE;
    }
    if (job.kernel.inputs && o.domain) {
        ga_cli_error("compare: --inputs FILE is the domain of outputs: sides; --domain cannot "
                     "go with it");
        return GA_EXIT_USAGE;
    }
    for (int s = 0; s < 2; s++)
        if (!(job.spec[s] = side_spec(argv[optind + s], spec[s], sizeof spec[s]))) {
            ga_cli_error("compare: side %s: a spec of %zu characters is too long", s ? "B" : "A",
                         strlen(argv[optind + s]));
            return GA_EXIT_USAGE;
        }
    if (job.kernel.inputs && strncmp(job.spec[0], "outputs:", 8) != 0
        && strncmp(job.spec[1], "outputs:", 8) != 0) {
        ga_cli_error("compare: --inputs FILE goes with an outputs:FILE side");
        return GA_EXIT_USAGE;
    }
    return run(&job, &o, form, &g);
}
