/* The shape accumulator (measure/shape.h; definitions in doc/metrics.md,
 * "Shape").  Inputs and outputs are ordered by value through integer keys:
 * |e| or -|e| for an encoding of magnitude |e|, so that -0 and +0 tie. */
#include "measure/shape.h"

#include <math.h>
#include <mpfr.h>
#include <string.h>

#include "domain/domain.h"

/* Brackets of the minima: gelu' < 0 at lo and > 0 at hi (the facts give
 * x0 = -0.7517915247 and -0.7524614221; shape_test proves the signs).  A pair
 * that reaches into a bracket is judged by the truths' order instead. */
static const double bracket[GA_FUNCTION_COUNT][2] = {
    [GA_GELU] = { -0.7518, -0.7517 },
    [GA_GELU_TANH] = { -0.7525, -0.7524 },
};

static inline int64_t key_of(ga_bits sign_mask, ga_bits e)
{
    int64_t mag = (int64_t)(e & ~sign_mask);
    return (e & sign_mask) ? -mag : mag;
}

/* The key of the last encoding at or below v (up: the first at or above). */
static int64_t key_near(const struct ga_format *f, double v, bool up)
{
    ga_bits e = ga_encode(f, v);

    while (!up && ga_decode(f, e) > v)
        e = ga_next_down(f, e);
    while (up && ga_decode(f, e) < v)
        e = ga_next_up(f, e);
    return key_of(ga_sign_mask(f), e);
}

void ga_shape_init(struct ga_shape *s, const struct ga_format *f, enum ga_function reference,
                   bool monotone, bool odd)
{
    memset(s, 0, sizeof *s);
    s->format = f;
    s->reference = reference;
    s->monotone = monotone;
    s->odd = odd;
    s->key_left = key_near(f, bracket[reference][0], false);
    s->key_right = key_near(f, bracket[reference][1], true);
}

bool ga_shape_ordered(const struct ga_domain *d)
{
    return d->kind == GA_DOMAIN_ALL || d->kind == GA_DOMAIN_STRIDE || d->kind == GA_DOMAIN_RANGE;
}

/* Whether (x, y) comes before p in the order of least y, then least x (by
 * value, then by encoding: -0 before +0 when they tie). */
static bool before_point(ga_bits sign_mask, ga_bits x, ga_bits y, const struct ga_shape_point *p)
{
    int64_t ky = key_of(sign_mask, y), kp = key_of(sign_mask, p->y);

    if (!p->has || ky != kp)
        return !p->has || ky < kp;
    if (key_of(sign_mask, x) != key_of(sign_mask, p->x))
        return key_of(sign_mask, x) < key_of(sign_mask, p->x);
    return x > p->x;  /* -0 (sign set) first */
}

/* Whether input x comes before p's (least value, -0 before +0). */
static bool before_input(ga_bits sign_mask, ga_bits x, const struct ga_shape_point *p)
{
    if (!p->has)
        return true;
    if (key_of(sign_mask, x) != key_of(sign_mask, p->x))
        return key_of(sign_mask, x) < key_of(sign_mask, p->x);
    return x > p->x;
}

static void offer_violation(struct ga_shape_side *side, const struct ga_shape_violation *v,
                            ga_bits sign_mask)
{
    if (!side->first.has || key_of(sign_mask, v->lo) < key_of(sign_mask, side->first.lo))
        side->first = *v;
    if (!side->worst.has || v->steps > side->worst.steps
        || (v->steps == side->worst.steps
            && key_of(sign_mask, v->lo) < key_of(sign_mask, side->worst.lo)))
        side->worst = *v;
}

/* The pair a < b (keys ka < kb) with outputs of keys kya, kyb and truths
 * ra, rb: judged on its side, a violation recorded. */
