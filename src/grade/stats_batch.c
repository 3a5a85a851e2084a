/* ga_stats_add_batch: the batch path of the statistics accumulator.
 *
 * It runs for every input of a sweep (4.3e9 for float32), so it takes
 * shortcuts that leave every figure bit for bit as ga_stats_add would
 * (stats_test checks it on inputs built to reach each of them):
 * - consecutive inputs of one region are taken as a run, with that region's
 *   tests and float32's layout folded into a copy of the loops;
 * - an output equal to the truth, or the zero output of a truth far below
 *   it (three inputs in four of a float32 sweep), has errors 0 (0, 1, 0):
 *   such inputs are told by a few integer compares and only counted; of
 *   each kind, only the one the tie-break would prefer can reach a maximum;
 * - the other correctly rounded outputs and their neighbours get their
 *   errors computed as error.h does, stashed, then histogrammed and offered
 *   to the maxima in passes of their own (each with few variables, in
 *   registers; consecutive inputs often share a bin);
 * - when the caller asks for them (a plot profile takes them next), each
 *   input's ulp error is written as ga_error_ulp gives it: 0 for the errors
 *   0, the stashed ones, add_one_in's on the other paths (ga_error_ulp's
 *   for NaNs);
 * - everything else, and batches whose regions change at every input (a
 *   random domain), goes through ga_stats_add's code. */
#include "grade/stats_add.h"
#include "grade/stats_fast.h"

#include <math.h>
#include <string.h>

/* ga_stats_add for an input of region r.  Out of line, so that the loops
 * keep their registers. */
static __attribute__((noinline)) void add_slow(struct ga_stats *s, enum ga_region r, ga_bits x,
                                               ga_bits y, const struct ga_truth *t, double *ulp)
{
    double e = add_one_in(&s->region[r], &s->err, &s->bounds, x, y, t);
    if (ulp)
        *ulp = e;
}

/* Offers the errors of an input to the maxima of its region, exactly as
 * add_one_in does. */
static __attribute__((noinline)) void offer_maxima(struct ga_stats *s, struct ga_tally *rs,
                                                   ga_bits x, ga_bits y, const struct ga_truth *t)
{
    struct ga_error e;
    ga_error_compute(&s->err, y, t, &e);
    offer_errors(rs, &e, x, y, &t->exact);
}

static bool may_win(const struct ga_tally *rs, double ulp, double rel, double abs, ga_bits min_x)
{
    const struct ga_stats_point *p[3] = { &rs->max_ulp, &rs->max_rel, &rs->max_abs };
    const double e[3] = { ulp, rel, abs };

    for (int m = 0; m < 3; m++)
        if (e[m] > p[m]->error || (e[m] == p[m]->error && min_x <= p[m]->x))
            return true;
    return false;
}

/* The errors 0 of a run, counted but not offered: every FAST_EXACT input has
 * the same errors, and so has every FAST_UNDER one, so only the one of each
 * kind that wins the tie-break (least x, then y) can matter.  Rarely needed
 * once the region has seen a nonzero error: in the far left, where relative
 * errors 1 tie, when an x is no larger than the maximum's. */
static __attribute__((noinline)) void
settle_zeros(struct ga_stats *s, enum ga_region r, const ga_bits *x, const ga_bits *y,
             const struct ga_truth *t, size_t start, size_t end, bool any_exact, bool any_under,
             ga_bits min_x)
{
    struct ga_tally *rs = &s->region[r].tally;
    bool want_exact = any_exact && may_win(rs, 0.0, 0.0, 0.0, min_x);
    bool want_under = any_under && may_win(rs, 0.0, 1.0, 0.0, min_x);
    bool found[2] = { false, false };  /* the least (x, y) of each kind, in encoding order */
    size_t at[2] = { 0, 0 };

    if (!want_exact && !want_under)
        return;
    for (size_t i = start; i < end; i++) {
        /* the tests scan_zeros counted them by */
        int k = exact_output(&s->err, r, y[i], &t[i]) ? 0
              : under_output(&s->err, r, y[i], &t[i]) ? 1 : -1;
        if (k >= 0 && (!found[k] || x[i] < x[at[k]] || (x[i] == x[at[k]] && y[i] < y[at[k]]))) {
            found[k] = true;
            at[k] = i;
        }
    }
    if (want_exact && found[0])
        offer_maxima(s, rs, x[at[0]], y[at[0]], &t[at[0]]);
    if (want_under && found[1])
        offer_maxima(s, rs, x[at[1]], y[at[1]], &t[at[1]]);
}

