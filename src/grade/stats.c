/* The statistics accumulator: start, add one input, merge, summarize.
 * Definitions in stats.h; the batch path of a sweep is in stats_batch.c. */
#include "grade/stats_add.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void point_reset(struct ga_stats_point *p)
{
    p->error = -1.0;
}

static void tally_init(struct ga_tally *t)
{
    memset(t, 0, sizeof *t);
    point_reset(&t->max_ulp);
    point_reset(&t->max_rel);
    point_reset(&t->max_abs);
    t->unfaithful_neg = t->unfaithful_pos = NO_MAGNITUDE;
    t->nonzero_min = NO_KEY;
    for (int i = 0; i < GA_FAULT_COUNT; i++)
        t->first_fault[i].key = NO_KEY;
}

const char *ga_fault_name(enum ga_fault fault)
{
    static const char *const names[GA_FAULT_COUNT] = {
        "flushed_to_zero", "nan", "inf", "wrong_zero_sign", "not_nan",
    };
    return fault < GA_FAULT_COUNT ? names[fault] : "?";
}

/* Keep the input of least key; equal keys are the same input. */
static void fault_offer(struct ga_fault_point *p, int64_t key, ga_bits x, ga_bits y,
                        const struct ga_exact *exact)
{
    if (key < p->key) {
        p->key = key;
        p->x = x;
        p->y = y;
        p->exact = *exact;
    }
}

void ga_stats_init(struct ga_stats *s, const struct ga_format *f)
{
    memset(s, 0, sizeof *s);
    s->format = f;
    ga_format_layout_init(&s->err, f);
    ga_region_bounds_init(&s->bounds, f);
    for (int r = 0; r < GA_REGION_COUNT; r++)
        tally_init(&s->region[r].tally);
    s->extent_min = INT64_MAX;
    s->extent_max = INT64_MIN;
}

struct ga_stats *ga_stats_new(const struct ga_format *f)
{
    struct ga_stats *s = malloc(sizeof *s);
    if (s)
        ga_stats_init(s, f);
    return s;
}

void ga_stats_free(struct ga_stats *s)
{
    free(s);
}

static ga_bits key_to_bits(int64_t key, ga_bits sign_mask)
{
    if (key < 0)
        return (ga_bits)~key | sign_mask;
    return (ga_bits)key;
}

void ga_stats_add_other(struct ga_tally *rs, const struct ga_region_bounds *b, ga_bits x,
                        ga_bits y, const struct ga_truth *t, const struct ga_error *e)
{
    static const unsigned fault_flags[GA_FAULT_COUNT] = {
        GA_ERR_FLUSHED, GA_ERR_NAN, GA_ERR_INF, GA_ERR_ZERO_SIGN, GA_ERR_NOT_NAN,
    };
    unsigned bucket;

    rs->faithful += (e->flags & GA_ERR_FAITHFUL) != 0;
    rs->flushed += (e->flags & GA_ERR_FLUSHED) != 0;
    rs->nan += (e->flags & GA_ERR_NAN) != 0;
    rs->inf += (e->flags & GA_ERR_INF) != 0;
    rs->wrong_zero_sign += (e->flags & GA_ERR_ZERO_SIGN) != 0;
    rs->not_nan += (e->flags & GA_ERR_NOT_NAN) != 0;
    for (int i = 0; i < GA_FAULT_COUNT; i++)
        if (e->flags & fault_flags[i])
            fault_offer(&rs->first_fault[i], value_key(x, b->sign_mask), x, y, &t->exact);

    if (e->distance == UINT64_MAX)
        bucket = (e->flags & GA_ERR_NOT_NAN) ? GA_DIST_NOT_NAN
               : GA_DIST_NAN;
    else
        bucket = (e->flags & GA_ERR_INF) ? GA_DIST_INF : ga_distance_bucket(e->distance);
    rs->distance[bucket]++;

    if (!(e->flags & GA_ERR_FAITHFUL)) {
        ga_bits mag = x & ~b->sign_mask;
        if (mag >= b->nan)
            return;  /* NaN inputs lie on no side of 0 */
        if (mag == 0)
            rs->unfaithful_zeros++;
        else if (x & b->sign_mask)
            rs->unfaithful_neg = mag < rs->unfaithful_neg ? mag : rs->unfaithful_neg;
        else
            rs->unfaithful_pos = mag < rs->unfaithful_pos ? mag : rs->unfaithful_pos;
    }
}