static void judge_ordered(struct ga_shape *s, ga_bits a, ga_bits b, int64_t ka, int64_t kb,
                          ga_bits ya, ga_bits yb, int64_t kya, int64_t kyb, ga_bits ra, ga_bits rb)
{
    const ga_bits sm = ga_sign_mask(s->format);
    int side;

    if (kb <= s->key_left) {
        side = GA_SHAPE_LEFT;
    } else if (ka >= s->key_right) {
        side = GA_SHAPE_RIGHT;
    } else {  /* near x0: the correctly rounded results order them, or nothing does */
        int64_t kra = key_of(sm, ra), krb = key_of(sm, rb);
        if (kra == krb)
            return;
        side = kra > krb ? GA_SHAPE_LEFT : GA_SHAPE_RIGHT;
    }
    s->side[side].pairs++;
    if (side == GA_SHAPE_LEFT ? kya < kyb : kya > kyb) {
        struct ga_shape_violation w = { .has = true, .lo = a, .hi = b, .y_lo = ya, .y_hi = yb,
                                        .steps = ga_distance(s->format, ya, yb) };
        s->side[side].violations++;
        offer_violation(&s->side[side], &w, sm);
    }
}

/* Adjacent inputs u, v (either order) with outputs and truths. */
static __attribute__((noinline, cold)) void judge(struct ga_shape *s, ga_bits u, ga_bits yu,
                                                  ga_bits ru, ga_bits v, ga_bits yv, ga_bits rv)
{
    const struct ga_format *f = s->format;
    const ga_bits sm = ga_sign_mask(f);
    int64_t ku, kv;

    if (ga_is_nan(f, u) || ga_is_nan(f, v) || ga_is_nan(f, yu) || ga_is_nan(f, yv)
        || ((u ^ v) & sm) != 0)
        return;  /* of opposite signs: +inf and -0 in stride:2^(bits-1-k), not neighbours */
    ku = key_of(sm, u);
    kv = key_of(sm, v);
    if (ku < kv)
        judge_ordered(s, u, v, ku, kv, yu, yv, key_of(sm, yu), key_of(sm, yv), ru, rv);
    else if (kv < ku)
        judge_ordered(s, v, u, kv, ku, yv, yu, key_of(sm, yv), key_of(sm, yu), rv, ru);
}

static __attribute__((noinline, cold)) void sign_error(struct ga_shape *s, ga_bits x, ga_bits y)
{
    s->sign_errors++;
    if (before_input(ga_sign_mask(s->format), x, &s->first_sign_error))
        s->first_sign_error = (struct ga_shape_point){ true, x, y };
}

/* Input i of the chunk, every case but the minima handled (the loop below
 * hands it the inputs that may change more than a pair count): a sign
 * error, a pair near x0 or a violation, a NaN; the pair with the input
 * before it (when both are numbers with numbers as outputs) judged. */
static __attribute__((noinline)) void walk_input(struct ga_shape *s, const ga_bits *x,
                                                 const ga_bits *y, const struct ga_truth *t,
                                                 size_t i, bool prev_ok)
{
    const ga_bits sm = ga_sign_mask(s->format), nan_from = ga_nan_from(s->format);
    const ga_bits xi = x[i], yi = y[i];
    int64_t kx, ky;

    if ((xi & ~sm) >= nan_from || (yi & ~sm) >= nan_from)
        return;
    kx = key_of(sm, xi);
    ky = key_of(sm, yi);
    if (kx != 0 && ky != 0 && (kx < 0) != (ky < 0))
        sign_error(s, xi, yi);
    if (s->monotone && prev_ok)
        judge(s, x[i - 1], y[i - 1], t[i - 1].rounded, xi, yi, t[i].rounded);
}

/* The chunk's inputs whose output (truth: correctly rounded result) has key
 * `least`, offered as the minimum.  before_point is a total order, so
 * offering only the least keys gives the same minimum as offering all. */
