/* Backward of quick GELU, x*sigmoid(1.702x), measured against exact
 * GELU's derivative (the forward/backward mismatch of a model trained with
 * one form and differentiated with another):
 *   d/dx = s + 1.702 x s (1 - s),  s = sigmoid(1.702 x) = 1/(1 + exp(-1.702x)).
 * quick         in float, as autograd of HF quick_gelu / CLIP on float opmath.
 * quick_native  every operation rounded to the 16-bit format, the sigmoid
 *               one op in float rounded once (as gelu_quick.c). */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/backward.h"
#include "impls/native.h"

#define QUICK_COEF 1.702

float ga_grad_quick_factor(const struct ga_format *f, float x)
{
    const float k = (float)QUICK_COEF;
    float s = 1.0f / (1.0f + expf(-(k * x)));
    (void)f;
    return s + k * x * s * (1.0f - s);
}

float ga_grad_quick(const struct ga_format *f, float dy, float x)
{
    return dy * ga_grad_quick_factor(f, x);
}

float ga_grad_quick_native_factor(const struct ga_format *f, float x)
{
    float k = ga_nat(f, QUICK_COEF);
    float v = ga_nat_mul(f, k, x);
    float s = ga_nat(f, 1.0f / (1.0f + expf(-v)));
    float r = ga_nat_mul(f, ga_nat_mul(f, v, s), ga_nat_sub(f, 1.0f, s));
    return ga_nat_add(f, s, r);
}

float ga_grad_quick_native(const struct ga_format *f, float dy, float x)
{
    return ga_nat_mul(f, dy, ga_grad_quick_native_factor(f, x));
}