/* The errors 0 of a run, as the scan below counts them. */
struct zeros {
    uint32_t exact, under;   /* FAST_EXACT and FAST_UNDER inputs */
    ga_bits min_x;           /* the least x of them */
    int64_t nonzero_min;     /* least value_key of the FAST_EXACT ones */
};

/* Inputs x[i], x[i+1], ... of region r and of one sign while they are
 * FAST_EXACT or FAST_UNDER (three in four in a float32 sweep); returns the
 * index of the first that is not, or n.  A loop of its own, in a function of
 * its own, so that the compiler gives its few variables registers.  With
 * one sign, value_key orders inputs like their encodings (reversed for
 * negative ones): the least key is that of an extreme encoding. */
static inline __attribute__((always_inline)) size_t
scan_zeros(const struct ga_format_layout *c, const struct ga_region_bounds *b,
           const enum ga_region r, const bool neg, const ga_bits *x, const ga_bits *y,
           const struct ga_truth *t, size_t i, size_t n, struct zeros *z)
{
    /* FAST_EXACT inputs in the low half of `count`, FAST_UNDER ones in the
     * high half (a batch has < 2^32 inputs) */
    const ga_bits *xp = x + i, *const end = x + n;
    const ga_bits *yp = y + i;
    const struct ga_truth *tp = t + i;
    uint64_t count = 0;
    ga_bits exact_lo = UINT64_MAX, exact_hi = 0, under_lo = UINT64_MAX;

    for (; xp < end; xp++, yp++, tp++) {
        const ga_bits xi = *xp;

        if (!in_region_signed(b, xi, tp->rounded, r, neg))
            break;
        /* fast_measure's first two answers */
        if (exact_output(c, r, *yp, tp)) {  /* y is not a zero */
            count++;
            exact_lo = xi < exact_lo ? xi : exact_lo;
            if (neg)
                exact_hi = xi > exact_hi ? xi : exact_hi;
        } else if (under_output(c, r, *yp, tp)) {  /* y is a zero */
            count += (uint64_t)1 << 32;
            under_lo = xi < under_lo ? xi : under_lo;
        } else {
            break;
        }
    }
    if ((uint32_t)count) {
        int64_t key = value_key(neg ? exact_hi : exact_lo, b->sign_mask);
        z->nonzero_min = key < z->nonzero_min ? key : z->nonzero_min;
    }
    z->exact += (uint32_t)count;
    z->under += (uint32_t)(count >> 32);
    exact_lo = under_lo < exact_lo ? under_lo : exact_lo;
    z->min_x = exact_lo < z->min_x ? exact_lo : z->min_x;
    return (size_t)(xp - x);
}

/* scan_zeros for x[i]'s region and sign. */
static inline __attribute__((always_inline)) size_t
scan_dispatch(const struct ga_format_layout *c, const struct ga_region_bounds *b, enum ga_region r,
              const ga_bits *x, const ga_bits *y, const struct ga_truth *t, size_t i, size_t n,
              struct zeros *z)
{
    const bool neg = (x[i] & b->sign_mask) != 0;
    switch (r) {
    case GA_REGION_FAR_LEFT:
        return scan_zeros(c, b, GA_REGION_FAR_LEFT, true, x, y, t, i, n, z);
    case GA_REGION_LEFT_TAIL:
        return scan_zeros(c, b, GA_REGION_LEFT_TAIL, true, x, y, t, i, n, z);
    case GA_REGION_CORE:
        return neg ? scan_zeros(c, b, GA_REGION_CORE, true, x, y, t, i, n, z)
                   : scan_zeros(c, b, GA_REGION_CORE, false, x, y, t, i, n, z);
    case GA_REGION_TINY:
        return neg ? scan_zeros(c, b, GA_REGION_TINY, true, x, y, t, i, n, z)
                   : scan_zeros(c, b, GA_REGION_TINY, false, x, y, t, i, n, z);
    case GA_REGION_RIGHT:
        return scan_zeros(c, b, GA_REGION_RIGHT, false, x, y, t, i, n, z);
    default:
        return i;
    }
}