static void offer_least(ga_bits sign_mask, ga_bits nan_from, struct ga_shape_point *minimum,
                        const ga_bits *x, const ga_bits *y, const struct ga_truth *t, size_t n,
                        int64_t least)
{
    for (size_t i = 0; i < n; i++) {
        ga_bits v = y ? y[i] : t[i].rounded;
        if ((x[i] & ~sign_mask) < nan_from && (v & ~sign_mask) < nan_from
            && key_of(sign_mask, v) == least && before_point(sign_mask, x[i], v, minimum))
            *minimum = (struct ga_shape_point){ true, x[i], v };
    }
}

/* Of a plain chunk: the pairs from the first, the rare ones (a violation,
 * an output of the wrong sign) handed to judge() and sign_error(), and the
 * least keys.  A violation is an output key that rises along the chunk
 * (left of x0 going up, right of it going down), or that falls. */
static inline __attribute__((always_inline)) uint64_t
plain_pairs(struct ga_shape *s, const ga_bits *x, const ga_bits *y, const struct ga_truth *t,
            size_t n, const bool against_rising, int64_t *least_y, int64_t *least_truth)
{
    const ga_bits sm = ga_sign_mask(s->format);
    const bool negative = (x[0] & sm) != 0;
    int64_t ky_prev = key_of(sm, y[0]), ly = *least_y, lt = *least_truth;
    uint64_t pairs = 0;

    for (size_t i = 1; i < n; i++) {
        const int64_t ky = key_of(sm, y[i]), kr = key_of(sm, t[i].rounded);
        const bool wrong_sign = ((x[i] & ~sm) != 0) & (ky != 0) & ((ky < 0) != negative);
        const bool against = against_rising ? ky > ky_prev : ky < ky_prev;

        lt = kr < lt ? kr : lt;
        ly = ky < ly ? ky : ly;
        if (__builtin_expect(wrong_sign | against, 0)) {
            if (wrong_sign)
                sign_error(s, x[i], y[i]);
            if (against)
                judge(s, x[i - 1], y[i - 1], t[i - 1].rounded, x[i], y[i], t[i].rounded);
            else
                pairs++;
        } else {
            pairs++;
        }
        ky_prev = ky;
    }
    *least_y = ly;
    *least_truth = lt;
    return pairs;
}

/* ga_shape_add_chunk on a plain chunk: its first input, then every pair,
 * counted on the chunk's side. */
static void add_plain_chunk(struct ga_shape *s, const ga_bits *x, const ga_bits *y,
                            const struct ga_truth *t, size_t n, bool up, bool left,
                            int64_t *least_y, int64_t *least_truth)
{
    const ga_bits sm = ga_sign_mask(s->format);
    const int64_t kx = key_of(sm, x[0]), ky = key_of(sm, y[0]);
    uint64_t pairs;

    if (kx != 0 && ky != 0 && (kx < 0) != (ky < 0))
        sign_error(s, x[0], y[0]);
    *least_y = ky;
    *least_truth = key_of(sm, t[0].rounded);
    if (left == up)
        pairs = plain_pairs(s, x, y, t, n, true, least_y, least_truth);
    else
        pairs = plain_pairs(s, x, y, t, n, false, least_y, least_truth);
    s->side[left ? GA_SHAPE_LEFT : GA_SHAPE_RIGHT].pairs += pairs;
}

/* How ga_shape_add_chunk takes a chunk. */
enum chunk_kind {
    CHUNK_ANY,    /* add_any_chunk */
    CHUNK_PLAIN,  /* add_plain_chunk */
    CHUNK_QUIET,  /* plain, and nothing happens in it but its n - 1 pairs */
};

/* A chunk is plain when it has at least two inputs, every input and output
 * a number, the inputs of one sign, their keys strictly increasing (up) or
 * decreasing, and all of them left of x0's bracket or all right of it.
 * The chunks of an ordered domain are, but for the few around 0, x0, the
 * infinities and the NaNs.  A plain chunk is quiet without a violation or
 * an output of the wrong sign, as are almost all of a sweep's: then this
 * pass, with no branch and no side effect, has found its least keys too.
 * mag_down: the magnitudes of the inputs go down (the keys of negative
 * inputs going up, or of positive ones going down). */
