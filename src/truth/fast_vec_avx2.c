/* The AVX2 vector path: the evaluation of fast_vec_internal.h four doubles
 * at a time with fused multiply-adds, compiled for AVX2 and FMA in this file
 * only (target attributes), and called only where the CPU has both
 * (fast_vec.c).  Same arithmetic as fast_vec_portable.c; the error bound
 * covers fused and unfused steps alike (doc/oracle.md, 'The vector paths'). */
#include "truth/fast_vec_internal.h"

#include <string.h>

#include "truth/fast_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2,fma")))

static inline AVX2 __m256d exp_neg(__m256d y)
{
    const __m256d magic = _mm256_set1_pd(GA_VEC_ROUND_MAGIC);
    __m256d kd = _mm256_fmadd_pd(y, _mm256_set1_pd(GA_VEC_LOG2E), magic);
    __m256d k = _mm256_sub_pd(kd, magic);
    __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(GA_VEC_LN2_L1), y);  /* exact */
    __m256d p = _mm256_set1_pd(ga_vec_exp[0]);
    __m256i bits;

    r = _mm256_fnmadd_pd(k, _mm256_set1_pd(GA_VEC_LN2_L2), r);
    for (int i = 1; i <= GA_VEC_EXP_DEGREE; i++)
        p = _mm256_fmadd_pd(p, r, _mm256_set1_pd(ga_vec_exp[i]));
    bits = _mm256_add_epi64(_mm256_castpd_si256(kd), _mm256_set1_epi64x(1023));
    return _mm256_mul_pd(p, _mm256_castsi256_pd(_mm256_slli_epi64(bits, 52)));
}

/* M(a) = G(s)/(a + 6) (fast_vec_portable.c's mills). */
static inline AVX2 __m256d mills(__m256d a)
{
    const __m256d six = _mm256_set1_pd(6.0);
    __m256d inv = _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_add_pd(a, six));
    __m256d s = _mm256_mul_pd(_mm256_fmsub_pd(_mm256_set1_pd(1.75), a, six), inv);
    __m256d g = _mm256_set1_pd(ga_vec_g[0]);

    for (int i = 1; i <= GA_VEC_G_DEGREE; i++)
        g = _mm256_fmadd_pd(g, s, _mm256_set1_pd(ga_vec_g[i]));
    return _mm256_mul_pd(g, inv);
}

/* e^(-a^2/2). */
static inline AVX2 __m256d gauss(__m256d a)
{
    return exp_neg(_mm256_mul_pd(_mm256_set1_pd(-0.5), _mm256_mul_pd(a, a)));
}

static inline AVX2 __m256d gelu_value(__m256d x)
{
    __m256d a = _mm256_andnot_pd(_mm256_set1_pd(-0.0), x);
    __m256d q = _mm256_mul_pd(gauss(a), mills(a));

    /* x < 0: Q; x > 0: 1 - Q */
    q = _mm256_blendv_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), q), q, x);
    return _mm256_mul_pd(x, q);
}

/* gelu'(x) and the radius of its error (fast_vec_internal.h). */
static inline AVX2 __m256d gelu_grad_value(__m256d x, __m256d *radius)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    __m256d a = _mm256_andnot_pd(sign, x), e = gauss(a);
    __m256d q = _mm256_mul_pd(e, mills(a));
    __m256d p = _mm256_mul_pd(e, _mm256_mul_pd(a, _mm256_set1_pd(GA_VEC_INV_SQRT_2PI)));
    __m256d d = _mm256_sub_pd(q, p);
    __m256d v = _mm256_blendv_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), d), d, x);

    *radius = _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_GRAD_TERM_ERR), _mm256_add_pd(q, p),
                              _mm256_mul_pd(_mm256_set1_pd(GA_VEC_GRAD_VALUE_ERR),
                                            _mm256_andnot_pd(sign, v)));
    return v;
}

