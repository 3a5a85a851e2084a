/* The models that equal real kernels (model_claims.h); doc/libraries.md
 * says how each was found. */
#include "real/model_claims.h"

#include <string.h>

const struct ga_model_claim ga_model_claims[] = {
    { "dnnl_erf", GA_FLOAT32, "erf_dnnl" },
    { "dnnl_erf", GA_BFLOAT16, "erf_dnnl" },
    { "torch_erf", GA_FLOAT32, "erf_dnnl" },
    { "torch_erf", GA_BFLOAT16, NULL },
    { "torch_nomkldnn_erf", GA_BFLOAT16, "erf_torch_bf16" },
    { "torch_strided_erf", GA_BFLOAT16, "erf_torch_bf16" },
    { "torch_strided_erf", GA_FLOAT32, "erf" },
    { "torch_strided_tanh", GA_FLOAT32, "tanh_fma" },
    { "torch_nomkldnn_erf", GA_FLOAT32, "sleef_erf_u10" },
    { "torch_tanh", GA_FLOAT32, "sleef_tanh_u10" },
    { "torch_nomkldnn_tanh", GA_FLOAT32, "sleef_tanh_u10" },
    { "eigen_erf", GA_BFLOAT16, "erf_native" },
    { "eigen_erf", GA_FLOAT16, "erf_native" },
    { "eigen_avx2_erf", GA_BFLOAT16, "erf_native" },
    { "eigen_avx2_erf", GA_FLOAT16, "erf_native" },
    { "torch_tanh", GA_BFLOAT16, "tanh_native" },
    { "torch_nomkldnn_tanh", GA_BFLOAT16, "tanh_native" },
    { "torch_strided_tanh", GA_BFLOAT16, "tanh_native" },
    { "torch_strided_erf", GA_FLOAT64, "erf_f64" },
    { "torch_erf", GA_FLOAT64, "sleef_erf_u10" },
    { "torch_nomkldnn_erf", GA_FLOAT64, "sleef_erf_u10" },
    { "torch_tanh", GA_FLOAT64, "sleef_tanh_u10" },
};
const size_t ga_model_claim_count = sizeof ga_model_claims / sizeof ga_model_claims[0];

const struct ga_model_claim *ga_model_claim_find(const char *real, const struct ga_format *f)
{
    for (size_t i = 0; i < ga_model_claim_count; i++)
        if (ga_model_claims[i].format == f->id && strcmp(ga_model_claims[i].real, real) == 0)
            return &ga_model_claims[i];
    return NULL;
}

const char *ga_model_claim_model(const struct ga_model_claim *c, const char *path)
{
    if (c->model != NULL)
        return c->model;
    /* torch_erf in bfloat16, the one claim without a fixed model */
    return strstr(path, "bfloat16 to oneDNN") ? "erf_dnnl" : "erf_torch_bf16";
}
