/* Backward kernels of exact GELU, d(x) = Phi(x) + x phi(x).
 *
 * pytorch         PyTorch GeluBackwardKernelImpl, approximate='none'
 *                 (aten/src/ATen/native/cpu/Activation.cpp): in float (for
 *                 bfloat16/float16 the inputs converted to float, the result
 *                 rounded once):
 *                 cdf = 0.5*(1 + erf(x*kAlpha)); pdf = kBeta*exp(x*x*-0.5);
 *                 dx = dy*(cdf + x*pdf), kAlpha = M_SQRT1_2,
 *                 kBeta = M_2_SQRTPI*M_SQRT1_2*0.5.  cdf + x*pdf cancels
 *                 next to the root x0 = -0.7518.
 * pytorch_native  the same formula with every operation rounded to the
 *                 16-bit format (native.h): the per-op bfloat16 path of an
 *                 eager graph, the bug of PaddlePaddle's XPU gelu_grad.
 * jax             the vector-Jacobian product JAX derives from its exact
 *                 gelu, x*erfc(-x/sqrt(2))/2 (jax.nn.gelu(approximate=False)):
 *                 t = x/2, e = erfc(-x*c), c = 1/sqrt(2); the cotangent dy
 *                 flows as dx = (dy*e)*0.5 + ((dy*t)*(-2/sqrt(pi)*exp(-z*z)))*(-c),
 *                 z = -x*c, each operation in the array's dtype (rounded to
 *                 the format), erfc and exp in float. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/backward.h"
#include "impls/native.h"

float ga_grad_pytorch_factor(const struct ga_format *f, float x)
{
    const float alpha = (float)M_SQRT1_2;
    const float beta = f->id == GA_FLOAT32 ? (float)(M_2_SQRTPI * M_SQRT1_2 * 0.5)
                                           : (float)M_2_SQRTPI * (float)M_SQRT1_2 * 0.5f;
    float cdf = 0.5f * (1.0f + erff(x * alpha));
    float pdf = beta * expf(x * x * -0.5f);
    return cdf + x * pdf;
}

float ga_grad_pytorch(const struct ga_format *f, float dy, float x)
{
    return dy * ga_grad_pytorch_factor(f, x);
}

float ga_grad_pytorch_native_factor(const struct ga_format *f, float x)
{
    float alpha = ga_nat(f, M_SQRT1_2), beta = ga_nat(f, M_2_SQRTPI * M_SQRT1_2 * 0.5);
    float cdf = ga_nat_mul(f, 0.5f, ga_nat_add(f, 1.0f, ga_nat(f, erff(ga_nat_mul(f, x, alpha)))));
    float e = ga_nat(f, expf(ga_nat_mul(f, ga_nat_mul(f, x, x), -0.5f)));
    float pdf = ga_nat_mul(f, beta, e);
    return ga_nat_add(f, cdf, ga_nat_mul(f, x, pdf));
}

float ga_grad_pytorch_native(const struct ga_format *f, float dy, float x)
{
    return ga_nat_mul(f, dy, ga_grad_pytorch_native_factor(f, x));
}

float ga_grad_jax(const struct ga_format *f, float dy, float x)
{
    float c = ga_nat(f, M_SQRT1_2), k = ga_nat(f, -M_2_SQRTPI);
    float t = ga_nat_mul(f, x, 0.5f);
    float z = ga_nat_mul(f, -x, c);
    float e = ga_nat(f, erfcf(z));
    float de = ga_nat_mul(f, k, ga_nat(f, expf(ga_nat_mul(f, -z, z))));  /* erfc'(z) */
    float from_t = ga_nat_mul(f, ga_nat_mul(f, dy, e), 0.5f);
    float from_e = ga_nat_mul(f, ga_nat_mul(f, ga_nat_mul(f, dy, t), de), -c);
    return ga_nat_add(f, from_t, from_e);
}

/* The x-only terms of ga_grad_jax: v = { e, t, de, c }. */
void ga_grad_jax_prepare(const struct ga_format *f, float x, struct ga_backward_state *s)
{
    float c = ga_nat(f, M_SQRT1_2), k = ga_nat(f, -M_2_SQRTPI);
    float z = ga_nat_mul(f, -x, c);
    float de = ga_nat_mul(f, k, ga_nat(f, expf(ga_nat_mul(f, -z, z))));  /* erfc'(z) */
    *s = (struct ga_backward_state){ { ga_nat(f, erfcf(z)), ga_nat_mul(f, x, 0.5f), de, c } };
}

float ga_grad_jax_pair(const struct ga_format *f, float dy, const struct ga_backward_state *s)
{
    float e = s->v[0], t = s->v[1], de = s->v[2], c = s->v[3];
    float from_t = ga_nat_mul(f, ga_nat_mul(f, dy, e), 0.5f);
    float from_e = ga_nat_mul(f, ga_nat_mul(f, ga_nat_mul(f, dy, t), de), -c);
    return ga_nat_add(f, from_t, from_e);
}
