/* A certified bound that decides exact GELU in its far left tail without
 * evaluating erfc: the oracle audit's MPFR side uses it where MPFR's erfc
 * is slowest (doc/audit.md, "The far left tail"). */
#ifndef GA_LEFT_TAIL_BOUND_H
#define GA_LEFT_TAIL_BOUND_H

#include <stdbool.h>

#include "formats/format.h"

/* True when |gelu(x)| is proved below half the smallest subnormal of f, for
 * a finite x < 0: gelu(x) then rounds to -0 in f, the exact value below it
 * (direction -1).  False when the bound does not prove it (never wrong). */
bool ga_gelu_left_tail_vanishes(const struct ga_format *f, double x);

#endif
