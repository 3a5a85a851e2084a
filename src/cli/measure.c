/* What the measuring commands share: running a sweep with a progress line,
 * turning its failures into messages, and printing a result. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure.h"
#include "cli/progress.h"
#include "engine/run_backward.h"
#include "report/backward_print.h"
#include "state/ranks.h"
#include "io/parse_count.h"

int ga_cli_threads(const char *cmd, const char *arg, int *threads)
{
    uint64_t n;

    if (ga_parse_count(arg, 1024, &n) != GA_COUNT_OK || n == 0) {
        ga_cli_error("%s: --threads takes a number from 1 to 1024, not '%s'", cmd, arg);
        return -1;
    }
    *threads = (int)n;
    return 0;
}

int ga_cli_choose_form(const char *cmd, int opt, enum ga_cli_form *form)
{
    if (*form != GA_CLI_TEXT) {
        ga_cli_error("%s: choose one of --json and --csv", cmd);
        return -1;
    }
    *form = opt == 'j' ? GA_CLI_JSON : GA_CLI_CSV;
    return 0;
}

void ga_cli_warn_undeclared(const char *cmd, const struct ga_kernel *k,
                            const struct ga_format *f)
{
    if (k->plugin && !ga_plugin_format_declared(k->plugin))
        ga_cli_error("%s: warning: %s: the library does not declare the kernel's format "
                     "(GELU_ACC_KERNEL_F32 and kin, <gelu-acc/kernel.h>): it cannot be checked "
                     "to be a %s kernel", cmd, k->measurement.impl->name, f->name);
}

int ga_cli_checkpoint_interval(const char *cmd, const char *text, double *seconds)
{
    char *end;
    double v;

    errno = 0;
    v = strtod(text, &end);
    /* Below a second, writing the state costs more than the sweep (every
     * 0.01 s: 12 times slower; every microsecond: 69 times). */
    if (end == text || *end != '\0' || errno != 0 || !(v >= 1 && v <= 86400)
        || strspn(text, "0123456789.") != strlen(text)) {
        ga_cli_error("%s: --checkpoint-interval takes a decimal number of seconds from 1 "
                     "to 86400, not '%s'", cmd, text);
        return -1;
    }
    *seconds = v;
    return 0;
}

int ga_cli_timeout(const char *cmd, const char *arg, double *seconds)
{
    if (ga_parse_timeout(arg, seconds) != 0) {
        ga_cli_error("%s: --timeout takes a decimal number of seconds above 0 and at most %d, "
                     "not '%s'", cmd, GA_MAX_TIMEOUT, arg);
        return -1;
    }
    return 0;
}

int ga_cli_sweep_failure(const char *cmd, int status, const struct ga_format *f,
                         const struct ga_domain *d, const struct ga_measurement *m, size_t n,
                         ga_bits input)
{
    char why[GA_ENGINE_WHY];

    status = ga_engine_sweep_status(status, f, d, m, n, input, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_cli_error("%s: %s", cmd, why);
    return status;
}

int ga_cli_sweep(const char *cmd, const struct ga_format *f, const struct ga_domain *d,
                 struct ga_measurement *m, size_t n, struct ga_sweep_options so, const char *label)
{
    struct ga_progress progress;
    ga_bits input = 0;
    int status;

    ga_progress_attach(&progress, &so, label);
    status = ga_sweep_run(f, d, m, n, &so, &input);
    return ga_cli_sweep_failure(cmd, status, f, d, m, n, input);
}

int ga_cli_measure(const char *cmd, const struct ga_format *f, const struct ga_domain *d,
                   struct ga_measurement *m, const struct ga_sweep_options *so, const char *name,
                   struct ga_result *r)
{
    int status = ga_cli_sweep(cmd, f, d, m, 1, *so, name ? name : m->impl->name);

    if (status == GA_EXIT_OK && ga_result_from_measurement(r, m, d, so->oracle, name) != 0) {
        ga_cli_error("%s: could not summarize the results", cmd);
        status = GA_EXIT_INTERNAL;
    }
    if (m->stats)
        ga_measurement_clear(m);
    r->profile = NULL;  /* released with the measurement */
    return status;
}

int ga_cli_print_sweep(const char *cmd, const struct ga_result *r, enum ga_cli_form form)
{
    int status = ga_cli_print_result(r, form);

    if (status == GA_EXIT_OK && r->failed) {
        ga_cli_error("%s: %s failed: %s", cmd, r->impl, r->spans[0].what);
        status = GA_EXIT_REGRESSION;
    }
    return status;
}

int ga_cli_print_partial(const char *cmd, struct ga_partial *p, const struct ga_domain *d,
                         enum ga_cli_form form, const struct ga_result_machine *machine)
{
    struct ga_result *r = malloc(sizeof *r);
    int status;

    if (!r) {
        ga_cli_error("%s: out of memory", cmd);
        return GA_EXIT_INTERNAL;
    }
    if (ga_result_from_measurement(r, &p->m, d, p->id.oracle, NULL) != 0) {
        ga_cli_error("%s: could not summarize the results", cmd);
        status = GA_EXIT_INTERNAL;
    } else {
        if (machine != NULL)
            r->machine = *machine;
        status = ga_cli_print_sweep(cmd, r, form);
    }
    free(r);
    return status;
}

int ga_cli_print_result(const struct ga_result *r, enum ga_cli_form form)
{
    if (form == GA_CLI_JSON)
        ga_write_json(stdout, r, 1);
    else if (form == GA_CLI_CSV)
        ga_write_csv(stdout, r, 1);
    else
        ga_write_text(stdout, r);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        ga_cli_error("cannot write the results to standard output");
        return GA_EXIT_USAGE;
    }
    return GA_EXIT_OK;
}

int ga_cli_print_backward_stats(const char *cmd, const struct ga_backward_sweep *s,
                                const struct ga_backward_stats *st, bool json,
                                const struct ga_result_machine *m)
{
    if (ga_ranks_rank() != 0)
        return GA_EXIT_OK;  /* rank 0 prints, and says whether a batch failed */
    if ((json ? ga_backward_print_json(stdout, s, st, m)
              : ga_backward_print_text(stdout, s, st)) != 0) {
        ga_cli_error("%s: writing the results failed", cmd);
        return GA_EXIT_USAGE;
    }
    return st->failed_batches > 0 ? GA_EXIT_REGRESSION : GA_EXIT_OK;
}

int ga_cli_print_backward(const char *cmd, const struct ga_backward_sweep *s, bool json,
                          const char *(*read_error)(const void *ctx), const void *ctx)
{
    struct ga_backward_stats st;
    char why[GA_ENGINE_WHY];
    int status = ga_run_backward_sweep(s, &st, read_error, ctx, why, sizeof why);

    if (status != GA_ENGINE_OK) {
        ga_cli_error("%s: %s", cmd, why);
        return status;
    }
    return ga_cli_print_backward_stats(cmd, s, &st, json, NULL);
}
