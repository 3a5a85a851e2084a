/* Rounding an MPFR value into a format. */
#ifndef GA_ROUND_MPFR_H
#define GA_ROUND_MPFR_H

#include <mpfr.h>

#include "formats/format.h"

/* v rounded to nearest, ties to even, into f, with f's subnormals and
 * overflow to infinity; the sign of v is kept for zero results. */
ga_bits ga_round_mpfr(const struct ga_format *f, mpfr_srcptr v);

#endif
