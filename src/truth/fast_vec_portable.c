/* The portable vector path: the evaluation of fast_vec_internal.h in plain C
 * over short arrays, with no branch in the arithmetic, so that a compiler
 * may vectorize it for the CPU it targets.  Whether products and sums are
 * fused or not, the error bound holds (doc/oracle.md, 'The vector paths').
 * Also the thresholds' answers written over a kernel's, as selects
 * (ga_vec_settle_portable, ga_vec_grad_settle_portable; the AVX2 path has
 * its own), and the backward truth's test of the products dy v
 * (ga_vec_backward_decide_portable). */
#include <math.h>
#include <string.h>

#include "truth/fast_vec_internal.h"
#include "truth/fast_internal.h"

#define CHUNK 64

/* e^y for y in [-110, 110]: 2^k P(r), |r| <= 0.3466. */
static inline double exp_neg(double y)
{
    double kd = y * GA_VEC_LOG2E + GA_VEC_ROUND_MAGIC;
    double k = kd - GA_VEC_ROUND_MAGIC;
    double r = (y - k * GA_VEC_LN2_L1) - k * GA_VEC_LN2_L2;
    double p = ga_vec_exp[0], scale;
    uint64_t bits;

    for (int i = 1; i <= GA_VEC_EXP_DEGREE; i++)
        p = p * r + ga_vec_exp[i];
    memcpy(&bits, &kd, sizeof bits);
    bits = (bits + 1023) << 52;  /* the low bits of kd hold k */
    memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

/* M(a) = e^(a^2/2) erfc(a/sqrt 2)/2 = G(s)/(a + 6), a in [0, 14.36]. */
static inline double mills(double a)
{
    double inv = 1 / (a + 6);
    double s = (1.75 * a - 6) * inv;
    double g = ga_vec_g[0];

    for (int i = 1; i <= GA_VEC_G_DEGREE; i++)
        g = g * s + ga_vec_g[i];
    return g * inv;
}

/* v, gelu(x) within GA_VEC_GELU_REL_ERR for x in the evaluated range. */
static inline double gelu_value(double x)
{
    double a = fabs(x);
    double q = exp_neg(-0.5 * (a * a)) * mills(a);

    return x * (x < 0 ? q : 1 - q);
}

/* v, gelu'(x) within *radius for -14 < x < 8 (fast_vec_internal.h). */
static inline double gelu_grad_value(double x, double *radius)
{
    double a = fabs(x);
    double e = exp_neg(-0.5 * (a * a));
    double q = e * mills(a), p = e * (a * GA_VEC_INV_SQRT_2PI);
    double d = q - p, v = x < 0 ? d : 1 - d;

    *radius = GA_VEC_GRAD_TERM_ERR * (q + p) + GA_VEC_GRAD_VALUE_ERR * fabs(v);
    return v;
}

static inline uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* v, gelu_tanh(x) within GA_VEC_TANH_REL_ERR for x in the evaluated range. */
static inline double gelu_tanh_value(double x)
{
    double w = GA_VEC_BETA * (x + (GA_VEC_KAPPA * (x * x)) * x);

    return x / (1 + exp_neg(-2 * w));
}

/* v, gelu_tanh'(x) within *radius for -10.5 < x < 8 (fast_vec_internal.h). */
static inline double gelu_tanh_grad_value(double x, double *radius)
{
    double x2 = x * x;
    double w = GA_VEC_BETA * (x + (GA_VEC_KAPPA * x2) * x);
    double e = exp_neg(-2 * w);
    double t1 = 1 / (1 + e), ed = e / (1 + e);
    double p = (GA_VEC_BETA * x) * (1 + GA_VEC_3KAPPA * x2);
    double t2 = ((2 * p) * ed) * t1, v = t1 + t2;

    *radius = GA_VEC_TANH_GRAD_TERM_ERR * (ed * t1 + fabs(t2))
              + GA_VEC_GRAD_VALUE_ERR * (t1 + fabs(v));
    return v;
}

/* The rounding test of fast_decide.c for float32: both ends of the interval
 * [v - r, v + r] round to one float, which lies outside it. */
static inline void decide_within(double v, double r, ga_bits *rounded, int8_t *direction)
{
    double lo = v - r, hi = v + r;
    float flo = (float)lo, fhi = (float)hi;
    double fv = flo;

    *rounded = float_bits(flo);
    *direction = float_bits(flo) != float_bits(fhi) ? GA_VEC_PENDING
               : lo > fv ? 1 : hi < fv ? -1 : GA_VEC_PENDING;
}

/* The same with r = eps |v|. */
static inline void decide(double v, double eps, ga_bits *rounded, int8_t *direction)
{
    decide_within(v, fabs(v) * eps, rounded, direction);
}

static inline double decoded(ga_bits x)
{
    uint32_t b = (uint32_t)x;
    float f;

    memcpy(&f, &b, sizeof f);
    return f;
}

void ga_vec_gelu_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    double v[CHUNK];

    for (size_t first = 0; first < n; first += CHUNK) {
        size_t m = n - first < CHUNK ? n - first : CHUNK;
        for (size_t i = 0; i < m; i++)
            v[i] = gelu_value(decoded(x[first + i]));
        for (size_t i = 0; i < m; i++)
            decide(v[i], GA_VEC_GELU_REL_ERR, &rounded[first + i], &direction[first + i]);
    }
}

