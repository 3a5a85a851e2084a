/* The run protocol (run.h) bound to a sweep's partial (partial.h). */
#ifndef GA_PARTIAL_RUN_H
#define GA_PARTIAL_RUN_H

#include "state/partial.h"
#include "state/run.h"

extern const struct ga_run_kind ga_partial_run_kind;

#endif
