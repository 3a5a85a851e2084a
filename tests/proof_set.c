/* The proof sets (proof_set.h).  The dense float32 set, about 12.7 million
 * encodings, is three parts:
 *
 * - the binades where the models' outputs depend on their constants
 *   (|x| from 2^-12 to 2^7, both signs): every 4th encoding of [0.5, 2),
 *   where the high terms of oneDNN's exp polynomial reach the output most
 *   often, every 16th of the rest of [0.25, 8), where erf and tanh are
 *   neither 0 nor +-1 and every term of every polynomial counts, and every
 *   256th elsewhere;
 * - the first and last 64 encodings of every exponent and sign: zeros,
 *   subnormals, the smallest normals, FLT_MAX, infinities and NaNs;
 * - 512 consecutive encodings centred on each edge of oneDNN's exp
 *   (erf_dnnl): each of the 127 boundaries where n = floor(v*log2(e) + 0.5)
 *   steps, v = -x^2/2, i.e. x = +-sqrt((2k - 1) ln 2), and its clamp at
 *   v = ln FLT_MIN.
 *
 * The parts may share an encoding; it is then compared twice. */
#include "proof_set.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { F64_RANDOM = 1 << 20, F64_RANGE = 1 << 20, EDGE_HALF = 256, END_RUN = 64,
       LOW_E = 127 - 12, HIGH_E = 127 + 7, DENSEST_STRIDE = 4, DENSE_STRIDE = 16,
       SPARSE_STRIDE = 256 };

/* The stride in the binade of biased exponent e: densest in [0.5, 2),
 * dense in [0.25, 8). */
static uint32_t stride_of(uint32_t e)
{
    if (e == 126 || e == 127)
        return DENSEST_STRIDE;
    return e >= 125 && e < 130 ? DENSE_STRIDE : SPARSE_STRIDE;
}

static ga_bits f32_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* Appends every stride-th encoding of the binade of exponent e (biased). */
static size_t add_binade(ga_bits *out, size_t n, uint32_t sign, uint32_t e, uint32_t stride)
{
    for (uint32_t m = stride / 2; m < (1u << 23); m += stride)
        out[n++] = sign | e << 23 | m;
    return n;
}

/* Appends the 2*EDGE_HALF encodings around |x| = edge, both signs. */
static size_t add_edge(ga_bits *out, size_t n, double edge)
{
    uint32_t centre = (uint32_t)f32_bits((float)edge);
    for (uint32_t b = centre - EDGE_HALF; b < centre + EDGE_HALF; b++) {
        out[n++] = b;
        out[n++] = b | 0x80000000u;
    }
    return n;
}

static size_t dense_f32(ga_bits *out)
{
    size_t n = 0;
    for (uint32_t s = 0; s < 2; s++) {
        uint32_t sign = s << 31;
        for (uint32_t e = LOW_E; e < HIGH_E; e++)
            n = add_binade(out, n, sign, e, stride_of(e));
        for (uint32_t e = 0; e < 256; e++)
            for (uint32_t m = 0; m < END_RUN; m++) {
                out[n++] = sign | e << 23 | m;
                out[n++] = sign | e << 23 | ((1u << 23) - 1 - m);
            }
    }
    for (int k = 1; k <= 127; k++)
        n = add_edge(out, n, sqrt((2.0 * k - 1.0) * M_LN2));
    n = add_edge(out, n, sqrt(-2.0 * (double)-0x1.5d58ap+6f));
    return n;
}

/* Bounds dense_f32's size: the binades, the ends, the edges. */
static size_t dense_f32_bound(void)
{
    size_t n = 2 * 256 * 2 * END_RUN + 128 * 4 * EDGE_HALF;
    for (uint32_t e = LOW_E; e < HIGH_E; e++)
        n += 2 * ((1u << 23) / stride_of(e));
    return n;
}

/* float64's position k: splitmix64 encodings, then [-40, 10], then specials. */
static bool f64_input(uint64_t k, ga_bits *b)
{
    static const double specials[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 0x1p-1074,
                                       -0x1p-1074, -8.0, -5.5, 0x1.fffffffffffffp1023,
                                       -0x1.fffffffffffffp1023 };
    double v;

    if (k < F64_RANDOM) {
        uint64_t z = (k + 1) * 0x9e3779b97f4a7c15u;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
        *b = z ^ (z >> 31);
        return true;
    }
    k -= F64_RANDOM;
    if (k < F64_RANGE)
        v = -40.0 + 50.0 * (double)k / F64_RANGE;
    else if (k - F64_RANGE < sizeof specials / sizeof specials[0])
        v = specials[k - F64_RANGE];
    else
        return false;
    memcpy(b, &v, sizeof v);
    return true;
}

size_t proof_set(const struct ga_format *f, ga_bits **out)
{
    size_t n = 0, cap = f->bits == 16 ? 65536 : f->bits == 64 ? F64_RANDOM + F64_RANGE + 16
                                                              : dense_f32_bound();
    ga_bits *in = malloc(cap * sizeof *in);

    *out = in;
    if (in == NULL)
        return 0;
    if (f->bits == 16)
        for (n = 0; n < 65536; n++)
            in[n] = (ga_bits)n;
    else if (f->bits == 64)
        while (f64_input(n, &in[n]))
            n++;
    else
        n = dense_f32(in);
    return n;
}