/* With float32's layout folded in, or any layout. */
static const struct ga_format_layout float32_layout;
static const struct ga_region_bounds float32_bounds;

static __attribute__((noinline)) size_t
scan_float32(enum ga_region r, const ga_bits *x, const ga_bits *y, const struct ga_truth *t,
             size_t i, size_t n, struct zeros *z)
{
    return scan_dispatch(&float32_layout, &float32_bounds, r, x, y, t, i, n, z);
}

static __attribute__((noinline)) size_t
scan_any(const struct ga_stats *s, enum ga_region r, const ga_bits *x, const ga_bits *y,
         const struct ga_truth *t, size_t i, size_t n, struct zeros *z)
{
    const struct ga_format_layout c = s->err;
    const struct ga_region_bounds b = s->bounds;
    return scan_dispatch(&c, &b, r, x, y, t, i, n, z);
}

/* The errors of a stretch of FAST_ERROR and FAST_NEAR inputs, kept for the
 * passes below: each of them then runs with few variables, all in
 * registers.  A batch has fewer than 2^32 inputs. */
enum { STASH = 256 };
struct stash {
    size_t n;
    double max_ulp, max_rel, max_abs;  /* of the stashed errors */
    double ulp[STASH], rel[STASH], abs[STASH];
    uint32_t at[STASH];
};

/* The histogram bins and mean sums of the stashed ulp errors.  Consecutive
 * inputs of a sweep often fall in the same bin and bucket: counted in
 * registers, each reaches memory once per stretch rather than once per
 * input (a read-modify-write of one address waits for the previous one). */
static inline __attribute__((always_inline)) void
tally_ulps(struct ga_region_stats *region, const struct stash *st)
{
    unsigned bin = 0, bucket = 0;
    uint32_t bin_n = 0;
    uint64_t bucket_sum = 0;

    for (size_t k = 0; k < st->n; k++) {
        unsigned b = ga_ulp_bin(st->ulp[k]);
        uint64_t bits;
        if (b != bin) {
            region->ulp_bins[bin] += bin_n;
            bin = b;
            bin_n = 0;
        }
        bin_n++;
        /* sum_add, by stretches (these errors are finite, the bound is a
         * safeguard) */
        memcpy(&bits, &st->ulp[k], sizeof bits);
        unsigned biased = (unsigned)(bits >> 52);
        if (biased - (1023 + GA_ULP_SUM_MIN_EXP) < GA_ULP_SUM_BUCKETS) {
            if (biased - (1023 + GA_ULP_SUM_MIN_EXP) != bucket) {
                region->ulp_sum[bucket] += bucket_sum;
                bucket = biased - (1023 + GA_ULP_SUM_MIN_EXP);
                bucket_sum = 0;
            }
            bucket_sum += ((bits & (((uint64_t)1 << 52) - 1)) | (uint64_t)1 << 52) >> 21;
        }
    }
    region->ulp_bins[bin] += bin_n;
    region->ulp_sum[bucket] += bucket_sum;
}

/* Offers the stashed errors e[] to point p, as add_one_in does one by one:
 * offering is a maximum under a total order, so offering the winner alone
 * gives the same point, and when the largest error of the stash is below
 * the point's nothing changes. */
static __attribute__((noinline)) void
offer_stashed(struct ga_stats_point *p, const double *e, double max, const struct stash *st,
              const ga_bits *x, const ga_bits *y, const struct ga_truth *t)
{
    size_t best = SIZE_MAX;
    ga_bits bx = 0, by = 0;

    if (max < p->error)
        return;
    for (size_t k = 0; k < st->n; k++) {
        size_t i = st->at[k];
        if (e[k] == max && (best == SIZE_MAX || x[i] < bx || (x[i] == bx && y[i] < by))) {
            best = i;
            bx = x[i];
            by = y[i];
        }
    }
    point_offer(p, max, bx, by, &t[best].exact);
}

