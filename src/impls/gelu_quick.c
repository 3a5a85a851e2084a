/* Quick GELU: x*sigmoid(1.702x), a different approximation of exact GELU
 * than the tanh form (max |quick - gelu| ~ 2.03e-2 at |x| ~ 2.27).
 *
 * quick         x*(1/(1 + exp(-(1.702*x))))   in float: CLIP / HF quick_gelu
 *               and TransformerEngine qgelu (sigmoid as 1/(1 + exp(-v)), as
 *               torch.sigmoid computes it), ggml gelu_quick without its table
 * quick_native  the same with every operation and constant rounded to a
 *               16-bit format (native.h): MLX gelu_fast_approx, HF QuickGELU
 *               eager in bfloat16/float16.  The sigmoid is one library op,
 *               computed in float and rounded once. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"
#include "impls/native.h"

#define QUICK_COEF 1.702  /* Hendrycks and Gimpel 2016, section 2 */

static float sigmoid(float v)
{
    return 1.0f / (1.0f + expf(-v));
}

/* NaN -> NaN; +inf -> sigmoid(inf) = 1/(1 + 0) = 1, +inf;
 * -inf -> exp(inf) = inf, 1/inf = +0, -inf*0 = NaN;
 * -0 -> 1.702*-0 = -0, sigmoid = 1/2, -0.  For x < ~ -52.1 exp overflows and
 * the result is -0; before that the small sigmoid keeps its relative
 * accuracy (no cancellation). */
float ga_gelu_quick_f32(float x)
{
    const float coef = (float)QUICK_COEF;
    return x * sigmoid(coef * x);
}

/* Rounded constant: 1.702 (bfloat16 1.703125, float16 1.7021484).  Special
 * values as the float32 form. */
float ga_gelu_quick_native(const struct ga_format *f, float x)
{
    float v = ga_nat_mul(f, ga_nat(f, QUICK_COEF), x);
    return ga_nat_mul(f, x, ga_nat(f, sigmoid(v)));
}
