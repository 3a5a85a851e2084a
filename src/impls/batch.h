/* Batch functions (ga_batch_fn) generated for each kind of scalar form.
 *
 * Each macro defines one static batch function that calls its form directly,
 * so the float32 loop - 2^32 calls in an exhaustive sweep - has no per-element
 * format dispatch and no call through a pointer.  float32 and float64
 * encodings travel as their bits (memcpy); 16-bit encodings are decoded to their exact value and
 * the result is encoded with round to nearest even (ga_encode). */
#ifndef GA_BATCH_H
#define GA_BATCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "formats/format.h"
#include "impls/impl.h"

static inline float ga_f32_from_bits(ga_bits b)
{
    uint32_t u = b;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static inline ga_bits ga_bits_from_f32(float y)
{
    uint32_t u;
    memcpy(&u, &y, sizeof u);
    return u;
}

/* Fills *failure for a format the entry does not support; returns -1. */
int ga_batch_unsupported(const struct ga_impl *impl, const struct ga_format *f,
                         size_t n, struct ga_run_failure *failure);

/* A float form: float32 as is; 16-bit formats computed in float and rounded
 * once to the format (PyTorch "opmath"). */
#define GA_DEFINE_OPMATH_RUN(run_name, form)                                     \
    static int run_name(const struct ga_impl *impl, const struct ga_format *f,  \
                        const ga_bits *in, ga_bits *out, size_t n,              \
                        struct ga_run_failure *failure)                         \
    {                                                                           \
        if (!ga_impl_supports(impl, f))                                         \
            return ga_batch_unsupported(impl, f, n, failure);                   \
        if (f->id == GA_FLOAT32) {                                              \
            for (size_t i = 0; i < n; i++)                                      \
                out[i] = ga_bits_from_f32(form(ga_f32_from_bits(in[i])));       \
        } else {                                                                \
            for (size_t i = 0; i < n; i++)                                      \
                out[i] = ga_encode(f, form((float)ga_decode(f, in[i])));        \
        }                                                                       \
        return 0;                                                               \
    }

/* A per-operation form: the format is part of the computation. */
#define GA_DEFINE_NATIVE_RUN(run_name, form)                                     \
    static int run_name(const struct ga_impl *impl, const struct ga_format *f,  \
                        const ga_bits *in, ga_bits *out, size_t n,              \
                        struct ga_run_failure *failure)                         \
    {                                                                           \
        if (!ga_impl_supports(impl, f))                                         \
            return ga_batch_unsupported(impl, f, n, failure);                   \
        for (size_t i = 0; i < n; i++)                                          \
            out[i] = ga_encode(f, form(f, (float)ga_decode(f, in[i])));         \
        return 0;                                                               \
    }

/* A double form, rounded once to the format; (float) of a double rounds to
 * nearest even with subnormals and overflow, like ga_encode. */
#define GA_DEFINE_DOUBLE_RUN(run_name, form)                                     \
    static int run_name(const struct ga_impl *impl, const struct ga_format *f,  \
                        const ga_bits *in, ga_bits *out, size_t n,              \
                        struct ga_run_failure *failure)                         \
    {                                                                           \
        if (!ga_impl_supports(impl, f))                                         \
            return ga_batch_unsupported(impl, f, n, failure);                   \
        if (f->id == GA_FLOAT32) {                                              \
            for (size_t i = 0; i < n; i++)                                      \
                out[i] = ga_bits_from_f32((float)form(ga_f32_from_bits(in[i]))); \
        } else {                                                                \
            for (size_t i = 0; i < n; i++)                                      \
                out[i] = ga_encode(f, form(ga_decode(f, in[i])));               \
        }                                                                       \
        return 0;                                                               \
    }

static inline double ga_f64_from_bits(ga_bits b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

static inline ga_bits ga_bits_from_f64(double y)
{
    ga_bits b;
    memcpy(&b, &y, sizeof b);
    return b;
}

/* A double form for float64 only: the encodings are the doubles' bits. */
#define GA_DEFINE_F64_RUN(run_name, form)                                        \
    static int run_name(const struct ga_impl *impl, const struct ga_format *f,  \
                        const ga_bits *in, ga_bits *out, size_t n,              \
                        struct ga_run_failure *failure)                         \
    {                                                                           \
        if (!ga_impl_supports(impl, f))                                         \
            return ga_batch_unsupported(impl, f, n, failure);                   \
        for (size_t i = 0; i < n; i++)                                          \
            out[i] = ga_bits_from_f64(form(ga_f64_from_bits(in[i])));           \
        return 0;                                                               \
    }

#endif