void ga_vec_gelu_tanh_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    double v[CHUNK];

    for (size_t first = 0; first < n; first += CHUNK) {
        size_t m = n - first < CHUNK ? n - first : CHUNK;
        for (size_t i = 0; i < m; i++)
            v[i] = gelu_tanh_value(decoded(x[first + i]));
        for (size_t i = 0; i < m; i++)
            decide(v[i], GA_VEC_TANH_REL_ERR, &rounded[first + i], &direction[first + i]);
    }
}

/* The derivatives' kernels: value gives v and its radius; inlined with it. */
static inline void decide_each(double (*value)(double, double *), const ga_bits *x,
                               ga_bits *rounded, int8_t *direction, size_t n)
{
    double v[CHUNK], r[CHUNK];

    for (size_t first = 0; first < n; first += CHUNK) {
        size_t m = n - first < CHUNK ? n - first : CHUNK;
        for (size_t i = 0; i < m; i++)
            v[i] = value(decoded(x[first + i]), &r[i]);
        for (size_t i = 0; i < m; i++)
            decide_within(v[i], r[i], &rounded[first + i], &direction[first + i]);
    }
}

void ga_vec_gelu_grad_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction, size_t n)
{
    decide_each(gelu_grad_value, x, rounded, direction, n);
}

void ga_vec_gelu_tanh_grad_portable(const ga_bits *x, ga_bits *rounded, int8_t *direction,
                                    size_t n)
{
    decide_each(gelu_tanh_grad_value, x, rounded, direction, n);
}

void ga_vec_grad_values_portable(int gelu_tanh, const ga_bits *x, double *v, double *r,
                                 size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = gelu_tanh ? gelu_tanh_grad_value(decoded(x[i]), &r[i])
                         : gelu_grad_value(decoded(x[i]), &r[i]);
}

/* The thresholds' answer for x outside the evaluated range (the rules of
 * fast.c) written over the kernel's answer, GA_VEC_PENDING for the scalar
 * path (zeros, infinities, NaNs); the kernel's answer stands for x in the
 * evaluated range.  Selects, not branches: the sign and the region of the
 * inputs change from one to the next, and a mispredicted branch per input
 * cost more than the kernel.  The regions are disjoint, the special
 * encodings aside, which win. */
static inline void settle(const struct ga_fast_thresholds *th, ga_bits x, ga_bits *rounded,
                          int8_t *direction)
{
    const ga_bits magnitude = x & 0x7fffffffu;
    const bool neg = x != magnitude;
    const bool special = magnitude - 1 >= 0x7f800000u - 1;
    const bool tiny = magnitude <= (neg ? th->tiny_neg & 0x7fffffffu : th->tiny_pos);
    const bool right = !neg && magnitude >= th->right;
    const bool left = neg && magnitude >= (th->left & 0x7fffffffu);
    /* ga_fast_half_up and ga_fast_half_is_exact for float32 */
    const bool normal_half = magnitude >> 23 >= 2;
    const ga_bits half = normal_half ? x - ((ga_bits)1 << 23)
                                     : (x & 0x80000000u) | (neg ? magnitude >> 1
                                                                : (magnitude + 1) >> 1);
    const int8_t half_direction = normal_half || (magnitude & 1) == 0 ? 1 : -1;
    ga_bits r = *rounded;
    int8_t d = *direction;

    r = tiny ? half : r;
    d = tiny ? half_direction : d;
    r = right ? x : r;
    d = right ? -1 : d;
    r = left ? 0x80000000u : r;
    d = left ? -1 : d;
    *rounded = r;
    *direction = special ? GA_VEC_PENDING : d;
}

