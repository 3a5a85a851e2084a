/* The backward truth of float32 pairs on the vector paths
 * (fast_vec.h): RN(dy d(x)) from the derivatives' values and radii, the
 * product's interval tested as the forward kernels test theirs; every pair
 * the test cannot decide, or outside what it covers, goes to the scalar
 * backward truth (truth/backward.h), and so to MPFR where that one cannot
 * decide.  doc/oracle.md, 'The backward truth on the vector paths'. */
#include "truth/fast_vec.h"

#include <math.h>
#include <string.h>

#include "truth/backward.h"
#include "truth/fast_vec_internal.h"

#define BLOCK 256

/* Products of this size in double round to float32 as normal numbers or
 * subnormals, neither overflowing nor flushed: between them the test's
 * conversions are exact roundings. */
#define PRODUCT_MAX 0x1p127
#define PRODUCT_MIN 0x1p-140

static double decoded(ga_bits x)
{
    uint32_t b = (uint32_t)x;
    float f;

    memcpy(&f, &b, sizeof f);
    return f;
}

/* RN(dy v) within the product's radius: rounded and +-1, or 0 (undecided). */
static int decide_product(double dy, double v, double r, ga_bits *rounded)
{
    double p = dy * v;
    /* |dy| r: d's error carried; 2^-51 |p|: the product's rounding and
     * forming p -+ radius (doc/oracle.md) */
    double radius = fabs(dy) * r + 0x1p-51 * fabs(p);
    double lo = p - radius, hi = p + radius, flo_d;
    float flo = (float)lo, fhi = (float)hi;
    uint32_t blo, bhi;

    if (!(fabs(p) < PRODUCT_MAX && fabs(p) > PRODUCT_MIN))
        return 0;
    memcpy(&blo, &flo, sizeof blo);
    memcpy(&bhi, &fhi, sizeof bhi);
    flo_d = flo;
    if (blo != bhi)
        return 0;
    *rounded = blo;
    return lo > flo_d ? 1 : hi < flo_d ? -1 : 0;
}

/* The tanh form's derivative from x = 6.5 on: 1 < d < 1 + 2^-36
 * (fast_vec_internal.h), so dy d lies beyond dy by less than 2^-36 |dy|,
 * under half an ulp of any finite dy: it rounds to dy, away from zero.
 * Returns the direction, or 0 for a dy this does not cover (zeros,
 * infinities, NaN). */
static int beyond_dy(ga_bits dy, ga_bits *rounded)
{
    ga_bits magnitude = dy & 0x7fffffffu;

    if (magnitude == 0 || magnitude >= 0x7f800000u)
        return 0;
    *rounded = dy;
    return dy == magnitude ? 1 : -1;
}

/* The scalar backward truth of one pair; 1 when the oracle could not
 * decide (then a quiet NaN and direction 0). */
static size_t scalar_pair(enum ga_function fn, ga_bits x, ga_bits dy, ga_bits *rounded,
                          int8_t *direction)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    struct ga_grad_value g;
    struct ga_truth t;

    if (ga_grad_value(fn, decoded(x), &g) != GA_TRUTH_OK
        || ga_backward_truth(fn, f, &g, x, dy, &t) != GA_TRUTH_OK) {
        *rounded = ga_quiet_nan(f);
        *direction = 0;
        return 1;
    }
    *rounded = t.rounded;
    *direction = t.direction;
    return 0;
}

size_t ga_backward_f32_rounded(enum ga_function fn, enum ga_vec_path p, const ga_bits *x,
                               const ga_bits *dy, ga_bits *rounded, int8_t *direction, size_t n)
{
    int gelu_tanh = fn == GA_GELU_TANH_GRAD;
    double v[BLOCK], r[BLOCK];
    size_t undecided = 0;
    bool vector = p != GA_VEC_SCALAR && ga_vec_path_available(p)
                  && (fn == GA_GELU_GRAD || fn == GA_GELU_TANH_GRAD);

    for (size_t first = 0; first < n; first += BLOCK) {
        size_t m = n - first < BLOCK ? n - first : BLOCK;
        if (vector)
            (p == GA_VEC_AVX2 ? ga_vec_grad_values_avx2
                              : ga_vec_grad_values_portable)(gelu_tanh, x + first, v, r, m);
        for (size_t i = 0; i < m; i++) {
            size_t k = first + i;
            int d = !vector ? 0
                    : gelu_tanh && x[k] >= GA_VEC_TANH_GRAD_ONE && x[k] < GA_VEC_GRAD_RIGHT
                        ? beyond_dy(dy[k], &rounded[k])
                    : ga_vec_grad_evaluated(gelu_tanh, x[k])
                        ? decide_product(decoded(dy[k]), v[i], r[i], &rounded[k])
                        : 0;
            if (d != 0)
                direction[k] = (int8_t)d;
            else
                undecided += scalar_pair(fn, x[k], dy[k], &rounded[k], &direction[k]);
        }
    }
    return undecided;
}