static __attribute__((noinline)) void
settle_stash(struct ga_region_stats *region, struct stash *st, const ga_bits *x,
             const ga_bits *y, const struct ga_truth *t, double *ulp)
{
    struct ga_tally *rs = &region->tally;
    if (ulp)
        for (size_t k = 0; k < st->n; k++)
            ulp[st->at[k]] = st->ulp[k];
    tally_ulps(region, st);
    if (st->max_ulp >= rs->max_ulp.error)
        offer_stashed(&rs->max_ulp, st->ulp, st->max_ulp, st, x, y, t);
    if (st->max_rel >= rs->max_rel.error)
        offer_stashed(&rs->max_rel, st->rel, st->max_rel, st, x, y, t);
    if (st->max_abs >= rs->max_abs.error)
        offer_stashed(&rs->max_abs, st->abs, st->max_abs, st, x, y, t);
}

/* Counts of FAST_NEAR inputs in one word, flushed with the stash (fewer than
 * 2^20 each): inputs, faithful ones, ones at distance 1. */
#define NEAR_ONE ((uint64_t)1)
#define NEAR_FAITHFUL ((uint64_t)1 << 21)
#define NEAR_DISTANCE_1 ((uint64_t)1 << 42)
#define NEAR_FIELD(v, shift) (((v) >> (shift)) & (((uint64_t)1 << 21) - 1))

static void near_flush(struct ga_tally *rs, uint64_t near)
{
    rs->correct -= NEAR_FIELD(near, 0);  /* the run counts them all as correct */
    rs->faithful += NEAR_FIELD(near, 21);
    rs->distance[1] += NEAR_FIELD(near, 42);
}

/* Inputs x[i], x[i+1], ... of region r while the fast path takes them and
 * they are not a stretch of errors 0 (which scan_zeros takes faster),
 * accounted as add_one_in would; returns the index of the first that it does
 * not take, or n.  The errors 0 are counted in *z. */
enum { ZERO_STRETCH = 8 };