static inline AVX2 __m256d gelu_tanh_value(__m256d x)
{
    __m256d k = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_KAPPA), _mm256_mul_pd(x, x));
    __m256d w = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_BETA), _mm256_fmadd_pd(k, x, x));
    __m256d e = exp_neg(_mm256_mul_pd(_mm256_set1_pd(-2.0), w));

    return _mm256_div_pd(x, _mm256_add_pd(_mm256_set1_pd(1.0), e));
}

/* gelu_tanh'(x) and the radius of its error (fast_vec_internal.h). */
static inline AVX2 __m256d gelu_tanh_grad_value(__m256d x, __m256d *radius)
{
    const __m256d one = _mm256_set1_pd(1.0), sign = _mm256_set1_pd(-0.0);
    __m256d x2 = _mm256_mul_pd(x, x);
    __m256d k = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_KAPPA), x2);
    __m256d w = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_BETA), _mm256_fmadd_pd(k, x, x));
    __m256d e = exp_neg(_mm256_mul_pd(_mm256_set1_pd(-2.0), w));
    __m256d sum = _mm256_add_pd(one, e);
    __m256d t1 = _mm256_div_pd(one, sum), ed = _mm256_div_pd(e, sum);
    __m256d p = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(GA_VEC_BETA), x),
                              _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_3KAPPA), x2, one));
    __m256d t2 = _mm256_mul_pd(_mm256_mul_pd(_mm256_add_pd(p, p), ed), t1);
    __m256d v = _mm256_add_pd(t1, t2);

    *radius = _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_TANH_GRAD_TERM_ERR),
                              _mm256_fmadd_pd(ed, t1, _mm256_andnot_pd(sign, t2)),
                              _mm256_mul_pd(_mm256_set1_pd(GA_VEC_GRAD_VALUE_ERR),
                                            _mm256_add_pd(t1, _mm256_andnot_pd(sign, v))));
    return v;
}

/* The same evaluations on CHAINS vectors at once, for the kernels' main
 * loops: each lane's operations are those above, in the same order (so the
 * same bits and the same error bound), but CHAINS independent Horner chains
 * are in flight, where one chain waits on each fused multiply-add's latency.
 * The loops have constant bounds: the compiler unrolls them into straight
 * code that interleaves the chains. */
#define CHAINS 4

/* p[j] = the polynomial c (highest degree first) at t[j], by Horner's rule,
 * step by step across the chains. */
static inline __attribute__((always_inline)) AVX2 void
horner_chains(const double *c, int degree, const __m256d *t, __m256d *p)
{
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++)
        p[j] = _mm256_set1_pd(c[0]);
#pragma GCC unroll 18
    for (int i = 1; i <= degree; i++)
#pragma GCC unroll 4
        for (int j = 0; j < CHAINS; j++)
            p[j] = _mm256_fmadd_pd(p[j], t[j], _mm256_set1_pd(c[i]));
}

static inline AVX2 void exp_neg_chains(const __m256d *y, __m256d *out)
{
    const __m256d magic = _mm256_set1_pd(GA_VEC_ROUND_MAGIC);
    __m256d kd[CHAINS], r[CHAINS], p[CHAINS];

#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256d k;
        kd[j] = _mm256_fmadd_pd(y[j], _mm256_set1_pd(GA_VEC_LOG2E), magic);
        k = _mm256_sub_pd(kd[j], magic);
        r[j] = _mm256_fnmadd_pd(k, _mm256_set1_pd(GA_VEC_LN2_L1), y[j]);  /* exact */
        r[j] = _mm256_fnmadd_pd(k, _mm256_set1_pd(GA_VEC_LN2_L2), r[j]);
    }
    horner_chains(ga_vec_exp, GA_VEC_EXP_DEGREE, r, p);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256i bits = _mm256_add_epi64(_mm256_castpd_si256(kd[j]), _mm256_set1_epi64x(1023));
        out[j] = _mm256_mul_pd(p[j], _mm256_castsi256_pd(_mm256_slli_epi64(bits, 52)));
    }
}

/* What gelu and gelu' share on CHAINS vectors: a = |x|, e = e^(-a^2/2) and
 * M(a) = G(s)/(a + 6), each lane as gauss and mills compute them. */
