/* The derivative oracles' enclosures, shared with the backward truth
 * (backward_mpfr.c, grad_value.c), which multiplies them by dy. */
#ifndef GA_GRAD_ENCLOSE_H
#define GA_GRAD_ENCLOSE_H

#include <mpfr.h>

/* s (precision w) and err (64 bits) with |s - d(x)| <= err, x = xd exactly;
 * 0 when a term left MPFR's range (then s and err mean nothing).  Runs in
 * the caller's exponent range (widen it: ga_mpfr_widen_range). */
int ga_gelu_grad_enclose(mpfr_srcptr x, double xd, mpfr_prec_t w, mpfr_ptr s, mpfr_ptr err);
int ga_gelu_tanh_grad_enclose(mpfr_srcptr x, double xd, mpfr_prec_t w, mpfr_ptr s, mpfr_ptr err);

/* The first precision worth trying at xd for a result of `bits` bits (64
 * for the formats of 32 bits or fewer; ga_ziv_first_bits). */
long ga_gelu_grad_first_precision(long bits, double xd);
long ga_gelu_tanh_grad_first_precision(long bits, double xd);

/* 1 when the derivative is proved within 2^GA_EXACT_EXP_MIN of its limit
 * (-0 for x < 0, 1 from above for x > 0): the tails where enclose fails. */
int ga_gelu_grad_tail_vanishes(mpfr_srcptr x);
int ga_gelu_tanh_grad_tail_vanishes(mpfr_srcptr x);

/* The three for one derivative (GA_GELU_GRAD or GA_GELU_TANH_GRAD). */
struct ga_grad_encloser {
    int (*enclose)(mpfr_srcptr x, double xd, mpfr_prec_t w, mpfr_ptr s, mpfr_ptr err);
    long (*first_precision)(long bits, double xd);
    int (*tail_vanishes)(mpfr_srcptr x);
};

#include "truth/function.h"

/* GA_GELU_GRAD's or GA_GELU_TANH_GRAD's; NULL for any other function. */
const struct ga_grad_encloser *ga_grad_encloser(enum ga_function fn);

#endif
