#ifndef GA_CLI_MEASURE_H
#define GA_CLI_MEASURE_H

#include "cli/cli.h"
#include "report/result.h"
#include "measure/kernel_spec.h"
#include "measure/backward_sweep.h"
#include "state/partial.h"

enum ga_cli_form { GA_CLI_TEXT, GA_CLI_JSON, GA_CLI_CSV };

/* --json (opt 'j') or --csv (opt 'c') into *form, which starts as
 * GA_CLI_TEXT: 0, or -1 and a message when the other one was given too. */
int ga_cli_choose_form(const char *cmd, int opt, enum ga_cli_form *form);

/* --threads N (decimal, 1 to 1024): 0, or -1 and a message. */
int ga_cli_threads(const char *cmd, const char *arg, int *threads);

/* The warning for a plugin kernel whose library does not declare its
 * format (nothing for other kernels). */
void ga_cli_warn_undeclared(const char *cmd, const struct ga_kernel *k,
                            const struct ga_format *f);

/* --checkpoint-interval SECONDS: a decimal number, 0 < SECONDS <= one
 * day.  0, or -1 and a message. */
int ga_cli_checkpoint_interval(const char *cmd, const char *text, double *seconds);

/* --timeout SECONDS (ga_parse_timeout: a decimal number, 0 < SECONDS
 * <= one day): 0, or -1 and a message. */
int ga_cli_timeout(const char *cmd, const char *arg, double *seconds);

/* Run ga_sweep_run with a progress line; failures become messages.
 * Returns a GA_EXIT_* status. */
int ga_cli_sweep(const char *cmd, const struct ga_format *f, const struct ga_domain *d,
                 struct ga_measurement *m, size_t n, struct ga_sweep_options so, const char *label);

/* The message and GA_EXIT_* status of a ga_sweep_run status (GA_EXIT_OK
 * for GA_SWEEP_OK); input: the undecided one. */
int ga_cli_sweep_failure(const char *cmd, int status, const struct ga_format *f,
                         const struct ga_domain *d, const struct ga_measurement *m, size_t n,
                         ga_bits input);

/* Sweep one measurement and summarize it into *r (the measurement's stats
 * are released; a NULL name takes the implementation's). */
int ga_cli_measure(const char *cmd, const struct ga_format *f, const struct ga_domain *d,
                   struct ga_measurement *m, const struct ga_sweep_options *so, const char *name,
                   struct ga_result *r);

/* Print a sweep's result; GA_EXIT_REGRESSION, with a message, when the
 * kernel failed. */
int ga_cli_print_sweep(const char *cmd, const struct ga_result *r, enum ga_cli_form form);

/* ga_cli_print_sweep of a complete partial over its domain d; machine
 * (NULL: none) gives a real kernel's row the machine keys. */
int ga_cli_print_partial(const char *cmd, struct ga_partial *p, const struct ga_domain *d,
                         enum ga_cli_form form, const struct ga_result_machine *machine);

/* A backward sweep's result on stdout (rank 0 alone), text or JSON (with
 * m, a real kernel's machine keys; NULL: none): a GA_EXIT_* status,
 * GA_EXIT_REGRESSION when a batch of the kernel failed. */
int ga_cli_print_backward_stats(const char *cmd, const struct ga_backward_sweep *s,
                                const struct ga_backward_stats *st, bool json,
                                const struct ga_result_machine *m);

/* A backward sweep set up by the caller (grade --backward: graded files)
 * run by the engine (ga_run_backward_sweep), then printed. */
int ga_cli_print_backward(const char *cmd, const struct ga_backward_sweep *s, bool json,
                          const char *(*read_error)(const void *ctx), const void *ctx);

/* Print r on stdout as text, JSON or CSV. */
int ga_cli_print_result(const struct ga_result *r, enum ga_cli_form form);

#endif