static inline AVX2 void gauss_mills_chains(const __m256d *x, __m256d *a, __m256d *e, __m256d *m)
{
    const __m256d six = _mm256_set1_pd(6.0), sign = _mm256_set1_pd(-0.0);
    __m256d h[CHAINS], inv[CHAINS], s[CHAINS], g[CHAINS];

#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        a[j] = _mm256_andnot_pd(sign, x[j]);
        h[j] = _mm256_mul_pd(_mm256_set1_pd(-0.5), _mm256_mul_pd(a[j], a[j]));
        inv[j] = _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_add_pd(a[j], six));
        s[j] = _mm256_mul_pd(_mm256_fmsub_pd(_mm256_set1_pd(1.75), a[j], six), inv[j]);
    }
    exp_neg_chains(h, e);
    horner_chains(ga_vec_g, GA_VEC_G_DEGREE, s, g);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++)
        m[j] = _mm256_mul_pd(g[j], inv[j]);
}

/* What the tanh form and its derivative share: x^2 and e = e^(-2w). */
static inline AVX2 void tanh_exp_chains(const __m256d *x, __m256d *x2, __m256d *e)
{
    __m256d y[CHAINS];

#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256d k, w;
        x2[j] = _mm256_mul_pd(x[j], x[j]);
        k = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_KAPPA), x2[j]);
        w = _mm256_mul_pd(_mm256_set1_pd(GA_VEC_BETA), _mm256_fmadd_pd(k, x[j], x[j]));
        y[j] = _mm256_mul_pd(_mm256_set1_pd(-2.0), w);
    }
    exp_neg_chains(y, e);
}

static inline AVX2 void gelu_value_chains(const __m256d *x, __m256d *v)
{
    __m256d a[CHAINS], e[CHAINS], m[CHAINS];

    gauss_mills_chains(x, a, e, m);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256d q = _mm256_mul_pd(e[j], m[j]);
        q = _mm256_blendv_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), q), q, x[j]);
        v[j] = _mm256_mul_pd(x[j], q);
    }
}

static inline AVX2 void gelu_tanh_value_chains(const __m256d *x, __m256d *v)
{
    __m256d x2[CHAINS], e[CHAINS];

    tanh_exp_chains(x, x2, e);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++)
        v[j] = _mm256_div_pd(x[j], _mm256_add_pd(_mm256_set1_pd(1.0), e[j]));
}

/* gelu_grad_value on CHAINS vectors (the same operations per lane). */
static inline AVX2 void gelu_grad_value_chains(const __m256d *x, __m256d *v, __m256d *radius)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    __m256d a[CHAINS], e[CHAINS], m[CHAINS];

    gauss_mills_chains(x, a, e, m);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256d q = _mm256_mul_pd(e[j], m[j]);
        __m256d p = _mm256_mul_pd(e[j], _mm256_mul_pd(a[j], _mm256_set1_pd(GA_VEC_INV_SQRT_2PI)));
        __m256d d = _mm256_sub_pd(q, p);
        v[j] = _mm256_blendv_pd(_mm256_sub_pd(_mm256_set1_pd(1.0), d), d, x[j]);
        radius[j] = _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_GRAD_TERM_ERR), _mm256_add_pd(q, p),
                                    _mm256_mul_pd(_mm256_set1_pd(GA_VEC_GRAD_VALUE_ERR),
                                                  _mm256_andnot_pd(sign, v[j])));
    }
}