void ga_stats_add(struct ga_stats *s, ga_bits x, ga_bits y, const struct ga_truth *t)
{
    const struct ga_format_layout c = s->err;
    const struct ga_region_bounds b = s->bounds;
    add_one_in(&s->region[ga_region_of(&b, x, t->rounded)], &c, &b, x, y, t);
    ga_stats_widen_extent(s, &x, 1);
}

void ga_stats_widen_extent(struct ga_stats *s, const ga_bits *x, size_t n)
{
    struct ga_stats_extent e;

    ga_stats_batch_extent(s, x, n, &e);
    s->extent_min = e.lo < s->extent_min ? e.lo : s->extent_min;
    s->extent_max = e.hi > s->extent_max ? e.hi : s->extent_max;
}

void ga_stats_batch_extent(const struct ga_stats *s, const ga_bits *x, size_t n,
                           struct ga_stats_extent *e)
{
    const ga_bits sign_mask = s->bounds.sign_mask, nan = s->bounds.nan;
    int64_t lo = INT64_MAX, hi = INT64_MIN;

    for (size_t i = 0; i < n; i++) {
        int64_t key = (x[i] & ~sign_mask) >= nan ? lo : value_key(x[i], sign_mask);  /* NaN: none */
        lo = key < lo ? key : lo;
        key = (x[i] & ~sign_mask) >= nan ? hi : value_key(x[i], sign_mask);
        hi = key > hi ? key : hi;
    }
    e->lo = lo;
    e->hi = hi;
}

static void point_merge(struct ga_stats_point *into, const struct ga_stats_point *from)
{
    if (from->error >= 0.0)
        point_offer(into, from->error, from->x, from->y, &from->exact);
}

static void tally_merge(struct ga_tally *a, const struct ga_tally *b)
{
    a->correct += b->correct;
    a->faithful += b->faithful;
    a->flushed += b->flushed;
    a->nan += b->nan;
    a->inf += b->inf;
    a->wrong_zero_sign += b->wrong_zero_sign;
    a->not_nan += b->not_nan;
    a->unfaithful_zeros += b->unfaithful_zeros;
    for (int i = 0; i < GA_FAULT_COUNT; i++)
        fault_offer(&a->first_fault[i], b->first_fault[i].key, b->first_fault[i].x,
                    b->first_fault[i].y, &b->first_fault[i].exact);
    for (int i = 0; i < GA_DIST_BUCKETS; i++)
        a->distance[i] += b->distance[i];
    point_merge(&a->max_ulp, &b->max_ulp);
    point_merge(&a->max_rel, &b->max_rel);
    point_merge(&a->max_abs, &b->max_abs);
    if (b->unfaithful_neg < a->unfaithful_neg)
        a->unfaithful_neg = b->unfaithful_neg;
    if (b->unfaithful_pos < a->unfaithful_pos)
        a->unfaithful_pos = b->unfaithful_pos;
    if (b->nonzero_min < a->nonzero_min)
        a->nonzero_min = b->nonzero_min;
}

int ga_stats_merge(struct ga_stats *into, const struct ga_stats *from)
{
    if (into->format->id != from->format->id)
        return GA_STATS_MISMATCH;
    for (int r = 0; r < GA_REGION_COUNT; r++)
        if (tally_count(&into->region[r].tally)
            > COUNT_LIMIT - tally_count(&from->region[r].tally))
            return GA_STATS_FULL;
    for (int r = 0; r < GA_REGION_COUNT; r++) {
        struct ga_region_stats *a = &into->region[r];
        const struct ga_region_stats *b = &from->region[r];
        tally_merge(&a->tally, &b->tally);
        for (int i = 0; i < GA_ULP_SUM_BUCKETS; i++)
            a->ulp_sum[i] += b->ulp_sum[i];
        for (int i = 0; i < GA_ULP_BINS; i++)
            a->ulp_bins[i] += b->ulp_bins[i];
    }
    into->extent_min = from->extent_min < into->extent_min ? from->extent_min : into->extent_min;
    into->extent_max = from->extent_max > into->extent_max ? from->extent_max : into->extent_max;
    return GA_STATS_OK;
}