bool ga_vec_settle_portable(const struct ga_fast_thresholds *th, const ga_bits *x,
                            ga_bits *rounded, int8_t *direction, size_t n)
{
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        settle(th, x[i], &rounded[i], &direction[i]);
        any |= direction[i] == GA_VEC_PENDING;
    }
    return any;
}

/* The derivatives: the kernels evaluate left < x < 8 (|left| = 14 for
 * gelu', 10.5 for the tanh form's), zero excluded, and the tanh form's
 * rounds to 1 from above from x = 6.5 on; everything else is left to the
 * scalar path (cheap there: its own thresholds answer most).  Written over
 * the kernel's answer with selects, as settle does for the forward
 * functions (settle). */
static inline void grad_settle(bool gelu_tanh, ga_bits x, ga_bits *rounded, int8_t *direction)
{
    /* masks rather than conditions, which the compiler turned into branches */
    const ga_bits magnitude = x & 0x7fffffffu;
    const ga_bits left = gelu_tanh ? GA_VEC_TANH_GRAD_LEFT : GA_VEC_GRAD_LEFT;
    const ga_bits limit = GA_VEC_GRAD_RIGHT ^ ((GA_VEC_GRAD_RIGHT ^ left) & -(ga_bits)(x != magnitude));
    const int8_t evaluated = (int8_t)-(int8_t)(magnitude - 1 < limit - 1);
    const int8_t one = (int8_t)-(int8_t)(gelu_tanh && x - GA_VEC_TANH_GRAD_ONE
                                                       < GA_VEC_GRAD_RIGHT - GA_VEC_TANH_GRAD_ONE);
    int8_t d = (int8_t)(GA_VEC_PENDING ^ ((*direction ^ GA_VEC_PENDING) & evaluated));

    *direction = (int8_t)(d ^ ((d ^ 1) & one));
    *rounded ^= (*rounded ^ 0x3f800000u) & -(ga_bits)(one & 1);
}

bool ga_vec_grad_settle_portable(bool gelu_tanh, const ga_bits *x, ga_bits *rounded,
                                 int8_t *direction, size_t n)
{
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        grad_settle(gelu_tanh, x[i], &rounded[i], &direction[i]);
        any |= direction[i] == GA_VEC_PENDING;
    }
    return any;
}

/* Products of this size in double round to float32 as normal numbers or
 * subnormals, neither overflowing nor flushed: between them the test's
 * conversions are exact roundings. */
#define PRODUCT_MAX 0x1p127
#define PRODUCT_MIN 0x1p-140

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

int ga_vec_beyond_dy(ga_bits dy, ga_bits *rounded)
{
    ga_bits magnitude = dy & 0x7fffffffu;

    if (magnitude == 0 || magnitude >= 0x7f800000u)
        return 0;
    *rounded = dy;
    return dy == magnitude ? 1 : -1;
}

bool ga_vec_backward_decide_portable(int gelu_tanh, const ga_bits *x, const ga_bits *dy,
                                     const double *v, const double *r, ga_bits *rounded,
                                     int8_t *direction, size_t n)
{
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        int d = gelu_tanh && x[i] >= GA_VEC_TANH_GRAD_ONE && x[i] < GA_VEC_GRAD_RIGHT
                    ? ga_vec_beyond_dy(dy[i], &rounded[i])
                : ga_vec_grad_evaluated(gelu_tanh, x[i])
                    ? decide_product(decoded(dy[i]), v[i], r[i], &rounded[i])
                    : 0;
        direction[i] = (int8_t)(d != 0 ? d : GA_VEC_PENDING);
        any |= d == 0;
    }
    return any;
}
