/* The backward catalogue: one entry per modelled kernel (backward.h). */
#include "impls/backward.h"

#include <string.h>

#include "formats/codec.h"
#include "impls/impl.h"

#define WIDE (GA_FORMAT_BIT(GA_FLOAT32) | GA_FORMAT_BIT(GA_FLOAT16) | GA_FORMAT_BIT(GA_BFLOAT16))
#define HALVES (GA_FORMAT_BIT(GA_FLOAT16) | GA_FORMAT_BIT(GA_BFLOAT16))

static const struct ga_backward_impl catalogue[] = {
    { "pytorch_gelu_backward", WIDE, GA_GELU_GRAD,
      "PyTorch GeluBackwardKernelImpl, approximate='none' (CPU, float opmath)",
      "dy*(0.5*(1 + erf(x*M_SQRT1_2)) + x*kBeta*exp(-0.5*x*x))",
      "float32 with erff, expf; 16-bit inputs converted, rounded once", ga_grad_pytorch,
      ga_grad_pytorch_factor, NULL, NULL },
    { "pytorch_gelu_backward_native", HALVES, GA_GELU_GRAD,
      "PyTorch GeluBackward formula op by op in the format (PaddlePaddle XPU gelu_grad bug)",
      "dy*(0.5*(1 + erf(x*M_SQRT1_2)) + x*kBeta*exp(-0.5*x*x))",
      "every operation rounded to the format", ga_grad_pytorch_native,
      ga_grad_pytorch_native_factor, NULL, NULL },
    { "jax_gelu_backward", WIDE, GA_GELU_GRAD,
      "JAX autodiff of gelu(approximate=False) = x*erfc(-x/sqrt(2))/2",
      "(dy*erfc(z))*0.5 + ((dy*x/2)*(-2/sqrt(pi))*exp(-z*z))*(-1/sqrt(2)), z = -x/sqrt(2)",
      "every operation in the array's dtype; erfc, exp in float", ga_grad_jax, NULL,
      ga_grad_jax_prepare, ga_grad_jax_pair },
    { "pytorch_gelu_backward_tanh", WIDE, GA_GELU_TANH_GRAD,
      "PyTorch GeluBackwardKernelImpl, approximate='tanh' (CPU, float opmath)",
      "dy*(0.5*(1 + t) + 0.5*x*(1 - t*t)*kBeta*(1 + 3*kKappa*x*x))",
      "float32 with tanhf; 16-bit inputs converted, rounded once", ga_grad_pytorch_tanh,
      ga_grad_pytorch_tanh_factor, NULL, NULL },
    { "pytorch_gelu_backward_tanh_native", HALVES, GA_GELU_TANH_GRAD,
      "PyTorch tanh GeluBackward formula op by op in the format (FlagGems gelu_backward_tanh bug)",
      "dy*(0.5*(1 + t) + 0.5*x*(1 - t*t)*kBeta*(1 + 3*kKappa*x*x))",
      "every operation rounded to the format", ga_grad_pytorch_tanh_native,
      ga_grad_pytorch_tanh_native_factor, NULL, NULL },
    { "megatron_bias_gelu_back", WIDE, GA_GELU_TANH_GRAD,
      "Megatron-LM bias_gelu_back (fused, float)",
      "(0.5*x*((1 - t*t)*(0.79788456 + 0.1070322243*x*x)) + 0.5*(1 + t))*dy",
      "float32 with tanhf, rounded constants", ga_grad_megatron,
      ga_grad_megatron_factor, NULL, NULL },
    { "megatron_bias_gelu_back_native", HALVES, GA_GELU_TANH_GRAD,
      "Megatron-LM bias_gelu_back run op by op on 16-bit tensors",
      "(0.5*x*((1 - t*t)*(0.79788456 + 0.1070322243*x*x)) + 0.5*(1 + t))*dy",
      "every operation rounded to the format", ga_grad_megatron_native,
      ga_grad_megatron_native_factor, NULL, NULL },
    { "llmc_gelu_backward", WIDE, GA_GELU_TANH_GRAD,
      "llm.c gelu_backward (train_gpt2.c)",
      "(0.5*(1 + tanh(u)) + x*0.5*(1/cosh(u)^2)*s*(1 + 3*0.044715*x*x))*dy",
      "float32 with tanhf, coshf", ga_grad_llmc,
      ga_grad_llmc_factor, NULL, NULL },
    { "quick_gelu_backward", WIDE, GA_GELU_GRAD,
      "autograd of quick GELU x*sigmoid(1.702x) (CLIP, HF quick_gelu), float",
      "dy*(s + 1.702*x*s*(1 - s)), s = 1/(1 + exp(-1.702*x))",
      "float32 with expf", ga_grad_quick,
      ga_grad_quick_factor, NULL, NULL },
    { "quick_gelu_backward_native", HALVES, GA_GELU_GRAD,
      "autograd of quick GELU op by op on 16-bit tensors",
      "dy*(s + 1.702*x*s*(1 - s)), s = 1/(1 + exp(-1.702*x))",
      "every operation rounded to the format; the sigmoid in float", ga_grad_quick_native,
      ga_grad_quick_native_factor, NULL, NULL },
};

size_t ga_backward_catalogue_count(void)
{
    return sizeof catalogue / sizeof catalogue[0];
}

const struct ga_backward_impl *ga_backward_catalogue_at(size_t i)
{
    return i < ga_backward_catalogue_count() ? &catalogue[i] : NULL;
}

const struct ga_backward_impl *ga_backward_catalogue_find(const char *name)
{
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++)
        if (strcmp(catalogue[i].name, name) == 0)
            return &catalogue[i];
    return NULL;
}

int ga_backward_supports(const struct ga_backward_impl *impl, const struct ga_format *f)
{
    return (impl->formats & GA_FORMAT_BIT(f->id)) != 0;
}

/* What of impl depends on x alone: k (s->v[0]) for a kernel with a factor,
 * the prepared terms for one with prepare, else x itself (s->v[0]). */
static void prepare(const struct ga_backward_impl *impl, const struct ga_format *f, float x,
                    struct ga_backward_state *s)
{
    if (impl->factor != NULL)
        s->v[0] = impl->factor(f, x);
    else if (impl->prepare != NULL)
        impl->prepare(f, x, s);
    else
        s->v[0] = x;
}

static float pair(const struct ga_backward_impl *impl, const struct ga_format *f, float dy,
                  const struct ga_backward_state *s)
{
    if (impl->factor != NULL)
        return dy * s->v[0];
    return impl->prepare != NULL ? impl->pair(f, dy, s) : impl->scalar(f, dy, s->v[0]);
}

void ga_backward_run(const struct ga_backward_impl *impl, const struct ga_format *f,
                     const ga_bits *dy, const ga_bits *x, ga_bits *dx, size_t n)
{
    const double *values = ga_decode_table(f);  /* a 16-bit format's, else NULL */
    struct ga_backward_state s;

    for (size_t i = 0; i < n; i++) {
        if (i == 0 || x[i] != x[i - 1])
            prepare(impl, f, values ? (float)values[x[i]] : (float)ga_decode(f, x[i]), &s);
        dx[i] = ga_encode_float(f, pair(impl, f, values ? (float)values[dy[i]]
                                                        : (float)ga_decode(f, dy[i]), &s));
    }
}
