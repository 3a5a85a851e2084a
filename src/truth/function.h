/* The reference functions the suite knows. */
#ifndef GA_FUNCTION_H
#define GA_FUNCTION_H

enum ga_function {
    GA_GELU,       /* x * Phi(x) = (x/2) * erfc(-x/sqrt(2)) */
    GA_GELU_TANH,  /* (x/2) * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))), constants exact */
    GA_FUNCTION_COUNT
};

/* "gelu", "gelu_tanh". */
const char *ga_function_name(enum ga_function fn);
/* Returns 0 and sets *fn, or -1 for an unknown name. */
int ga_function_by_name(const char *name, enum ga_function *fn);

#endif
