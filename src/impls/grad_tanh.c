/* Backward kernels of the tanh form, d = 0.5(1 + t) + 0.5x(1 - t^2) beta
 * (1 + 3 kappa x^2), t = tanh(beta (x + kappa x^3)), beta = sqrt(2/pi),
 * kappa = 0.044715.  1 - t^2 cancels for |u| large; the sum cancels next
 * to the root.
 *
 * pytorch_tanh         PyTorch GeluBackwardKernelImpl, approximate='tanh'
 *                      (aten/src/ATen/native/cpu/Activation.cpp), in float:
 *                      inner = kBeta*(x + kKappa*x^3); left = 0.5*x;
 *                      dx = dy*(0.5*(1 + t) + left*(1 - t*t)*kBeta*(1 + 3*kKappa*x*x)),
 *                      kBeta = (float)(M_SQRT2*M_2_SQRTPI*0.5).
 * pytorch_tanh_native  that formula with every operation rounded to the
 *                      16-bit format: FlagGems' gelu_backward_tanh bug.
 * megatron             Megatron-LM bias_gelu_back (megatron/core/fusions/
 *                      fused_bias_gelu.py) with its rounded constants:
 *                      t = tanh(0.79788456*x*(1 + 0.044715*x*x));
 *                      ff = 0.5*x*((1 - t*t)*(0.79788456 + 0.1070322243*x*x))
 *                           + 0.5*(1 + t); dx = ff*g, in float (a fused kernel).
 * megatron_native      the same in the tensor dtype, op by op (the TorchScript
 *                      function run eagerly on bfloat16 tensors).
 * llmc                 llm.c gelu_backward (train_gpt2.c): the same derivative
 *                      through cosh: s = sqrtf(2/M_PI); cube = 0.044715f*x^3;
 *                      t = tanhf(s*(x + cube)); c = coshf(s*(x + cube));
 *                      sech = 1/(c*c); local = 0.5f*(1 + t)
 *                      + x*0.5f*sech*s*(1 + 3*0.044715f*x*x); dx = local*dy
 *                      in float; coshf overflows for |u| > 89.4 and sech
 *                      becomes 0, which is harmless here. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/backward.h"
#include "impls/native.h"

#define KAPPA 0.044715
#define BETA (M_SQRT2 * M_2_SQRTPI * 0.5)  /* sqrt(2/pi) */

float ga_grad_pytorch_tanh_factor(const struct ga_format *f, float x)
{
    const float beta = (float)BETA, kappa = (float)KAPPA;
    float x_sq = x * x, x_cube = x_sq * x;
    float t = tanhf(beta * (x + kappa * x_cube));
    float left = 0.5f * x, right = 1.0f + t;
    float left_derivative = 0.5f * right;
    float tanh_derivative = 1.0f - t * t;
    float inner_derivative = beta * (1.0f + 3.0f * kappa * x_sq);
    (void)f;
    return left_derivative + left * tanh_derivative * inner_derivative;
}

float ga_grad_pytorch_tanh(const struct ga_format *f, float dy, float x)
{
    return dy * ga_grad_pytorch_tanh_factor(f, x);
}

float ga_grad_pytorch_tanh_native_factor(const struct ga_format *f, float x)
{
    float beta = ga_nat(f, BETA), kappa = ga_nat(f, KAPPA);
    float x_sq = ga_nat_mul(f, x, x), x_cube = ga_nat_mul(f, x_sq, x);
    float inner = ga_nat_mul(f, beta, ga_nat_add(f, x, ga_nat_mul(f, kappa, x_cube)));
    float t = ga_nat(f, tanhf(inner));
    float left = ga_nat_mul(f, 0.5f, x);
    float left_derivative = ga_nat_mul(f, 0.5f, ga_nat_add(f, 1.0f, t));
    float tanh_derivative = ga_nat_sub(f, 1.0f, ga_nat_mul(f, t, t));
    float inner_derivative = ga_nat_mul(f, beta, ga_nat_add(f, 1.0f,
                                        ga_nat_mul(f, ga_nat_mul(f, 3.0f, kappa), x_sq)));
    float right_derivative = ga_nat_mul(f, ga_nat_mul(f, left, tanh_derivative), inner_derivative);
    return ga_nat_add(f, left_derivative, right_derivative);
}

float ga_grad_pytorch_tanh_native(const struct ga_format *f, float dy, float x)
{
    return ga_nat_mul(f, dy, ga_grad_pytorch_tanh_native_factor(f, x));
}

float ga_grad_megatron_factor(const struct ga_format *f, float x)
{
    float t = tanhf(0.79788456f * x * (1.0f + 0.044715f * x * x));
    float ff = 0.5f * x * ((1.0f - t * t) * (0.79788456f + 0.1070322243f * x * x))
             + 0.5f * (1.0f + t);
    (void)f;
    return ff;
}

float ga_grad_megatron(const struct ga_format *f, float dy, float x)
{
    return ga_grad_megatron_factor(f, x) * dy;
}

float ga_grad_megatron_native_factor(const struct ga_format *f, float x)
{
    float a = ga_nat(f, 0.79788456), b = ga_nat(f, 0.1070322243), k = ga_nat(f, 0.044715);
    float xx = ga_nat_mul(f, x, x);
    float u = ga_nat_mul(f, ga_nat_mul(f, a, x), ga_nat_add(f, 1.0f, ga_nat_mul(f, k, xx)));
    float t = ga_nat(f, tanhf(u));
    float sech2 = ga_nat_sub(f, 1.0f, ga_nat_mul(f, t, t));
    float poly = ga_nat_add(f, a, ga_nat_mul(f, b, xx));
    float ff = ga_nat_add(f, ga_nat_mul(f, ga_nat_mul(f, 0.5f, x), ga_nat_mul(f, sech2, poly)),
                          ga_nat_mul(f, 0.5f, ga_nat_add(f, 1.0f, t)));
    return ff;
}

float ga_grad_megatron_native(const struct ga_format *f, float dy, float x)
{
    return ga_nat_mul(f, ga_grad_megatron_native_factor(f, x), dy);
}

float ga_grad_llmc_factor(const struct ga_format *f, float x)
{
    const float s = sqrtf((float)(2.0f / M_PI));  /* GELU_SCALING_FACTOR: a double quotient */
    float cube = 0.044715f * x * x * x;
    float arg = s * (x + cube);
    float t = tanhf(arg), c = coshf(arg);
    float sech = 1.0f / (c * c);
    float local = 0.5f * (1.0f + t) + x * 0.5f * sech * s * (1.0f + 3.0f * 0.044715f * x * x);
    (void)f;
    return local;
}

float ga_grad_llmc(const struct ga_format *f, float dy, float x)
{
    return ga_grad_llmc_factor(f, x) * dy;
}
