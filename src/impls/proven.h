/* The models proven equal to a real library, bit for bit
 * (tests/real_models_test), each with its constants in one table that the
 * model reads, so that the mutation test (tests/mutants_test) can change one
 * constant by one ulp, or drop one explicit rounding step, and require the
 * proof to fail (doc/libraries.md, 'Proving a model').
 *
 * The catalogue's own forms read the const table below through an inlined
 * form, so the compiler folds every constant as before; the `form` of a
 * descriptor is the same code taking any table. */
#ifndef GA_PROVEN_H
#define GA_PROVEN_H

#include <stddef.h>

#include "formats/format.h"
#include "impls/native.h"

enum { GA_PROVEN_MAX = 24 };

/* k: each constant of the formula, one entry per occurrence, as the double
 * the model reads (a float32 model reads (float)k[i], a native one
 * rounds k[i] to the format); steps: bit i set when explicit rounding step
 * i is taken. */
struct ga_proven_table {
    double k[GA_PROVEN_MAX];
    unsigned steps;
};

/* In which precision a constant's one-ulp change is made: the precision the
 * model holds it in. */
enum ga_proven_ulp {
    GA_PROVEN_ULP_FLOAT32,  /* float32 models: nextafterf */
    GA_PROVEN_ULP_FLOAT64,  /* float64 models: nextafter */
    GA_PROVEN_ULP_FORMAT    /* native models: the next value of the 16-bit format */
};

struct ga_proven_model {
    const char *name;                     /* the catalogue name */
    const struct ga_proven_table *table;  /* the one the catalogue runs */
    const char *const *constants;         /* names of k[], NULL-terminated */
    const char *const *steps;             /* names of the step bits, NULL-terminated */
    enum ga_proven_ulp ulp;
    /* The model on x, a value of f, with table c: the value its batch
     * function encodes into f (float32 and float64: the encoding's value). */
    double (*form)(const struct ga_proven_table *c, const struct ga_format *f, double x);
};

/* v rounded to f as a native model's step `bit` of c does, or left in float
 * when c drops that step. */
static inline float ga_proven_round(const struct ga_proven_table *c, unsigned bit,
                                    const struct ga_format *f, double v)
{
    return (c->steps & bit) ? ga_nat(f, v) : (float)v;
}

/* One per model file (gelu_dnnl.c, gelu_erf.c, gelu_tanh_forms.c, gelu_f64.c). */
extern const struct ga_proven_model ga_proven_erf_dnnl, ga_proven_erf, ga_proven_erf_native,
    ga_proven_erf_torch_bf16, ga_proven_tanh_fma, ga_proven_tanh_native, ga_proven_erf_f64;

/* All of them, in that order (proven.c). */
extern const struct ga_proven_model *const ga_proven_models[];
extern const size_t ga_proven_count;

#endif
