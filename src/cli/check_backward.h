/* gelu-acc check on the backward entries of a baseline (check_backward.c). */
#ifndef GA_CLI_CHECK_BACKWARD_H
#define GA_CLI_CHECK_BACKWARD_H

#include <stdbool.h>

#include "check/baseline.h"
#include "grade/backward_stats.h"

/* Measure entry e (of the baseline at path) into st; timeout_s > 0 replaces
 * the entry's.  Returns a GA_EXIT_* status, with a message. */
int ga_cli_check_backward(const char *path, const char *baseline_dir,
                          const struct ga_baseline_entry *e, int threads, double timeout_s,
                          struct ga_backward_stats *st);

/* Print the failed batches, or (unless update) each exceeded bound and a
 * PASS or FAIL line.  Returns the number of failures. */
int ga_cli_check_backward_verdict(const struct ga_baseline_entry *e,
                                  const struct ga_backward_stats *st, bool update);

#endif
