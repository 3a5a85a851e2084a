/* The command line: a thin shell over the library.  Only this layer prints
 * messages and chooses exit statuses. */
#ifndef GA_CLI_H
#define GA_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "formats/format.h"
#include "truth/function.h"
#include "truth/truth.h"

/* Exit statuses (doc/commands.md, "Exit status"). */
enum ga_exit {
    GA_EXIT_OK = 0,          /* success; every check passed */
    GA_EXIT_REGRESSION = 1,  /* an accuracy bound was exceeded, or a kernel failed */
    GA_EXIT_USAGE = 2,       /* bad usage or bad input: unknown name, unreadable file... */
    GA_EXIT_INTERNAL = 3,    /* the oracle could not decide a rounding (never expected) */
};

/* "gelu-acc: <message>" on stderr. */
void ga_cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Option values, with a message and 0 on failure. */
const struct ga_format *ga_cli_format(const char *name);
int ga_cli_function(const char *name, enum ga_function *fn);
int ga_cli_oracle(const char *name, enum ga_oracle *oracle);

/* The options with a value given so far (ga_cli_getopt); zero it before. */
#define GA_CLI_OPTIONS_MAX 64
struct ga_cli_seen {
    bool given[GA_CLI_OPTIONS_MAX];
    const char *value[GA_CLI_OPTIONS_MAX];
};

/* getopt_long, but an option that takes a value may be given once: a second
 * one prints "CMD: --NAME is given twice" and returns '?' (no option of the
 * suite collects values; the last one silently won before). */
int ga_cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
                  const struct option *options, struct ga_cli_seen *seen);

/* Decimal digits that tell apart every value of f: ceil(1 + p log10 2). */
int ga_cli_digits(const struct ga_format *f);

int ga_cmd_truth(int argc, char **argv);
int ga_cmd_list(int argc, char **argv);
int ga_cmd_sweep(int argc, char **argv);
int ga_cmd_sweep_backward(int argc, char **argv);  /* sweep --backward */
int ga_cmd_report(int argc, char **argv);
int ga_cmd_inputs(int argc, char **argv);
int ga_cmd_grade(int argc, char **argv);
int ga_cmd_compare(int argc, char **argv);
int ga_cmd_grade_backward(int argc, char **argv);  /* grade --backward */
int ga_cmd_check(int argc, char **argv);
int ga_cmd_facts(int argc, char **argv);
int ga_cmd_merge(int argc, char **argv);
int ga_cmd_audit(int argc, char **argv);

/* merge --out DIR of report partials (cmd_report.c): the pages one report
 * writes. */
int ga_cli_report_merge(char **names, size_t n, const char *dir, bool force);

/* merge of backward partial files names[0..n) (cmd_merge_backward.c):
 * prints what the one sweep prints (text or JSON). */
int ga_cli_backward_merge(char *const *names, size_t n, bool json);

/* gelu-acc sweep --format FORMAT --input-format WIDE [--domain D]: GELU
 * fused with a cast (sweep_cast.c).  Returns a GA_EXIT_* status. */
int ga_cli_sweep_cast(const struct ga_format *out, const char *input_format,
                      const char *domain_spec);

#endif
