/* The reference functions the suite knows. */
#ifndef GA_FUNCTION_H
#define GA_FUNCTION_H

#include <stdbool.h>

enum ga_function {
    GA_GELU,       /* x * Phi(x) = (x/2) * erfc(-x/sqrt(2)) */
    GA_GELU_TANH,  /* (x/2) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), constants exact */
    /* The forward functions above are what implementations approximate and
     * sweeps and reports iterate over; arrays indexed by a forward function
     * have GA_FUNCTION_COUNT entries. */
    GA_FUNCTION_COUNT,
    /* The derivatives, known to the oracles (ga_truth_mpfr) and to `truth`. */
    GA_GELU_GRAD = GA_FUNCTION_COUNT,  /* gelu'(x) = Phi(x) + x phi(x) */
    GA_GELU_TANH_GRAD,                 /* d/dx of the tanh form, taken exactly */
    GA_ALL_FUNCTION_COUNT
};

static inline bool ga_function_is_forward(enum ga_function fn)
{
    return (unsigned)fn < GA_FUNCTION_COUNT;
}

/* "gelu", "gelu_tanh", "gelu_grad", "gelu_tanh_grad". */
const char *ga_function_name(enum ga_function fn);
/* A forward function by name: returns 0 and sets *fn, or -1 for an unknown
 * name (the derivatives included: they are not what a sweep measures). */
int ga_function_by_name(const char *name, enum ga_function *fn);
/* Any function the oracles know, forward or derivative, by name. */
int ga_oracle_function_by_name(const char *name, enum ga_function *fn);

#endif