static inline __attribute__((always_inline)) size_t
error_run(struct ga_stats *s, const enum ga_region r, const struct ga_format_layout *c,
          const struct ga_region_bounds *b, const ga_bits *x, const ga_bits *y,
          const struct ga_truth *t, size_t i, size_t n, struct zeros *z, double *ulp)
{
    struct ga_region_stats *region = &s->region[r];
    struct ga_tally *rs = &region->tally;
    struct stash st;
    int64_t nonzero_min = z->nonzero_min;
    uint64_t near = 0;
    /* FAST_EXACT in the low half, FAST_UNDER in the high half, as scan_zeros */
    uint64_t zeros = 0;
    ga_bits zero_min_x = z->min_x;
    unsigned stretch = 0;
    /* the stash's count and maxima, in registers until it is settled */
    size_t stashed = 0;
    double max_ulp = 0.0, max_rel = 0.0, max_abs = 0.0;

    for (; i < n; i++) {
        struct fast_error e;
        const ga_bits xi = x[i], yi = y[i];

        if (!in_region(b, xi, t[i].rounded, r))
            break;
        enum fast_kind kind = fast_measure(c, r, yi, &t[i], &e);
        if (kind == FAST_EXACT || kind == FAST_UNDER) {
            if (++stretch == ZERO_STRETCH)
                break;  /* over to scan_zeros, from this input */
            zero_min_x = xi < zero_min_x ? xi : zero_min_x;
            if (kind == FAST_EXACT) {  /* y is not a zero */
                int64_t key = key_in(b, r, xi);
                nonzero_min = key < nonzero_min ? key : nonzero_min;
                zeros++;
            } else {
                zeros += (uint64_t)1 << 32;
            }
            continue;
        }
        if (kind != FAST_ERROR && kind != FAST_NEAR)
            break;
        stretch = 0;
        if (kind == FAST_NEAR) {
            /* as add_other */
            near += NEAR_ONE + (e.faithful ? NEAR_FAITHFUL : 0);
            if (e.distance == 1)
                near += NEAR_DISTANCE_1;
            else
                rs->distance[ga_distance_bucket(e.distance)]++;
            if (!e.faithful) {  /* x is finite and nonzero here */
                ga_bits mag = xi & ~b->sign_mask;
                ga_bits *side = xi & b->sign_mask ? &rs->unfaithful_neg : &rs->unfaithful_pos;
                *side = mag < *side ? mag : *side;
            }
        }
        /* the division is cheap here: nothing waits for it */
        const double rel = e.q / e.am;
        st.ulp[stashed] = e.ulp;
        st.rel[stashed] = rel;
        st.abs[stashed] = e.abs;
        st.at[stashed] = (uint32_t)i;
        max_ulp = e.ulp > max_ulp ? e.ulp : max_ulp;
        max_rel = rel > max_rel ? rel : max_rel;
        max_abs = e.abs > max_abs ? e.abs : max_abs;
        if (++stashed == STASH) {
            st.n = stashed;
            st.max_ulp = max_ulp;
            st.max_rel = max_rel;
            st.max_abs = max_abs;
            settle_stash(region, &st, x, y, t, ulp);
            stashed = 0;
            max_ulp = max_rel = max_abs = 0.0;
            near_flush(rs, near);
            near = 0;
        }
        int64_t key = yi & ~b->sign_mask ? key_in(b, r, xi) : NO_KEY;
        nonzero_min = key < nonzero_min ? key : nonzero_min;
    }
    if (stashed) {
        st.n = stashed;
        st.max_ulp = max_ulp;
        st.max_rel = max_rel;
        st.max_abs = max_abs;
        settle_stash(region, &st, x, y, t, ulp);
    }
    near_flush(rs, near);
    z->nonzero_min = nonzero_min;
    z->min_x = zero_min_x;
    z->exact += (uint32_t)zeros;
    z->under += (uint32_t)(zeros >> 32);
    return i;
}

/* Inputs x[i], x[i+1], ... of region r (not the special one) while the fast
 * path takes them; returns the index of the first it does not take, or n. */
static inline __attribute__((always_inline)) size_t
add_run(struct ga_stats *s, const bool float32, const enum ga_region r,
        const struct ga_format_layout *c, const struct ga_region_bounds *b, const ga_bits *x,
        const ga_bits *y, const struct ga_truth *t, size_t i, size_t n, double *ulp)
{
    struct ga_region_stats *region = &s->region[r];
    struct ga_tally *rs = &region->tally;
    const size_t start = i;
    struct zeros z = { 0, 0, UINT64_MAX, NO_KEY };
    struct fast_error e;

    if (fast_measure(c, r, y[i], &t[i], &e) == FAST_NONE)
        return i;  /* straight to add_slow */
    for (;;) {
        size_t from = i;
        i = float32 ? scan_float32(r, x, y, t, i, n, &z) : scan_any(s, r, x, y, t, i, n, &z);
        i = error_run(s, r, c, b, x, y, t, i, n, &z, ulp);
        if (i == from || i == n)
            break;
    }
    rs->correct += i - start;
    region->ulp_bins[0] += z.exact + z.under;
    if (z.nonzero_min < rs->nonzero_min)
        rs->nonzero_min = z.nonzero_min;
    if (z.exact + z.under)
        settle_zeros(s, r, x, y, t, start, i, z.exact != 0, z.under != 0, z.min_x);
    return i;
}

/* Inputs x[i], x[i+1], ... while x, y and the correctly rounded result are
 * NaN; returns the index of the first that is not, or n.  add_one_in counts
 * such an input as correctly rounded and nothing else: its errors are NaN,
 * and a NaN x lies on no side of 0. */
