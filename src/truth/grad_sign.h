/* The sign of a derivative at any double, certified: what a search for the
 * minimum of GELU brackets (report/facts.c). */
#ifndef GA_GRAD_SIGN_H
#define GA_GRAD_SIGN_H

/* -1 or +1: the sign of gelu'(x) (of the tanh form's derivative), proved by
 * the oracle's error bound at the given precision in bits (at least the
 * oracle's first); 0 when that precision does not decide it (x too close
 * to the root) or x is far out in a tail. */
int ga_gelu_grad_sign(double x, long precision);
int ga_gelu_tanh_grad_sign(double x, long precision);

#endif