/* gelu_tanh_grad_value on CHAINS vectors. */
static inline AVX2 void gelu_tanh_grad_value_chains(const __m256d *x, __m256d *v,
                                                    __m256d *radius)
{
    const __m256d one = _mm256_set1_pd(1.0), sign = _mm256_set1_pd(-0.0);
    __m256d x2[CHAINS], e[CHAINS];

    tanh_exp_chains(x, x2, e);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m256d sum = _mm256_add_pd(one, e[j]);
        __m256d t1 = _mm256_div_pd(one, sum), ed = _mm256_div_pd(e[j], sum);
        __m256d p = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(GA_VEC_BETA), x[j]),
                                  _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_3KAPPA), x2[j], one));
        __m256d t2 = _mm256_mul_pd(_mm256_mul_pd(_mm256_add_pd(p, p), ed), t1);
        v[j] = _mm256_add_pd(t1, t2);
        radius[j] = _mm256_fmadd_pd(_mm256_set1_pd(GA_VEC_TANH_GRAD_TERM_ERR),
                                    _mm256_fmadd_pd(ed, t1, _mm256_andnot_pd(sign, t2)),
                                    _mm256_mul_pd(_mm256_set1_pd(GA_VEC_GRAD_VALUE_ERR),
                                                  _mm256_add_pd(t1, _mm256_andnot_pd(sign, v[j]))));
    }
}

/* The rounding test of the portable path on [v - r, v + r], four at a
 * time; the four directions as 32-bit lanes. */
static inline AVX2 __m128i decide_within(__m256d v, __m256d r, __m128i *rounded)
{
    __m256d lo = _mm256_sub_pd(v, r), hi = _mm256_add_pd(v, r);
    __m128 flo = _mm256_cvtpd_ps(lo), fhi = _mm256_cvtpd_ps(hi);
    __m256d fv = _mm256_cvtps_pd(flo);
    __m256d up = _mm256_cmp_pd(lo, fv, _CMP_GT_OQ), down = _mm256_cmp_pd(hi, fv, _CMP_LT_OQ);
    __m128i up32 = _mm256_cvtpd_epi32(_mm256_and_pd(up, _mm256_set1_pd(1.0)));
    __m128i down32 = _mm256_cvtpd_epi32(_mm256_and_pd(down, _mm256_set1_pd(1.0)));
    __m128i dir = _mm_sub_epi32(up32, down32);  /* +1, -1, or 0: undecided */

    __m128i same = _mm_cmpeq_epi32(_mm_castps_si128(flo), _mm_castps_si128(fhi));

    dir = _mm_and_si128(dir, same);
    *rounded = _mm_castps_si128(flo);
    /* 0 becomes GA_VEC_PENDING */
    return _mm_blendv_epi8(dir, _mm_set1_epi32(GA_VEC_PENDING),
                           _mm_cmpeq_epi32(dir, _mm_setzero_si128()));
}

/* The same with r = eps |v|. */
static inline AVX2 __m128i decide(__m256d v, double eps, __m128i *rounded)
{
    __m256d r = _mm256_mul_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), v), _mm256_set1_pd(eps));

    return decide_within(v, r, rounded);
}

/* Four float32 encodings (the low halves of x[0..3]) as doubles. */
static inline AVX2 __m256d load4(const ga_bits *x)
{
    __m256i w = _mm256_loadu_si256((const __m256i *)x);
    __m128i b = _mm256_castsi256_si128(
        _mm256_permutevar8x32_epi32(w, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6)));

    return _mm256_cvtps_pd(_mm_castsi128_ps(b));
}

static inline AVX2 void store4(__m128i r32, __m128i dir, ga_bits *rounded, int8_t *direction)
{
    _mm256_storeu_si256((__m256i *)rounded, _mm256_cvtepu32_epi64(r32));
    direction[0] = (int8_t)_mm_extract_epi32(dir, 0);
    direction[1] = (int8_t)_mm_extract_epi32(dir, 1);
    direction[2] = (int8_t)_mm_extract_epi32(dir, 2);
    direction[3] = (int8_t)_mm_extract_epi32(dir, 3);
}

/* CHAINS vectors of x + i, evaluated by value_chains, decided with
 * radius eps |v| and stored. */