static inline __attribute__((always_inline)) size_t
add_nans(struct ga_stats *s, const struct ga_format_layout *c, const ga_bits *x,
         const ga_bits *y, const struct ga_truth *t, size_t i, size_t n, double *ulp)
{
    const size_t start = i;
    while (i < n && (x[i] & ~c->sign_mask) >= c->nan_magnitude
           && (y[i] & ~c->sign_mask) >= c->nan_magnitude
           && (t[i].rounded & ~c->sign_mask) >= c->nan_magnitude)
        i++;
    s->region[GA_REGION_SPECIAL].tally.correct += i - start;
    for (size_t k = start; ulp && k < i; k++)
        ulp[k] = ga_error_ulp(c, y[k], &t[k]);
    return i;
}

/* Inputs x[i], x[i+1], ... of region r: a run of the fast path, or one
 * input for add_slow; returns the index of the next input. */
static inline __attribute__((always_inline)) size_t
add_some(struct ga_stats *s, const bool float32, const struct ga_format_layout *c,
         const struct ga_region_bounds *b, enum ga_region r, const ga_bits *x, const ga_bits *y,
         const struct ga_truth *t, size_t i, size_t n, double *ulp)
{
    size_t end = i;
    /* one copy of the loops per region, each with its region folded in */
    switch (r) {
    case GA_REGION_FAR_LEFT:
        end = add_run(s, float32, GA_REGION_FAR_LEFT, c, b, x, y, t, i, n, ulp);
        break;
    case GA_REGION_LEFT_TAIL:
        end = add_run(s, float32, GA_REGION_LEFT_TAIL, c, b, x, y, t, i, n, ulp);
        break;
    case GA_REGION_CORE:
        end = add_run(s, float32, GA_REGION_CORE, c, b, x, y, t, i, n, ulp);
        break;
    case GA_REGION_TINY:
        end = add_run(s, float32, GA_REGION_TINY, c, b, x, y, t, i, n, ulp);
        break;
    case GA_REGION_RIGHT:
        end = add_run(s, float32, GA_REGION_RIGHT, c, b, x, y, t, i, n, ulp);
        break;
    default:  /* NaN, +-inf, +-0 */
        end = add_nans(s, c, x, y, t, i, n, ulp);
        break;
    }
    if (end == i)
        add_slow(s, r, x[i], y[i], &t[i], ulp ? &ulp[i] : NULL);
    return end == i ? i + 1 : end;
}

/* The batch loop over runs of one region. */
static inline __attribute__((always_inline)) void
add_all(struct ga_stats *s, const bool float32, const struct ga_format_layout *c,
        const struct ga_region_bounds *b, const ga_bits *x, const ga_bits *y,
        const struct ga_truth *t, size_t n, double *ulp)
{
    for (size_t i = 0; i < n;)
        i = add_some(s, float32, c, b, ga_region_of(b, x[i], t[i].rounded), x, y, t, i, n, ulp);
}

/* ga_stats_add one by one: for the inputs of a random domain, whose regions
 * change at almost every input, a run would cost more to set up than it
 * saves. */
static __attribute__((noinline)) void add_each(struct ga_stats *s, const ga_bits *x,
                                               const ga_bits *y, const struct ga_truth *t,
                                               size_t n, double *ulp)
{
    const struct ga_format_layout c = s->err;
    const struct ga_region_bounds b = s->bounds;
    for (size_t i = 0; i < n; i++) {
        double e = add_one_in(&s->region[ga_region_of(&b, x[i], t[i].rounded)], &c, &b, x[i],
                              y[i], &t[i]);
        if (ulp)
            ulp[i] = e;
    }
}

/* Whether the region changes at more than one input in eight among the
 * first 64 (a sweep's batch changes a few times at most). */
static bool scattered(const struct ga_region_bounds *b, const ga_bits *x,
                      const struct ga_truth *t, size_t n)
{
    size_t m = n < 64 ? n : 64, changes = 0;
    enum ga_region last = m ? ga_region_of(b, x[0], t[0].rounded) : GA_REGION_SPECIAL;
    for (size_t i = 1; i < m; i++) {
        enum ga_region r = ga_region_of(b, x[i], t[i].rounded);
        changes += r != last;
        last = r;
    }
    return changes * 8 > m;
}