static inline __attribute__((always_inline)) enum chunk_kind
classify_pass(const struct ga_shape *s, const ga_bits *x, const ga_bits *y,
              const struct ga_truth *t, size_t n, const bool mag_down, const bool against_rising,
              int64_t *least_y, int64_t *least_truth)
{
    const ga_bits sm = ga_sign_mask(s->format), nan_from = ga_nan_from(s->format);
    const ga_bits sign = x[0] & sm;
    const bool negative = sign != 0;
    const int64_t kx0 = key_of(sm, x[0]);
    int64_t ky_prev = key_of(sm, y[0]), ly = ky_prev, lt = key_of(sm, t[0].rounded);
    bool bad = ((x[0] & ~sm) >= nan_from) | ((y[0] & ~sm) >= nan_from);
    bool event = (kx0 != 0) & (ky_prev != 0) & ((kx0 < 0) != (ky_prev < 0));

    for (size_t i = 1; i < n; i++) {
        const ga_bits xm = x[i] & ~sm, prev_m = x[i - 1] & ~sm;
        const int64_t ky = key_of(sm, y[i]), kr = key_of(sm, t[i].rounded);

        bad |= (xm >= nan_from) | ((y[i] & ~sm) >= nan_from) | ((x[i] & sm) != sign)
               | (mag_down ? xm >= prev_m : xm <= prev_m);
        event |= (xm != 0) & (ky != 0) & ((ky < 0) != negative);   /* a wrong sign */
        event |= against_rising ? ky > ky_prev : ky < ky_prev;      /* a violation */
        lt = kr < lt ? kr : lt;
        ly = ky < ly ? ky : ly;
        ky_prev = ky;
    }
    if (bad)
        return CHUNK_ANY;
    if (event)
        return CHUNK_PLAIN;
    *least_y = ly;
    *least_truth = lt;
    return CHUNK_QUIET;
}

/* classify_pass for the chunk's direction (*up: its keys increase) and side
 * of x0 (*left). */
static enum chunk_kind classify_chunk(const struct ga_shape *s, const ga_bits *x,
                                      const ga_bits *y, const struct ga_truth *t, size_t n,
                                      bool *up, bool *left, int64_t *least_y,
                                      int64_t *least_truth)
{
    const ga_bits sm = ga_sign_mask(s->format);
    int64_t first, last;

    if (!s->monotone || n < 2)
        return CHUNK_ANY;
    first = key_of(sm, x[0]);
    last = key_of(sm, x[n - 1]);
    *up = first < last;
    if (*up ? last <= s->key_left : first <= s->key_left)
        *left = true;
    else if (*up ? first >= s->key_right : last >= s->key_right)
        *left = false;
    else
        return CHUNK_ANY;
    const bool mag_down = *up == ((x[0] & sm) != 0);
    if (*left == *up)
        return mag_down ? classify_pass(s, x, y, t, n, true, true, least_y, least_truth)
                        : classify_pass(s, x, y, t, n, false, true, least_y, least_truth);
    return mag_down ? classify_pass(s, x, y, t, n, true, false, least_y, least_truth)
                    : classify_pass(s, x, y, t, n, false, false, least_y, least_truth);
}

/* The input before the one judged: a number with a number as output (ok),
 * its keys and its sign. */
struct walk_prev {
    bool ok;
    int64_t kx, ky;
    ga_bits sign;
};

/* ga_shape_add_chunk on any chunk.  Each input is judged without a branch:
 * when it can change nothing but a pair count and the chunk's least keys
 * (almost always) that is taken here; otherwise walk_input does what
 * judging each pair with judge() would.  Of adjacent inputs a < b, left of
 * x0 the pair goes against the truth's order when the outputs increase,
 * right of it when they decrease: when the keys of x and of y move the same
 * way, or the opposite way. */