static inline AVX2 void decide_chains(void (*value_chains)(const __m256d *, __m256d *),
                                      double eps, const ga_bits *x, ga_bits *rounded,
                                      int8_t *direction)
{
    __m256d in[CHAINS], v[CHAINS];

#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++)
        in[j] = load4(x + 4 * j);
    value_chains(in, v);
#pragma GCC unroll 4
    for (int j = 0; j < CHAINS; j++) {
        __m128i r32, dir = decide(v[j], eps, &r32);
        store4(r32, dir, rounded + 4 * j, direction + 4 * j);
    }
}

AVX2 void ga_vec_gelu_tanh_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    size_t i = 0;

    for (; i + 4 * CHAINS <= n; i += 4 * CHAINS)
        decide_chains(gelu_tanh_value_chains, GA_VEC_TANH_REL_ERR, x + i, rounded + i,
                      direction + i);
    for (; i + 4 <= n; i += 4) {
        __m128i r32, dir = decide(gelu_tanh_value(load4(x + i)), GA_VEC_TANH_REL_ERR, &r32);
        store4(r32, dir, rounded + i, direction + i);
    }
    if (i < n)
        ga_vec_gelu_tanh_portable(x + i, rounded + i, direction + i, n - i);
}

AVX2 void ga_vec_gelu_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    size_t i = 0;

    for (; i + 4 * CHAINS <= n; i += 4 * CHAINS)
        decide_chains(gelu_value_chains, GA_VEC_GELU_REL_ERR, x + i, rounded + i, direction + i);
    for (; i + 4 <= n; i += 4) {
        __m128i r32, dir = decide(gelu_value(load4(x + i)), GA_VEC_GELU_REL_ERR, &r32);
        store4(r32, dir, rounded + i, direction + i);
    }
    if (i < n)
        ga_vec_gelu_portable(x + i, rounded + i, direction + i, n - i);
}

/* The derivatives' kernels: value_chains gives v and its radius for
 * CHAINS vectors, value for one; the tail through portable (the same
 * arithmetic, one at a time). */
static inline AVX2 void decide_each(void (*value_chains)(const __m256d *, __m256d *, __m256d *),
                                    __m256d (*value)(__m256d, __m256d *),
                                    void (*portable)(const ga_bits *, ga_bits *, int8_t *, size_t),
                                    const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                    size_t n)
{
    size_t i = 0;

    for (; i + 4 * CHAINS <= n; i += 4 * CHAINS) {
        __m256d in[CHAINS], v[CHAINS], r[CHAINS];
#pragma GCC unroll 4
        for (int j = 0; j < CHAINS; j++)
            in[j] = load4(x + i + 4 * j);
        value_chains(in, v, r);
#pragma GCC unroll 4
        for (int j = 0; j < CHAINS; j++) {
            __m128i r32, dir = decide_within(v[j], r[j], &r32);
            store4(r32, dir, rounded + i + 4 * j, direction + i + 4 * j);
        }
    }
    for (; i + 4 <= n; i += 4) {
        __m256d r;
        __m256d v = value(load4(x + i), &r);
        __m128i r32, dir = decide_within(v, r, &r32);
        store4(r32, dir, rounded + i, direction + i);
    }
    if (i < n)
        portable(x + i, rounded + i, direction + i, n - i);
}

AVX2 void ga_vec_gelu_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    decide_each(gelu_grad_value_chains, gelu_grad_value, ga_vec_gelu_grad_portable, x, rounded, direction, n);
}

AVX2 void ga_vec_gelu_tanh_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                     size_t n)
{
    decide_each(gelu_tanh_grad_value_chains, gelu_tanh_grad_value,
                ga_vec_gelu_tanh_grad_portable, x, rounded, direction, n);
}