/* The layout of float32 (doc/formats.md) as constants, for the one
 * sweep that is long: the compiler folds them into its loops.  Used only for
 * an accumulator whose own layout equals it, so the results are the same. */
static const struct ga_format_layout float32_layout = {
    .mbits = 23, .emin = -126, .emax = 127, .precision = 24,
    .sign_mask = 0x80000000u, .inf_magnitude = 0x7f800000u, .nan_magnitude = 0x7f800001u,
    .bias = 127, .min_normal = 0x00800000u,
    .ulp_exp_min = -149, .subnormal_unit = 0x1p-149, .two_p = 0x1p24,
    .value_shift = 29, .sign_shift = 32, .value_bias = (uint64_t)(1023 - 127) << 52,
    .inline_exp_span = 128 + 126,  /* emax + 1 - emin */
};
static const struct ga_region_bounds float32_bounds = {
    .sign_mask = 0x80000000u,
    .tiny = 0x3a800000u,  /* 2^-10 */
    .tail = 0x40400000u,  /* 3 */
    .inf = 0x7f800000u,
    .nan = 0x7f800001u,
};

static __attribute__((noinline)) void add_float32(struct ga_stats *s, const ga_bits *x,
                                                  const ga_bits *y, const struct ga_truth *t,
                                                  size_t n, double *ulp)
{
    add_all(s, true, &float32_layout, &float32_bounds, x, y, t, n, ulp);
}

static __attribute__((noinline)) void add_any(struct ga_stats *s, const ga_bits *x,
                                              const ga_bits *y, const struct ga_truth *t,
                                              size_t n, double *ulp)
{
    const struct ga_format_layout c = s->err;
    const struct ga_region_bounds b = s->bounds;
    add_all(s, false, &c, &b, x, y, t, n, ulp);
}

static bool is_float32(const struct ga_format_layout *c, const struct ga_region_bounds *b)
{
    const struct ga_format_layout *k = &float32_layout;
    return c->mbits == k->mbits && c->emin == k->emin && c->emax == k->emax
        && c->precision == k->precision && c->sign_mask == k->sign_mask
        && c->inf_magnitude == k->inf_magnitude && c->nan_magnitude == k->nan_magnitude
        && c->bias == k->bias && c->min_normal == k->min_normal
        && c->ulp_exp_min == k->ulp_exp_min && c->subnormal_unit == k->subnormal_unit
        && c->two_p == k->two_p && c->value_shift == k->value_shift
        && c->sign_shift == k->sign_shift && c->value_bias == k->value_bias
        && c->inline_exp_span == k->inline_exp_span
        && memcmp(b, &float32_bounds, sizeof *b) == 0;
}

int ga_stats_add_batch(struct ga_stats *s, const ga_bits *x, const ga_bits *y,
                       const struct ga_truth *t, size_t n)
{
    struct ga_stats_extent e;

    ga_stats_batch_extent(s, x, n, &e);
    return ga_stats_add_batch_in(s, x, y, t, n, &e, NULL);
}

int ga_stats_add_batch_in(struct ga_stats *s, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n, const struct ga_stats_extent *e,
                          double *ulp)
{
    for (int r = 0; r < GA_REGION_COUNT; r++)
        if (n > COUNT_LIMIT || tally_count(&s->region[r].tally) > COUNT_LIMIT - n)
            return GA_STATS_FULL;
    if (ulp)  /* the errors 0 are not written one by one (all bits 0: +0) */
        memset(ulp, 0, n * sizeof *ulp);
    if (scattered(&s->bounds, x, t, n))
        add_each(s, x, y, t, n, ulp);
    else if (is_float32(&s->err, &s->bounds))
        add_float32(s, x, y, t, n, ulp);
    else
        add_any(s, x, y, t, n, ulp);
    s->extent_min = e->lo < s->extent_min ? e->lo : s->extent_min;
    s->extent_max = e->hi > s->extent_max ? e->hi : s->extent_max;
    return GA_STATS_OK;
}
