/* What sweep --backward and grade --backward share: the --reference of a
 * derivative, and running the sweep into its printed result. */
#include "cli/backward_run.h"

#include "cli/cli.h"
#include "report/backward_print.h"

int ga_cli_derivative(const char *cmd, const char *name, enum ga_function *fn)
{
    if (ga_oracle_function_by_name(name, fn) == 0 && !ga_function_is_forward(*fn))
        return 0;
    ga_cli_error("%s: --reference of --backward is gelu_grad or gelu_tanh_grad, not '%s'",
                 cmd, name);
    return -1;
}

int ga_cli_backward_run(const char *cmd, const struct ga_backward_sweep *s, bool json,
                        const char *(*read_error)(const void *ctx), const void *ctx)
{
    struct ga_backward_stats st;
    char err[512];

    if (ga_backward_sweep_run(s, &st, err, sizeof err) != 0) {
        const char *why = read_error ? read_error(ctx) : NULL;
        ga_cli_error("%s: %s", cmd, why ? why : err);
        return why ? GA_EXIT_USAGE : GA_EXIT_INTERNAL;
    }
    if ((json ? ga_backward_print_json : ga_backward_print_text)(stdout, s, &st) != 0) {
        ga_cli_error("%s: writing the results failed", cmd);
        return GA_EXIT_USAGE;
    }
    return st.failed_batches > 0 ? GA_EXIT_REGRESSION : GA_EXIT_OK;
}
