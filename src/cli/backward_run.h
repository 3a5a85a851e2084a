/* Shared by sweep --backward and grade --backward. */
#ifndef GA_CLI_BACKWARD_RUN_H
#define GA_CLI_BACKWARD_RUN_H

#include <stdbool.h>

#include "sweep/backward_sweep.h"

/* --reference NAME of a backward measurement: a derivative.  0, or -1 with
 * a message. */
int ga_cli_derivative(const char *cmd, const char *name, enum ga_function *fn);

/* Run s and print its result (text or JSON).  A sweep that stops on a file
 * read is bad input: read_error(ctx), when given, says whether one failed.
 * Returns GA_EXIT_OK, GA_EXIT_REGRESSION (a plugin failed on some batch),
 * GA_EXIT_USAGE or GA_EXIT_INTERNAL (a truth not decided). */
int ga_cli_backward_run(const char *cmd, const struct ga_backward_sweep *s, bool json,
                        const char *(*read_error)(const void *ctx), const void *ctx);

#endif