static void add_any_chunk(struct ga_shape *s, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n, int64_t *least_y,
                          int64_t *least_truth)
{
    const struct ga_format *f = s->format;
    const ga_bits sm = ga_sign_mask(f), nan_from = ga_nan_from(f);
    const int64_t key_left = s->key_left, key_right = s->key_right;
    const bool monotone = s->monotone;
    struct walk_prev prev = { .ok = false };
    uint64_t left_pairs = 0, right_pairs = 0;
    int64_t ly = INT64_MAX, lt = INT64_MAX;

    for (size_t i = 0; i < n; i++) {
        const ga_bits xi = x[i], yi = y[i];
        const int64_t kx = key_of(sm, xi), ky = key_of(sm, yi), kr = key_of(sm, t[i].rounded);
        const bool x_ok = (xi & ~sm) < nan_from, ok = x_ok & ((yi & ~sm) < nan_from);
        const bool pair = monotone & prev.ok & (kx != prev.kx) & ((xi & sm) == prev.sign);
        const bool x_up = prev.kx < kx, y_up = prev.ky < ky, y_down = ky < prev.ky;
        const int64_t ka = x_up ? prev.kx : kx, kb = x_up ? kx : prev.kx;
        const bool left = kb <= key_left, right = ka >= key_right;
        const bool same_way = x_up ? y_up : y_down, other_way = x_up ? y_down : y_up;
        const bool against = (!left & !right) | (left & same_way) | (right & other_way);
        const bool wrong_sign = (kx != 0) & (ky != 0) & ((kx < 0) != (ky < 0));
        const bool rare = (ok ^ 1) | wrong_sign | (pair & against);

        lt = x_ok && kr < lt ? kr : lt;
        ly = ok && ky < ly ? ky : ly;
        if (__builtin_expect(rare, 0)) {
            walk_input(s, x, y, t, i, prev.ok);
        } else {
            left_pairs += pair & left;
            right_pairs += pair & !left;
        }
        prev = (struct walk_prev){ ok, kx, ky, xi & sm };
    }
    s->side[GA_SHAPE_LEFT].pairs += left_pairs;
    s->side[GA_SHAPE_RIGHT].pairs += right_pairs;
    *least_y = ly;
    *least_truth = lt;
}

/* The minima, the sign errors and the pairs of a chunk: quiet and plain
 * chunks by the shorter paths.  The minima are then offered the chunk's inputs of least
 * key, when that is not above theirs. */
void ga_shape_add_chunk(struct ga_shape *s, const ga_bits *x, const ga_bits *y,
                        const struct ga_truth *t, size_t n)
{
    const ga_bits sm = ga_sign_mask(s->format), nan_from = ga_nan_from(s->format);
    int64_t least_y, least_truth;
    bool up, left;

    switch (classify_chunk(s, x, y, t, n, &up, &left, &least_y, &least_truth)) {
    case CHUNK_QUIET:
        s->side[left ? GA_SHAPE_LEFT : GA_SHAPE_RIGHT].pairs += n - 1;
        break;
    case CHUNK_PLAIN:
        add_plain_chunk(s, x, y, t, n, up, left, &least_y, &least_truth);
        break;
    default:
        add_any_chunk(s, x, y, t, n, &least_y, &least_truth);
        break;
    }
    if (least_truth != INT64_MAX
        && (!s->truth_minimum.has || least_truth <= key_of(sm, s->truth_minimum.y)))
        offer_least(sm, nan_from, &s->truth_minimum, x, NULL, t, n, least_truth);
    if (least_y != INT64_MAX && (!s->minimum.has || least_y <= key_of(sm, s->minimum.y)))
        offer_least(sm, nan_from, &s->minimum, x, y, t, n, least_y);
}

struct ga_shape_edge ga_shape_edge_of(ga_bits x, ga_bits y, const struct ga_truth *t)
{
    return (struct ga_shape_edge){ .measured = true, .x = x, .y = y, .rounded = t->rounded };
}