AVX2 void ga_vec_grad_values_avx2(int gelu_tanh, const ga_bits *x, double *v, double *r,
                                  size_t n)
{
    size_t i = 0;

    for (; i + 4 * CHAINS <= n; i += 4 * CHAINS) {
        __m256d in[CHAINS], value[CHAINS], radius[CHAINS];
#pragma GCC unroll 4
        for (int j = 0; j < CHAINS; j++)
            in[j] = load4(x + i + 4 * j);
        if (gelu_tanh)
            gelu_tanh_grad_value_chains(in, value, radius);
        else
            gelu_grad_value_chains(in, value, radius);
#pragma GCC unroll 4
        for (int j = 0; j < CHAINS; j++) {
            _mm256_storeu_pd(v + i + 4 * j, value[j]);
            _mm256_storeu_pd(r + i + 4 * j, radius[j]);
        }
    }
    for (; i + 4 <= n; i += 4) {
        __m256d radius, value = gelu_tanh ? gelu_tanh_grad_value(load4(x + i), &radius)
                                          : gelu_grad_value(load4(x + i), &radius);
        _mm256_storeu_pd(v + i, value);
        _mm256_storeu_pd(r + i, radius);
    }
    if (i < n)
        ga_vec_grad_values_portable(gelu_tanh, x + i, v + i, r + i, n - i);
}

/* Four directions as 64-bit lanes, and back. */
static inline AVX2 __m256i load_directions4(const int8_t *direction)
{
    int32_t packed;

    memcpy(&packed, direction, sizeof packed);
    return _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(packed));
}

/* What both settles read of four inputs: x, the kernel's answer, |x|'s
 * encoding and the sign as a mask. */
struct lanes4 {
    __m256i x, rounded, direction, magnitude, neg;
};

static inline AVX2 struct lanes4 load_lanes4(const ga_bits *x, const ga_bits *rounded,
                                             const int8_t *direction)
{
    struct lanes4 l;

    l.x = _mm256_loadu_si256((const __m256i *)x);
    l.rounded = _mm256_loadu_si256((const __m256i *)rounded);
    l.direction = load_directions4(direction);
    l.magnitude = _mm256_and_si256(l.x, _mm256_set1_epi64x(0x7fffffff));
    l.neg = _mm256_xor_si256(_mm256_cmpeq_epi64(l.x, l.magnitude), _mm256_set1_epi64x(-1));
    return l;
}

static inline AVX2 void store_directions4(__m256i d, int8_t *direction)
{
    direction[0] = (int8_t)_mm256_extract_epi64(d, 0);
    direction[1] = (int8_t)_mm256_extract_epi64(d, 1);
    direction[2] = (int8_t)_mm256_extract_epi64(d, 2);
    direction[3] = (int8_t)_mm256_extract_epi64(d, 3);
}

/* fast_vec_portable.c's settle, four encodings at a time in 64-bit lanes (the
 * encodings are below 2^32, so signed compares order them).  Returns
 * whether some input is left pending. */
