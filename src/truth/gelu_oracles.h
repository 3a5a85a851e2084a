/* The per-function MPFR oracles behind ga_truth_mpfr. */
#ifndef GA_GELU_ORACLES_H
#define GA_GELU_ORACLES_H

#include "truth/truth.h"

int ga_gelu_mpfr(const struct ga_format *f, ga_bits x, struct ga_truth *out);
int ga_gelu_tanh_mpfr(const struct ga_format *f, ga_bits x, struct ga_truth *out);
/* The derivatives, fn GA_GELU_GRAD or GA_GELU_TANH_GRAD (grad_mpfr.c). */
int ga_grad_mpfr(enum ga_function fn, const struct ga_format *f, ga_bits x, struct ga_truth *out);

#endif
