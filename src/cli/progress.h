#ifndef GA_PROGRESS_H
#define GA_PROGRESS_H

#include "measure/sweep.h"

struct ga_progress {
    const char *label;
    double start;
};

/* Report progress of the sweep run with o on stderr when it is a terminal:
 * inputs done, rate, time left.  Nothing otherwise. */
void ga_progress_attach(struct ga_progress *p, struct ga_sweep_options *o, const char *label);

#endif
