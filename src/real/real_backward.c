/* The real backward kernels: dx = dy * gelu'(x) as libraries compute it
 * (at::gelu_backward, oneDNN's eltwise backward), in the modules that hold
 * the forward ones (real.h).  "(= X)": tests/real_backward_test checks bit
 * for bit that X computes the same pairs on this kind of CPU. */
#include "real/real.h"

#include <string.h>

#define TORCH "PyTorch (libtorch)"
#define NO_F64 "the backward sweep covers float32, float16 and bfloat16"

static const struct ga_real_desc table[] = {
    { "torch_erf_backward", "torch", "torch_erf_backward", GA_GELU_GRAD, TORCH,
      "at::gelu_backward(dy, x, \"none\") on contiguous tensors (the default path)",
      "float32 and bfloat16: handed to oneDNN's eltwise backward gelu_erf while mkldnn is "
      "enabled (= dnnl_erf_backward)",
      "as oneDNN", NO_F64 },
    { "torch_tanh_backward", "torch", "torch_tanh_backward", GA_GELU_TANH_GRAD, TORCH,
      "at::gelu_backward(dy, x, \"tanh\") on contiguous tensors (the default path)",
      "ATen's vector kernel, as torch_nomkldnn_tanh_backward (= torch_nomkldnn_tanh_backward)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NO_F64 },
    { "torch_nomkldnn_erf_backward", "torch", "torch_nomkldnn_erf_backward", GA_GELU_GRAD, TORCH,
      "at::gelu_backward(dy, x, \"none\"), contiguous, after setUserEnabledMkldnn(false)",
      "ATen GeluBackwardKernelImpl vector loop: dy*(0.5*(1 + erf(x*M_SQRT1_2)) + "
      "x*kBeta*exp(-0.5*x*x)) with ATen's vectorized erf and exp in float32 (not the C "
      "library's: 0.23 % of the float32 pairs of real_backward_test differ from the scalar "
      "loop); bfloat16 every operation rounded to bfloat16 (= model "
      "pytorch_gelu_backward_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NO_F64 },
    { "torch_nomkldnn_tanh_backward", "torch", "torch_nomkldnn_tanh_backward",
      GA_GELU_TANH_GRAD, TORCH,
      "at::gelu_backward(dy, x, \"tanh\"), contiguous, after setUserEnabledMkldnn(false)",
      "ATen GeluBackwardKernelImpl vector loop: dy*(0.5*(1 + t) + 0.5*x*(1 - t*t)*kBeta*(1 + "
      "3*kKappa*x*x)); bfloat16 every operation rounded to bfloat16 "
      "(= model pytorch_gelu_backward_tanh_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NO_F64 },
    { "torch_strided_erf_backward", "torch", "torch_strided_erf_backward", GA_GELU_GRAD, TORCH,
      "at::gelu_backward(dy, x, \"none\") on non-contiguous views (every other element)",
      "ATen GeluBackwardKernelImpl scalar loop, the vector loop's formula with the C "
      "library's erff and expf (= model pytorch_gelu_backward); bfloat16 every operation "
      "rounded (= model pytorch_gelu_backward_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NO_F64 },
    { "torch_strided_tanh_backward", "torch", "torch_strided_tanh_backward", GA_GELU_TANH_GRAD,
      TORCH, "at::gelu_backward(dy, x, \"tanh\") on non-contiguous views (every other element)",
      "ATen GeluBackwardKernelImpl scalar loop, the vector loop's formula with the C "
      "library's tanhf; bfloat16 every operation rounded "
      "(= model pytorch_gelu_backward_tanh_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NO_F64 },
    { "dnnl_erf_backward", "dnnl", "dnnl_erf_backward", GA_GELU_GRAD, "oneDNN",
      "eltwise primitive, dnnl_eltwise_gelu_erf, backward from the source x",
      "jit_uni_eltwise_injector.cpp (2.6.3) gelu_erf backward: 0.5*(1 + erf(x/sqrt 2)) + "
      "x*exp(-x*x/2)/sqrt(2 pi) with oneDNN's own erf and exp, times dy",
      "float32 (16-bit types where the CPU supports them)", NO_F64 },
    { "dnnl_tanh_backward", "dnnl", "dnnl_tanh_backward", GA_GELU_TANH_GRAD, "oneDNN",
      "eltwise primitive, dnnl_eltwise_gelu_tanh, backward from the source x",
      "jit_uni_eltwise_injector.cpp (2.6.3) gelu_tanh backward with oneDNN's own tanh, "
      "times dy",
      "float32 (16-bit types where the CPU supports them)", NO_F64 },
};

#define TABLE_COUNT (sizeof table / sizeof table[0])

size_t ga_real_backward_count(void)
{
    return TABLE_COUNT;
}

const struct ga_real_desc *ga_real_backward_at(size_t i)
{
    return i < TABLE_COUNT ? &table[i] : NULL;
}

const struct ga_real_desc *ga_real_backward_find(const char *name)
{
    for (size_t i = 0; i < TABLE_COUNT; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}