void ga_shape_join(struct ga_shape *s, const struct ga_shape_edge *before,
                   const struct ga_shape_edge *after)
{
    if (s->monotone && before->measured && after->measured)
        judge(s, before->x, before->y, before->rounded, after->x, after->y, after->rounded);
}

size_t ga_shape_mirror(const struct ga_format *f, const ga_bits *x, size_t n, uint32_t *at,
                       ga_bits *neg)
{
    const ga_bits sm = ga_sign_mask(f), nan_from = ga_nan_from(f);
    size_t m = 0;

    /* written for every input, kept for the positive ones: no branch */
    for (size_t i = 0; i < n; i++) {
        at[m] = (uint32_t)i;
        neg[m] = x[i] | sm;
        m += x[i] < nan_from;  /* sign clear, not NaN */
    }
    return m;
}

/* Whether v is a finite value of f. */
static bool is_finite(const struct ga_format *f, ga_bits v)
{
    return (v & ~ga_sign_mask(f)) < ga_finite_end(f);
}

/* The exact test, at a precision that holds every sum here exactly
 * (float64's values and ulps span 2^-1074 to 2^1024). */
static bool odd_breaks_mpfr(double x, double y_pos, double y_neg, double ulp_pos, double ulp_neg)
{
    mpfr_t r, t;
    bool breaks;

    mpfr_inits2(2200, r, t, (mpfr_ptr)0);
    mpfr_set_d(r, y_pos, MPFR_RNDN);
    mpfr_sub_d(r, r, y_neg, MPFR_RNDN);
    mpfr_sub_d(r, r, x, MPFR_RNDN);
    mpfr_abs(r, r, MPFR_RNDN);
    mpfr_mul_2ui(r, r, 1, MPFR_RNDN);          /* 2 |y_pos - y_neg - x| */
    mpfr_set_d(t, ulp_pos, MPFR_RNDN);
    mpfr_add_d(t, t, ulp_neg, MPFR_RNDN);
    breaks = mpfr_cmp(r, t) > 0;
    mpfr_clears(r, t, (mpfr_ptr)0);
    return breaks;
}

/* s = a + b rounded, and the rounding error a + b - s exactly (Knuth's
 * TwoSum, exact barring overflow). */
static double two_sum(double a, double b, double *error)
{
    double s = a + b, bb = s - a;
    *error = (a - (s - bb)) + (b - bb);
    return s;
}

/* ga_decode of a finite x, the float32 and float64 ones by the hardware. */
static inline double value_of(const struct ga_format *f, ga_bits x)
{
    if (f->id == GA_FLOAT32) {
        uint32_t b = (uint32_t)x;
        float v;
        memcpy(&v, &b, sizeof v);
        return v;
    }
    if (f->id == GA_FLOAT64) {
        double v;
        memcpy(&v, &x, sizeof v);
        return v;
    }
    return ga_decode(f, x);
}

/* ga_ulp(f, v) for a value v of f, from its double's exponent field: every
 * value of these formats but float64's subnormals is a normal double, and
 * those, like 0, take the subnormal ulp. */
