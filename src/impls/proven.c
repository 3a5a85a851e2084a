/* The list of the models proven equal to a library (impls/proven.h); each
 * descriptor lives beside its model. */
#include "impls/proven.h"

const struct ga_proven_model *const ga_proven_models[] = {
    &ga_proven_erf_dnnl, &ga_proven_erf, &ga_proven_erf_native, &ga_proven_erf_torch_bf16,
    &ga_proven_tanh_fma, &ga_proven_tanh_native, &ga_proven_erf_f64,
};

const size_t ga_proven_count = sizeof ga_proven_models / sizeof ga_proven_models[0];
