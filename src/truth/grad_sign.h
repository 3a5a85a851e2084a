/* The sign of a derivative at any double, certified: what a search for the
 * minimum of GELU brackets (report/facts.c). */
#ifndef GA_GRAD_SIGN_H
#define GA_GRAD_SIGN_H

#include "truth/function.h"

/* -1 or +1: the sign of the derivative fn (GA_GELU_GRAD, GA_GELU_TANH_GRAD)
 * at x, proved by the oracle's error bound at the given precision in bits
 * (at least the oracle's first); 0 when that precision does not decide it
 * (x too close to the root) or x is far out in a tail. */
int ga_grad_sign(enum ga_function fn, double x, long precision);

#endif
