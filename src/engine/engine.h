/* What every command of the engine returns: a status the command line maps
 * one to one to its exit status (doc/commands.md, "Exit status"), and a message. */
#ifndef GA_ENGINE_H
#define GA_ENGINE_H

#include <stddef.h>

#include "domain/domain.h"
#include "measure/sweep.h"

enum ga_engine_status {
    GA_ENGINE_OK = 0,
    GA_ENGINE_FAILED = 1,      /* a kernel failed, or a bound was exceeded */
    GA_ENGINE_BAD_INPUT = 2,   /* bad usage or input: a name, a file, an option */
    GA_ENGINE_UNDECIDED = 3,   /* the oracle could not decide a rounding (never expected) */
};

/* The longest message of an engine call. */
#define GA_ENGINE_WHY 4096

/* The status and message of a ga_sweep_run status over n measurements of
 * m on d (GA_ENGINE_OK for GA_SWEEP_OK); input: the undecided one. */
int ga_engine_sweep_status(int status, const struct ga_format *f, const struct ga_domain *d,
                           const struct ga_measurement *m, size_t n, ga_bits input, char *why,
                           size_t len);

#endif
