/* The inputs on which a model is proven equal to its library
 * (real_models_test) and its mutants are judged (mutants_test).
 *
 * 16-bit formats: every encoding.  float32, the dense set: the encodings
 * that reach each branch and polynomial interval of the proven models many
 * times over, rather than a uniform sample of all 2^32, most of which lie
 * where GELU is x or 0 (see proof_set.c).  float64: a spread of random
 * encodings, [-40, 10] on a fixed stride, and the special values. */
#ifndef GELU_ACC_PROOF_SET_H
#define GELU_ACC_PROOF_SET_H

#include <stddef.h>

#include "formats/format.h"

/* The set of f, in a new array (*out, freed by the caller); returns its
 * size, 0 when out of memory. */
size_t proof_set(const struct ga_format *f, ga_bits **out);

#endif
