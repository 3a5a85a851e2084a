/* The backward sweep: a backward kernel over a pair domain against the
 * backward truth (truth/backward.h), statistics in backward_stats.h. */
#ifndef GA_BACKWARD_SWEEP_H
#define GA_BACKWARD_SWEEP_H

#include <stddef.h>

#include "impls/backward.h"
#include "sweep/backward_stats.h"
#include "sweep/pairs.h"

struct ga_backward_sweep {
    const struct ga_backward_impl *impl;
    enum ga_function reference;  /* GA_GELU_GRAD or GA_GELU_TANH_GRAD */
    const struct ga_pairs *pairs;
    int threads;                 /* 0: OpenMP's default */
};

/* Returns 0, or -1 with a message in err (the truth undecided somewhere). */
int ga_backward_sweep_run(const struct ga_backward_sweep *s, struct ga_backward_stats *out,
                          char *err, size_t errlen);

#endif
