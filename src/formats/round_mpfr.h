/* Rounding an MPFR value into a format. */
#ifndef GA_ROUND_MPFR_H
#define GA_ROUND_MPFR_H

#include <mpfr.h>

#include "formats/format.h"

/* v rounded to nearest, ties to even, into f, with f's subnormals and its
 * default overflow (infinity, or the largest finite where f has none); the
 * sign of v is kept for zero results. */
ga_bits ga_round_mpfr(const struct ga_format *f, mpfr_srcptr v);
/* The same with an overflow convention that f allows (ga_overflow_allowed). */
ga_bits ga_round_mpfr_overflow(const struct ga_format *f, mpfr_srcptr v, enum ga_overflow o);

#endif