static inline double ulp_of(const struct ga_format *f, double v)
{
    uint64_t bits;
    int e, u;

    memcpy(&bits, &v, sizeof bits);
    e = (int)((bits >> 52) & 0x7ff) - 1023;
    if (e < f->emin)
        e = f->emin;
    u = e - f->precision + 1;
    if (u < -1022)
        return ldexp(1.0, u);  /* float64's 2^-1074 */
    bits = (uint64_t)(u + 1023) << 52;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The test where the bound of ga_shape_odd_breaks does not decide: exact
 * when both steps are, else by MPFR. */
static __attribute__((noinline)) bool odd_breaks_near(double xd, double p, double q, double up,
                                                      double uq)
{
    double ulps = up + uq;
    double e1, e2, d = two_sum(p, -q, &e1), r = two_sum(d, -xd, &e2);
    double r2 = 2 * fabs(r);

    /* Both steps exact, and ulps a sum of two powers of 2 that did not round
     * (Sterbenz: ulps - up is then exact): compare exactly.  Outputs that are
     * both correctly rounded reach the bound exactly, in ties. */
    if (isfinite(r2) && e1 == 0 && e2 == 0 && ulps - up == uq)
        return r2 > ulps;
    return odd_breaks_mpfr(xd, p, q, up, uq);
}

/* The test 2 |p - q - x| > up + uq in doubles: r2 and ulps, and err, a
 * bound on how far r2 - ulps may be from its exact value.  r2 is within
 * 2^-52 (|p| + |q| + |x|) of the exact value's double (each step errs by
 * 2^-53 of its result, and a subnormal difference is exact) and ulps within
 * 2^-53 of its own: err bounds twice the first and the second, with a margin
 * for its own rounding.  Most pairs are decided by it, without a branch on
 * whether the steps were exact. */
struct odd_bound {
    double r2, ulps, err;
};

static inline struct odd_bound odd_bound_of(double xd, double p, double q, double up, double uq)
{
    double ulps = up + uq;

    return (struct odd_bound){ .r2 = 2 * fabs((p - q) - xd), .ulps = ulps,
                               .err = 0x1p-49 * (fabs(p) + fabs(q) + fabs(xd)) + 0x1p-52 * ulps };
}

bool ga_shape_odd_breaks(const struct ga_format *f, ga_bits x, ga_bits y_pos, ga_bits y_neg)
{
    double xd = value_of(f, x), p = value_of(f, y_pos), q = value_of(f, y_neg);
    double up = ulp_of(f, p), uq = ulp_of(f, q);
    struct odd_bound b = odd_bound_of(xd, p, q, up, uq);

    if (isfinite(b.r2)) {
        if (b.r2 > b.ulps + b.err)
            return true;
        if (b.r2 < b.ulps - b.err)
            return false;
    }
    return odd_breaks_near(xd, p, q, up, uq);
}

static void odd_break(struct ga_shape *s, ga_bits xp, ga_bits yp, ga_bits yn)
{
    s->odd_breaks++;
    if (before_input(ga_sign_mask(s->format), xp, &s->first_odd_break)) {
        s->first_odd_break = (struct ga_shape_point){ true, xp, yp };
        s->first_odd_break_neg = yn;
    }
}

/* A float32 encoding's value, and its ulp from the exponent field (the
 * subnormal ulp 2^-149 for fields 0 and 1). */
static inline double float32_value(ga_bits e)
{
    uint32_t b = (uint32_t)e;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static inline double float32_ulp(ga_bits e)
{
    uint64_t field = (e >> 23) & 0xff, bits = ((field > 0 ? field : 1) + 1023 - 150) << 52;
    double u;
    memcpy(&u, &bits, sizeof u);
    return u;
}

/* ga_shape_add_odd for float32, where the usual pair is decided by the
 * bound of ga_shape_odd_breaks without a branch (its sums of float32 values
 * cannot overflow a double). */
static void add_odd_float32(struct ga_shape *s, const ga_bits *x, const ga_bits *y,
                            const uint32_t *at, const ga_bits *y_neg, size_t m)
{
    const ga_bits finite_end = 0x7f800000;
    uint64_t pairs = 0;

    for (size_t k = 0; k < m; k++) {
        const ga_bits xp = x[at[k]], yp = y[at[k]], yn = y_neg[k];
        const bool finite = ((xp & 0x7fffffff) < finite_end) & ((yp & 0x7fffffff) < finite_end)
                            & ((yn & 0x7fffffff) < finite_end);
        const double xd = float32_value(xp), p = float32_value(yp), q = float32_value(yn);
        const double up = float32_ulp(yp), uq = float32_ulp(yn);
        const struct odd_bound b = odd_bound_of(xd, p, q, up, uq);

        pairs += finite;
        if (__builtin_expect(finite & !(b.r2 < b.ulps - b.err), 0)
            && (b.r2 > b.ulps + b.err || odd_breaks_near(xd, p, q, up, uq)))
            odd_break(s, xp, yp, yn);
    }
    s->odd_pairs += pairs;
}

void ga_shape_add_odd(struct ga_shape *s, const ga_bits *x, const ga_bits *y, const uint32_t *at,
                      const ga_bits *y_neg, size_t m)
{
    const struct ga_format *f = s->format;

    if (f->id == GA_FLOAT32) {
        add_odd_float32(s, x, y, at, y_neg, m);
        return;
    }
    for (size_t k = 0; k < m; k++) {
        ga_bits xp = x[at[k]], yp = y[at[k]], yn = y_neg[k];
        if (!is_finite(f, xp) || !is_finite(f, yp) || !is_finite(f, yn))
            continue;
        s->odd_pairs++;
        if (ga_shape_odd_breaks(f, xp, yp, yn))
            odd_break(s, xp, yp, yn);
    }
}

void ga_shape_copy_odd(struct ga_shape *into, const struct ga_shape *from)
{
    into->odd_pairs = from->odd_pairs;
    into->odd_breaks = from->odd_breaks;
    into->first_odd_break = from->first_odd_break;
    into->first_odd_break_neg = from->first_odd_break_neg;
}

static void merge_side(struct ga_shape_side *a, const struct ga_shape_side *b, ga_bits sign_mask)
{
    a->pairs += b->pairs;
    a->violations += b->violations;
    if (b->first.has)
        offer_violation(a, &b->first, sign_mask);
    if (b->worst.has)
        offer_violation(a, &b->worst, sign_mask);
}

int ga_shape_merge(struct ga_shape *into, const struct ga_shape *from)
{
    const ga_bits sm = ga_sign_mask(into->format);

    if (into->format != from->format || into->reference != from->reference
        || into->monotone != from->monotone || into->odd != from->odd)
        return -1;
    for (int i = 0; i < 2; i++)
        merge_side(&into->side[i], &from->side[i], sm);
    if (from->minimum.has && before_point(sm, from->minimum.x, from->minimum.y, &into->minimum))
        into->minimum = from->minimum;
    if (from->truth_minimum.has
        && before_point(sm, from->truth_minimum.x, from->truth_minimum.y, &into->truth_minimum))
        into->truth_minimum = from->truth_minimum;
    into->sign_errors += from->sign_errors;
    if (from->first_sign_error.has && before_input(sm, from->first_sign_error.x,
                                                   &into->first_sign_error))
        into->first_sign_error = from->first_sign_error;
    into->odd_pairs += from->odd_pairs;
    into->odd_breaks += from->odd_breaks;
    if (from->first_odd_break.has && before_input(sm, from->first_odd_break.x,
                                                  &into->first_odd_break)) {
        into->first_odd_break = from->first_odd_break;
        into->first_odd_break_neg = from->first_odd_break_neg;
    }
    /* runs merged in domain order: the pair between them */
    if (into->has_tail && from->has_head && into->tail_index + 1 == from->head_index) {
        ga_shape_join(into, &into->tail, &from->head);
        into->tail = from->tail;
        into->tail_index = from->tail_index;
        into->has_tail = from->has_tail;
    } else if (from->has_tail && into->has_head && from->tail_index + 1 == into->head_index) {
        ga_shape_join(into, &from->tail, &into->head);
        into->head = from->head;
        into->head_index = from->head_index;
        into->has_head = from->has_head;
    } else if (!into->has_head && !into->has_tail) {
        into->has_head = from->has_head;
        into->head = from->head;
        into->head_index = from->head_index;
        into->has_tail = from->has_tail;
        into->tail = from->tail;
        into->tail_index = from->tail_index;
    }
    return 0;
}