/* Regions [first, last] of a summary: one, or all of them. */
static bool region_span(enum ga_region r, int *first, int *last)
{
    if ((unsigned)r > GA_REGION_ALL)
        return false;
    *first = r == GA_REGION_ALL ? 0 : (int)r;
    *last = r == GA_REGION_ALL ? GA_REGION_COUNT - 1 : (int)r;
    return true;
}

static uint64_t bin_count(const struct ga_stats *s, int first, int last, unsigned bin)
{
    uint64_t n = 0;
    for (int i = first; i <= last; i++)
        n += s->region[i].ulp_bins[bin];
    return n;
}

uint64_t ga_stats_ulp_bin_count(const struct ga_stats *s, enum ga_region r, unsigned bin)
{
    int first, last;
    if (bin >= GA_ULP_BINS || !region_span(r, &first, &last))
        return 0;
    return bin_count(s, first, last, bin);
}

static struct ga_point point_out(const struct ga_stats_point *p)
{
    struct ga_point out;
    memset(&out, 0, sizeof out);
    if (p->error >= 0.0) {
        out.has = true;
        out.error = p->error;
        out.x = p->x;
        out.y = p->y;
        out.exact = p->exact;
    } else {
        out.error = NAN;
    }
    return out;
}

/* Upper edge of the bin of the ceil(percent/100 * measured)-th smallest error. */
static double percentile(const struct ga_stats *s, int first, int last, uint64_t measured,
                         unsigned percent)
{
    uint64_t rank = (measured * percent + 99) / 100;
    uint64_t seen = 0;
    if (measured == 0)
        return NAN;
    for (unsigned bin = 0; bin < GA_ULP_BINS; bin++) {
        seen += bin_count(s, first, last, bin);
        if (seen >= rank)
            return ga_ulp_bin_upper(bin);
    }
    return INFINITY;  /* unreachable: the bins add up to measured */
}

static double mean(const struct ga_stats *s, int first, int last, uint64_t finite)
{
    long double sum = 0.0L;
    if (finite == 0)
        return NAN;
    /* Fixed order, so the rounding of this sum is itself deterministic. */
    for (int i = GA_ULP_SUM_BUCKETS - 1; i >= 0; i--) {
        uint64_t bucket = 0;
        for (int r = first; r <= last; r++)
            bucket += s->region[r].ulp_sum[i];
        sum += ldexpl((long double)bucket, i + GA_ULP_SUM_MIN_EXP - 31);
    }
    return (double)(sum / (long double)finite);
}

