/* GELU fused with a cast into a small format: the input is an encoding of a
 * wider format (bfloat16, float16, float32), the activation is computed in
 * float32 and the result converted once into the small format, as the FP8
 * epilogues of Transformer Engine, cuDNN and vLLM do.  The conversions are
 * the small formats' catalogue models' (gelu_small.c); here they meet values
 * beyond the largest finite, where saturation and NaN-on-overflow part. */
#ifndef GA_CAST_H
#define GA_CAST_H

#include <stddef.h>

#include "formats/format.h"

enum ga_small_conversion {
    GA_SMALL_SATFINITE,     /* to nearest even, saturating (infinities too) */
    GA_SMALL_OVERFLOW_NAN,  /* to nearest even, NaN beyond the largest finite */
    GA_SMALL_TRUNCATE,      /* toward zero */
};

/* float32 erf GELU of x (an encoding of in) converted once into out. */
ga_bits ga_gelu_erf_cast(const struct ga_format *in, ga_bits x, const struct ga_format *out,
                         enum ga_small_conversion how);

/* One fused kernel model: its name (that of the catalogue model with the
 * same conversion), conversion and what it models. */
struct ga_cast_model {
    const char *name;
    enum ga_small_conversion how;
    const char *models;
};

size_t ga_cast_model_count(void);
const struct ga_cast_model *ga_cast_model_at(size_t i);
/* Whether the model's conversion exists for out (NaN-on-overflow needs a NaN). */
bool ga_cast_model_supports(const struct ga_cast_model *m, const struct ga_format *out);

#endif
