/* The backward truth of float32 pairs on the vector paths
 * (fast_vec.h): RN(dy d(x)) from the derivatives' values and radii, the
 * product's interval tested as the forward kernels test theirs; every pair
 * the test cannot decide, or outside what it covers, goes to the scalar
 * backward truth (truth/backward.h), and so to MPFR where that one cannot
 * decide.  doc/oracle.md, 'The backward truth on the vector paths'. */
#include "truth/fast_vec.h"

#include <string.h>

#include "truth/backward.h"
#include "truth/fast_vec_internal.h"

#define BLOCK 256

static double decoded(ga_bits x)
{
    uint32_t b = (uint32_t)x;
    float f;

    memcpy(&f, &b, sizeof f);
    return f;
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
        bool any = true;
        if (vector) {
            bool avx2 = p == GA_VEC_AVX2;
            (avx2 ? ga_vec_grad_values_avx2 : ga_vec_grad_values_portable)(gelu_tanh, x + first,
                                                                           v, r, m);
            any = (avx2 ? ga_vec_backward_decide_avx2 : ga_vec_backward_decide_portable)(
                gelu_tanh, x + first, dy + first, v, r, rounded + first, direction + first, m);
        } else {
            for (size_t i = 0; i < m; i++)
                direction[first + i] = GA_VEC_PENDING;
        }
        for (size_t i = 0; any && i < m; i++)
            if (direction[first + i] == GA_VEC_PENDING)
                undecided += scalar_pair(fn, x[first + i], dy[first + i], &rounded[first + i],
                                         &direction[first + i]);
    }
    return undecided;
}