AVX2 bool ga_vec_settle_avx2(const struct ga_fast_thresholds *th, const ga_bits *x,
                             ga_bits *rounded, int8_t *direction, size_t n)
{
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i minus_one = _mm256_set1_epi64x(-1), pending = _mm256_set1_epi64x(GA_VEC_PENDING);
    const __m256i tiny_pos = _mm256_set1_epi64x((long long)th->tiny_pos);
    const __m256i tiny_neg = _mm256_set1_epi64x((long long)(th->tiny_neg & 0x7fffffffu));
    const __m256i right_at = _mm256_set1_epi64x((long long)th->right);
    const __m256i left_at = _mm256_set1_epi64x((long long)(th->left & 0x7fffffffu));
    __m256i any = _mm256_setzero_si256();
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        struct lanes4 l = load_lanes4(x + i, rounded + i, direction + i);
        __m256i xv = l.x, r = l.rounded, d = l.direction, m = l.magnitude, neg = l.neg;
        __m256i special = _mm256_or_si256(_mm256_cmpeq_epi64(m, _mm256_setzero_si256()),
                                          _mm256_cmpgt_epi64(m, _mm256_set1_epi64x(0x7f7fffff)));
        __m256i tiny = _mm256_xor_si256(
            _mm256_cmpgt_epi64(m, _mm256_blendv_epi8(tiny_pos, tiny_neg, neg)), minus_one);
        __m256i right = _mm256_andnot_si256(_mm256_or_si256(neg, _mm256_cmpgt_epi64(right_at, m)),
                                            minus_one);
        __m256i left = _mm256_andnot_si256(_mm256_cmpgt_epi64(left_at, m), neg);
        /* ga_fast_half_up and ga_fast_half_is_exact for float32 */
        __m256i normal_half = _mm256_cmpgt_epi64(m, _mm256_set1_epi64x(0x00ffffff));
        __m256i halved = _mm256_or_si256(
            _mm256_xor_si256(xv, m),
            _mm256_srli_epi64(_mm256_add_epi64(m, _mm256_andnot_si256(neg, one)), 1));
        __m256i half = _mm256_blendv_epi8(halved, _mm256_sub_epi64(xv, _mm256_set1_epi64x(1 << 23)),
                                          normal_half);
        __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(m, one), _mm256_setzero_si256());
        __m256i half_direction = _mm256_blendv_epi8(minus_one, one,
                                                    _mm256_or_si256(normal_half, even));

        r = _mm256_blendv_epi8(r, half, tiny);
        d = _mm256_blendv_epi8(d, half_direction, tiny);
        r = _mm256_blendv_epi8(r, xv, right);
        d = _mm256_blendv_epi8(d, minus_one, right);
        r = _mm256_blendv_epi8(r, _mm256_set1_epi64x(0x80000000), left);
        d = _mm256_blendv_epi8(d, minus_one, left);
        d = _mm256_blendv_epi8(d, pending, special);
        any = _mm256_or_si256(any, _mm256_cmpeq_epi64(d, pending));
        _mm256_storeu_si256((__m256i *)(rounded + i), r);
        store_directions4(d, direction + i);
    }
    return !_mm256_testz_si256(any, any) | ga_vec_settle_portable(th, x + i, rounded + i,
                                                                   direction + i, n - i);
}

/* fast_vec_portable.c's grad_settle, four encodings at a time.  Returns whether
 * some input is left pending. */
AVX2 bool ga_vec_grad_settle_avx2(bool gelu_tanh, const ga_bits *x, ga_bits *rounded,
                                  int8_t *direction, size_t n)
{
    const __m256i zero = _mm256_setzero_si256(), pending = _mm256_set1_epi64x(GA_VEC_PENDING);
    const __m256i right_at = _mm256_set1_epi64x(GA_VEC_GRAD_RIGHT);
    const __m256i left_at = _mm256_set1_epi64x(gelu_tanh ? GA_VEC_TANH_GRAD_LEFT : GA_VEC_GRAD_LEFT);
    /* the tanh form's x in [6.5, 8): 1 from above; never for gelu' */
    const __m256i one_at = _mm256_set1_epi64x(gelu_tanh ? GA_VEC_TANH_GRAD_ONE - 1 : 0x7fffffff);
    __m256i any = zero;
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        struct lanes4 l = load_lanes4(x + i, rounded + i, direction + i);
        __m256i xv = l.x, r = l.rounded, d = l.direction, m = l.magnitude, neg = l.neg;
        __m256i limit = _mm256_blendv_epi8(right_at, left_at, neg);
        __m256i evaluated = _mm256_andnot_si256(_mm256_cmpeq_epi64(m, zero),
                                                _mm256_cmpgt_epi64(limit, m));
        __m256i one = _mm256_and_si256(_mm256_cmpgt_epi64(xv, one_at),
                                       _mm256_cmpgt_epi64(right_at, xv));

        d = _mm256_blendv_epi8(pending, d, evaluated);
        d = _mm256_blendv_epi8(d, _mm256_set1_epi64x(1), one);
        r = _mm256_blendv_epi8(r, _mm256_set1_epi64x(0x3f800000), one);
        any = _mm256_or_si256(any, _mm256_cmpeq_epi64(d, pending));
        _mm256_storeu_si256((__m256i *)(rounded + i), r);
        store_directions4(d, direction + i);
    }
    return !_mm256_testz_si256(any, any) | ga_vec_grad_settle_portable(gelu_tanh, x + i,
                                                                        rounded + i,
                                                                        direction + i, n - i);
}

