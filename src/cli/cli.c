#include "cli/cli.h"
#include "state/ranks.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ga_cli_error(const char *fmt, ...)
{
    char message[16384];
    int at = 0;
    va_list ap;

    /* one write per message, so that the lines of several ranks do not mix */
    if (ga_ranks_count() > 1)
        at = snprintf(message, sizeof message, "rank %u of %u: ", ga_ranks_rank(),
                      ga_ranks_count());
    va_start(ap, fmt);
    vsnprintf(message + at, sizeof message - (size_t)at, fmt, ap);
    va_end(ap);
    fprintf(stderr, "gelu-acc: %s\n", message);
}

const struct ga_format *ga_cli_format(const char *name)
{
    const struct ga_format *f = name ? ga_format_by_name(name) : NULL;

    if (!name)
        ga_cli_error("--format is required (one of %s)", ga_format_names());
    else if (!f)
        ga_cli_error("unknown format '%s' (known: %s)", name, ga_format_names());
    return f;
}

int ga_cli_function(const char *name, enum ga_function *fn)
{
    if (ga_function_by_name(name, fn) == 0)
        return 0;
    ga_cli_error("unknown function '%s' (known: gelu, gelu_tanh)", name);
    return -1;
}

int ga_cli_oracle(const char *name, enum ga_oracle *oracle)
{
    if (strcmp(name, "fast") == 0 || strcmp(name, "mpfr") == 0) {
        *oracle = name[0] == 'f' ? GA_ORACLE_FAST : GA_ORACLE_MPFR;
        return 0;
    }
    ga_cli_error("unknown oracle '%s' (known: fast, mpfr)", name);
    return -1;
}

int ga_cli_digits(const struct ga_format *f)
{
    return (int)ceil(1 + f->precision * log10(2.0));
}

int ga_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *options, struct ga_cli_seen *seen)
{
    int index = -1, opt = getopt_long(argc, argv, shortopts, options, &index);

    if (opt == -1 || opt == '?' || opt == ':')
        return opt;
    if (index < 0)  /* a short option: its long twin, if any */
        for (int i = 0; options[i].name; i++)
            if (options[i].val == opt)
                index = i;
    if (index < 0 || index >= GA_CLI_OPTIONS_MAX || options[index].has_arg != required_argument)
        return opt;
    if (seen->given[index]) {
        ga_cli_error("%s: --%s is given twice ('%s', then '%s'): give it once", cmd,
                     options[index].name, seen->value[index], optarg);
        return '?';
    }
    seen->given[index] = true;
    seen->value[index] = optarg;
    return opt;
}
