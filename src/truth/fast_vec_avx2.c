/* The AVX2 vector path: the evaluation of fast_vec_internal.h four doubles
 * at a time with fused multiply-adds, compiled for AVX2 and FMA in this file
 * only (target attributes), and called only where the CPU has both
 * (fast_vec.c).  Same arithmetic as fast_vec_portable.c; the error bound
 * covers fused and unfused steps alike (doc/oracle.md, 'The vector paths'). */
#include "truth/fast_vec_internal.h"

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

AVX2 void ga_vec_gelu_tanh_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    size_t i = 0;

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

    for (; i + 4 <= n; i += 4) {
        __m128i r32, dir = decide(gelu_value(load4(x + i)), GA_VEC_GELU_REL_ERR, &r32);
        store4(r32, dir, rounded + i, direction + i);
    }
    if (i < n)
        ga_vec_gelu_portable(x + i, rounded + i, direction + i, n - i);
}

/* The derivatives' kernels: value gives v and its radius, four at a time;
 * the tail through portable (the same arithmetic, one at a time). */
static inline AVX2 void decide_each(__m256d (*value)(__m256d, __m256d *),
                                    void (*portable)(const ga_bits *, ga_bits *, int8_t *, size_t),
                                    const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                    size_t n)
{
    size_t i = 0;

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
    decide_each(gelu_grad_value, ga_vec_gelu_grad_portable, x, rounded, direction, n);
}

AVX2 void ga_vec_gelu_tanh_grad_avx2(const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                     size_t n)
{
    decide_each(gelu_tanh_grad_value, ga_vec_gelu_tanh_grad_portable, x, rounded, direction, n);
}

AVX2 void ga_vec_grad_values_avx2(int gelu_tanh, const ga_bits *x, double *v, double *r,
                                  size_t n)
{
    size_t i = 0;

    for (; i + 4 <= n; i += 4) {
        __m256d radius, value = gelu_tanh ? gelu_tanh_grad_value(load4(x + i), &radius)
                                          : gelu_grad_value(load4(x + i), &radius);
        _mm256_storeu_pd(v + i, value);
        _mm256_storeu_pd(r + i, radius);
    }
    if (i < n)
        ga_vec_grad_values_portable(gelu_tanh, x + i, v + i, r + i, n - i);
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
#endif