int ga_stats_summarize(const struct ga_stats *s, enum ga_region r, struct ga_summary *out)
{
    int first, last;
    struct ga_tally acc;
    ga_bits sign_mask = s->bounds.sign_mask;
    uint64_t measured = 0;

    if (!region_span(r, &first, &last))
        return GA_STATS_BAD_REGION;
    memset(out, 0, sizeof *out);
    tally_init(&acc);
    for (int i = first; i <= last; i++)
        tally_merge(&acc, &s->region[i].tally);
    for (unsigned bin = 0; bin < GA_ULP_BINS; bin++)
        measured += bin_count(s, first, last, bin);

    out->region = r;
    out->count = tally_count(&acc);
    out->correctly_rounded = acc.correct;
    out->faithful = acc.correct + acc.faithful;
    out->measured = measured;
    out->finite = measured - bin_count(s, first, last, GA_ULP_BIN_INF);
    out->max_ulp = point_out(&acc.max_ulp);
    out->max_rel = point_out(&acc.max_rel);
    out->max_abs = point_out(&acc.max_abs);
    out->mean_ulp = mean(s, first, last, out->finite);
    out->p50 = percentile(s, first, last, measured, 50);
    out->p95 = percentile(s, first, last, measured, 95);
    out->p99 = percentile(s, first, last, measured, 99);
    out->flushed_to_zero = acc.flushed;
    out->nan = acc.nan;
    out->inf = acc.inf;
    out->wrong_zero_sign = acc.wrong_zero_sign;
    out->not_nan = acc.not_nan;
    for (int i = 0; i < GA_FAULT_COUNT; i++) {
        const struct ga_fault_point *p = &acc.first_fault[i];
        out->first_fault[i].has = p->key != NO_KEY;
        out->first_fault[i].error = NAN;
        if (out->first_fault[i].has) {
            out->first_fault[i].x = p->x;
            out->first_fault[i].y = p->y;
            out->first_fault[i].exact = p->exact;
        }
    }
    memcpy(out->distance, acc.distance, sizeof out->distance);
    out->distance[0] += acc.correct;

    out->faithful_interval.exists = acc.unfaithful_zeros == 0;
    if (out->faithful_interval.exists) {
        out->faithful_interval.has_lo = acc.unfaithful_neg != NO_MAGNITUDE;
        out->faithful_interval.lo = out->faithful_interval.has_lo ? acc.unfaithful_neg | sign_mask : 0;
        out->faithful_interval.has_hi = acc.unfaithful_pos != NO_MAGNITUDE;
        out->faithful_interval.hi = out->faithful_interval.has_hi ? acc.unfaithful_pos : 0;
    }
    out->faithful_interval.has_extent = s->extent_min <= s->extent_max;
    if (out->faithful_interval.has_extent) {
        out->faithful_interval.extent_lo = key_to_bits(s->extent_min, sign_mask);
        out->faithful_interval.extent_hi = key_to_bits(s->extent_max, sign_mask);
    }
    out->has_zero_below = acc.nonzero_min != NO_KEY;
    out->zero_below = out->has_zero_below ? key_to_bits(acc.nonzero_min, sign_mask) : 0;
    return GA_STATS_OK;
}

enum worst { WORST_ULP, WORST_REL, WORST_ABS };

static int refine_point(struct ga_point *p, const struct ga_format *f, enum worst which,
                        ga_stats_truth_fn truth, void *ctx)
{
    struct ga_truth t;
    struct ga_error e;
    int status;

    if (!p->has)
        return 0;
    status = truth(ctx, p->x, &t);
    if (status != 0)
        return status;
    ga_error_measure(f, p->y, &t, &e);
    p->error = which == WORST_ULP ? e.ulp : which == WORST_REL ? e.rel : e.abs;
    p->exact = t.exact;
    return 0;
}

int ga_summary_refine(struct ga_summary *s, const struct ga_format *f, ga_stats_truth_fn truth,
                      void *ctx)
{
    int status = refine_point(&s->max_ulp, f, WORST_ULP, truth, ctx);
    if (status == 0)
        status = refine_point(&s->max_rel, f, WORST_REL, truth, ctx);
    if (status == 0)
        status = refine_point(&s->max_abs, f, WORST_ABS, truth, ctx);
    for (int i = 0; i < GA_FAULT_COUNT && status == 0; i++) {
        struct ga_truth t;
        if (s->first_fault[i].has && (status = truth(ctx, s->first_fault[i].x, &t)) == 0)
            s->first_fault[i].exact = t.exact;
    }
    return status;
}

/* The context of a refinement by MPFR. */
struct mpfr_refiner {
    enum ga_function reference;
    const struct ga_format *format;
};

static int mpfr_truth(void *ctx, ga_bits x, struct ga_truth *out)
{
    const struct mpfr_refiner *r = ctx;
    return ga_truth_mpfr(r->reference, r->format, x, out);
}

int ga_stats_summary(const struct ga_stats *s, enum ga_function reference, enum ga_region r,
                     struct ga_summary *out)
{
    struct mpfr_refiner refiner = { reference, s->format };
    int status = ga_stats_summarize(s, r, out);

    if (status != GA_STATS_OK)
        return status;
    return ga_summary_refine(out, s->format, mpfr_truth, &refiner);
}
