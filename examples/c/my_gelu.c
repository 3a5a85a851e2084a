/* The kernel under test: a bfloat16 GELU as many C kernels compute it, in
 * float through the C library's erfcf, rounded once to bfloat16 (to
 * nearest, ties to even) at the end.  gelu(x) = (x/2) erfc(-x/sqrt 2). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "my_gelu.h"

static float from_bf16(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float v;
    memcpy(&v, &u, sizeof v);
    return v;
}

static uint16_t to_bf16(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    if (v != v)
        return (uint16_t)((u >> 16) | 0x40);  /* a quiet NaN, sign kept */
    return (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

void my_gelu_bf16(const uint16_t *in, uint16_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        float x = from_bf16(in[i]);
        /* -inf * erfc(+inf) = -inf * 0 is NaN: the limit from the left is -0 */
        if (x == -INFINITY)
            out[i] = 0x8000;
        else
            out[i] = to_bf16(0.5f * x * erfcf(-x * 0.70710678f));
    }
}
