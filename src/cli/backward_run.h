/* Shared by sweep --backward and grade --backward. */
#ifndef GA_CLI_BACKWARD_RUN_H
#define GA_CLI_BACKWARD_RUN_H

#include <stdbool.h>

#include "measure/backward_sweep.h"
#include "state/backward_sweep_file.h"

/* --reference NAME of a backward measurement: a derivative.  0, or -1 with
 * a message. */
int ga_cli_derivative(const char *cmd, const char *name, enum ga_function *fn);

/* Run s and print its result (text or JSON).  A sweep that stops on a file
 * read is bad input: read_error(ctx), when given, says whether one failed.
 * Returns GA_EXIT_OK, GA_EXIT_REGRESSION (a plugin failed on some batch),
 * GA_EXIT_USAGE or GA_EXIT_INTERNAL (a truth not decided). */
int ga_cli_backward_run(const char *cmd, const struct ga_backward_sweep *s, bool json,
                        const char *(*read_error)(const void *ctx), const void *ctx);

/* sweep --backward with --partial or --checkpoint: shard k of n of s's
 * pairs (1/1 without --shard).  With checkpoint, resumed from that file
 * when it is there (refused, the field named, when it is another
 * command's), and saved there every interval_s seconds and at the end.
 * Then the shard written to partial, or without one (shard 1/1) the
 * sweep's result printed as ga_cli_backward_run prints it, the same
 * bytes.  id is the sweep's identity.  A GA_EXIT_* status. */
int ga_cli_backward_shard(const struct ga_backward_sweep *s, const struct ga_backward_sweep_id *id,
                          uint32_t k, uint32_t n, const char *partial, const char *checkpoint,
                          double interval_s, bool json);

/* merge of backward partial files names[0..n): prints what the one sweep
 * prints (text or JSON).  A GA_EXIT_* status. */
int ga_cli_backward_merge(char *const *names, size_t n, bool json);

#endif
