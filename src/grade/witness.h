/* The kinds of input a check line names (gelu-acc check, doc/baselines.md
 * "Which input a line names"): for each count of a baseline, the property
 * of one input that makes it count there.  An input "of that kind" is what
 * a line about that count names, never the worst-ulp input of another
 * figure. */
#ifndef GA_WITNESS_H
#define GA_WITNESS_H

#include <stdbool.h>

#include "grade/error.h"

enum ga_witness {
    GA_WITNESS_NOT_CORRECT,   /* correctly_rounded: an output not correctly rounded */
    GA_WITNESS_UNFAITHFUL,    /* faithful_interval: an output not faithful */
    GA_WITNESS_NAN,           /* nan */
    GA_WITNESS_INF,           /* inf */
    GA_WITNESS_FLUSHED,       /* flushed_to_zero */
    GA_WITNESS_ZERO_SIGN,     /* wrong_zero_sign */
    GA_WITNESS_COUNT
};

/* Whether an output with error e is of kind w. */
static inline bool ga_witness_is(enum ga_witness w, const struct ga_error *e)
{
    switch (w) {
    case GA_WITNESS_NOT_CORRECT: return !(e->flags & GA_ERR_CORRECT);
    case GA_WITNESS_UNFAITHFUL: return !(e->flags & GA_ERR_FAITHFUL);
    case GA_WITNESS_NAN: return (e->flags & GA_ERR_NAN) != 0;
    case GA_WITNESS_INF: return (e->flags & GA_ERR_INF) != 0;
    case GA_WITNESS_FLUSHED: return (e->flags & GA_ERR_FLUSHED) != 0;
    default: return (e->flags & GA_ERR_ZERO_SIGN) != 0;
    }
}

#endif