/* ga_vec_backward_decide_portable four pairs at a time: the products and
 * their intervals tested as decide_within tests a value's (the same
 * operations as decide_product, unfused), the range of the product and of
 * x, and the tanh form's x in [6.5, 8), settled lane by lane. */
AVX2 bool ga_vec_backward_decide_avx2(int gelu_tanh, const ga_bits *x, const ga_bits *dy,
                                      const double *v, const double *r, ga_bits *rounded,
                                      int8_t *direction, size_t n)
{
    const __m256d sign = _mm256_set1_pd(-0.0);
    bool any = false;
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        __m256d dyd = load4(dy + i);
        __m256d p = _mm256_mul_pd(dyd, _mm256_loadu_pd(v + i));
        __m256d ap = _mm256_andnot_pd(sign, p);
        __m256d radius = _mm256_add_pd(
            _mm256_mul_pd(_mm256_andnot_pd(sign, dyd), _mm256_loadu_pd(r + i)),
            _mm256_mul_pd(_mm256_set1_pd(0x1p-51), ap));
        __m256d in_range = _mm256_and_pd(_mm256_cmp_pd(ap, _mm256_set1_pd(0x1p127), _CMP_LT_OQ),
                                         _mm256_cmp_pd(ap, _mm256_set1_pd(0x1p-140), _CMP_GT_OQ));
        int range = _mm256_movemask_pd(in_range);
        __m128i r32, dir = decide_within(p, radius, &r32);

        store4(r32, dir, rounded + i, direction + i);
        for (int k = 0; k < 4; k++) {
            ga_bits xk = x[i + k];
            if (gelu_tanh && xk >= GA_VEC_TANH_GRAD_ONE && xk < GA_VEC_GRAD_RIGHT) {
                int d = ga_vec_beyond_dy(dy[i + k], &rounded[i + k]);
                direction[i + k] = (int8_t)(d != 0 ? d : GA_VEC_PENDING);
            } else if (!((range >> k) & 1) || !ga_vec_grad_evaluated(gelu_tanh, xk)) {
                direction[i + k] = GA_VEC_PENDING;
            }
            any |= direction[i + k] == GA_VEC_PENDING;
        }
    }
    return ga_vec_backward_decide_portable(gelu_tanh, x + i, dy + i, v + i, r + i, rounded + i,
                                           direction + i, n - i) | any;
}

#else
/* Not an x86-64 GCC or Clang build: never called (ga_vec_path_available). */
void ga_vec_gelu_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    ga_vec_gelu_portable(x, rounded, direction, n);
}

void ga_vec_gelu_tanh_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    ga_vec_gelu_tanh_portable(x, rounded, direction, n);
}

void ga_vec_gelu_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    ga_vec_gelu_grad_portable(x, rounded, direction, n);
}

void ga_vec_gelu_tanh_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    ga_vec_gelu_tanh_grad_portable(x, rounded, direction, n);
}

void ga_vec_grad_values_avx2(int gelu_tanh, const ga_bits *x, double *v, double *r, size_t n)
{
    ga_vec_grad_values_portable(gelu_tanh, x, v, r, n);
}

bool ga_vec_settle_avx2(const struct ga_fast_thresholds *th, const ga_bits *x, ga_bits *rounded,
                        int8_t *direction, size_t n)
{
    return ga_vec_settle_portable(th, x, rounded, direction, n);
}

bool ga_vec_grad_settle_avx2(bool gelu_tanh, const ga_bits *x, ga_bits *rounded,
                             int8_t *direction, size_t n)
{
    return ga_vec_grad_settle_portable(gelu_tanh, x, rounded, direction, n);
}

bool ga_vec_backward_decide_avx2(int gelu_tanh, const ga_bits *x, const ga_bits *dy,
                                 const double *v, const double *r, ga_bits *rounded,
                                 int8_t *direction, size_t n)
{
    return ga_vec_backward_decide_portable(gelu_tanh, x, dy, v, r, rounded, direction, n);
}
#endif
