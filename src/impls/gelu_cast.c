/* The fused GELU + cast models (cast.h): one entry per conversion. */
#include "impls/cast.h"

static const struct ga_cast_model models[] = {
    { "erf_satfinite", GA_SMALL_SATFINITE,
      "float32 GELU, then a saturating conversion (PTX cvt.rn.satfinite, Transformer Engine's "
      "FP8 casts): beyond the largest finite, the largest finite" },
    { "erf_overflow_nan", GA_SMALL_OVERFLOW_NAN,
      "float32 GELU, then the OCP non-saturating conversion (__NV_NOSAT): beyond the largest "
      "finite, NaN (E5M2 keeps infinite results)" },
    { "erf_truncate", GA_SMALL_TRUNCATE,
      "float32 GELU, then a conversion that drops the low fraction bits (toward zero, "
      "saturating)" },
};

size_t ga_cast_model_count(void)
{
    return sizeof models / sizeof models[0];
}

const struct ga_cast_model *ga_cast_model_at(size_t i)
{
    return i < ga_cast_model_count() ? &models[i] : NULL;
}

bool ga_cast_model_supports(const struct ga_cast_model *m, const struct ga_format *out)
{
    return m->how != GA_SMALL_OVERFLOW_NAN || ga_has_nan(out);
}
