#include "grade/backward_stats.h"

#include <math.h>
#include <string.h>

static void region_init(struct ga_backward_region *r)
{
    *r = (struct ga_backward_region){ 0 };
    r->worst.index = UINT64_MAX;
}

void ga_backward_stats_init(struct ga_backward_stats *s)
{
    region_init(&s->all);
    region_init(&s->root);
    s->failed_pairs = s->failed_batches = 0;
    s->unfaithful_lo = s->unfaithful_hi = NAN;
}

/* dx of the sign opposite to a nonzero exact product. */
static int wrong_sign(const struct ga_format_layout *c, ga_bits dx, const struct ga_truth *t)
{
    ga_bits dx_mag = dx & ~c->sign_mask;

    if (dx_mag >= c->nan_magnitude || (t->rounded & ~c->sign_mask) >= c->nan_magnitude
        || t->exact.mant == 0)
        return 0;
    if (dx_mag == 0)  /* a zero: flushed, not turned */
        return 0;
    return ((dx ^ t->rounded) & c->sign_mask) != 0;  /* RN keeps the sign, zeros too */
}

/* A region's sums over a run of pairs, kept in locals: the flags (with the
 * sign error as bit 7) counted in a table and folded into the counters at
 * the end (integer counts, so the same as counting one by one); the sums of
 * doubles added pair by pair in order, as one by one. */
struct run_sums {
    uint64_t by_flags[256];   /* valid where touched has the key's bit */
    uint64_t touched[4];
    struct ga_backward_region r;
};

enum { SIGN_ERROR_BIT = 1u << 7 };

static void run_begin(struct run_sums *a, const struct ga_backward_region *r)
{
    memset(a->touched, 0, sizeof a->touched);
    a->r = *r;
}

static void run_end(const struct run_sums *a, struct ga_backward_region *r)
{
    *r = a->r;
    for (unsigned w = 0; w < 4; w++)
        for (uint64_t bits = a->touched[w]; bits != 0; bits &= bits - 1) {
            unsigned k = w * 64 + (unsigned)__builtin_ctzll(bits);
            uint64_t n = a->by_flags[k];
            r->count += n;
            r->correct += k & GA_ERR_CORRECT ? n : 0;
            r->faithful += k & GA_ERR_FAITHFUL ? n : 0;
            r->nan_outputs += k & GA_ERR_NAN ? n : 0;
            r->not_nan += k & GA_ERR_NOT_NAN ? n : 0;
            r->inf_outputs += k & GA_ERR_INF ? n : 0;
            r->flushed += k & GA_ERR_FLUSHED ? n : 0;
            r->zero_sign += k & GA_ERR_ZERO_SIGN ? n : 0;
            r->sign_errors += k & SIGN_ERROR_BIT ? n : 0;
        }
}

/* One pair's error into a region: ulp over pairs with a finite truth and a
 * non-NaN dx, the dy-ulp error over those with dy finite too (q is NaN
 * otherwise: dy_ulp_inverse is NaN for a dy not finite). */
static inline __attribute__((always_inline)) void
run_add(struct run_sums *a, unsigned key, uint64_t index, ga_bits x, ga_bits dy, ga_bits dx,
        const struct ga_truth *t, const struct ga_error *e, double q)
{
    struct ga_backward_region *r = &a->r;

    uint64_t bit = (uint64_t)1 << (key & 63);

    if (!(a->touched[key >> 6] & bit)) {
        a->touched[key >> 6] |= bit;
        a->by_flags[key] = 0;
    }
    a->by_flags[key]++;
    if (isnan(e->ulp))
        return;
    r->ulp_count++;
    r->sum_ulp += e->ulp;
    if (r->worst.index == UINT64_MAX || e->ulp > r->max_ulp) {  /* the first of the largest */
        r->max_ulp = e->ulp;
        r->worst = (struct ga_backward_worst){ index, x, dy, dx, t->rounded, e->ulp };
    }
    if (!isnan(q)) {
        r->dy_ulp_count++;
        r->sum_dy_ulp += q;
        if (q > r->max_dy_ulp)
            r->max_dy_ulp = q;
    }
}

/* The inverse of dy's ulp (NaN where its value is not finite), without
 * tables: kept for the next pair, since an x domain has one dy for all. */
struct last_dy {
    ga_bits dy;
    double inverse;
};

static inline double ulp_inverse_of(const struct ga_format *f, struct last_dy *last, ga_bits dy)
{
    if (dy != last->dy || isnan(last->inverse)) {
        double v = ga_decode(f, dy);
        last->dy = dy;
        last->inverse = isfinite(v) ? 1 / ga_ulp(f, v) : NAN;
    }
    return last->inverse;
}

/* m pairs with one x into the run sums (into in_root too where root, a
 * constant where inlined, so each case gets its own loop); whether a pair
 * in the root region was unfaithful. */
static inline __attribute__((always_inline)) bool
add_run(struct run_sums *all, struct run_sums *in_root, bool root,
        const struct ga_format_layout *c, const struct ga_backward_tables *tables,
        struct last_dy *last, uint64_t index, size_t m, ga_bits x, const ga_bits *dy,
        const ga_bits *dx, const struct ga_truth *t, struct ga_error *errors)
{
    bool unfaithful = false;

    for (size_t i = 0; i < m; i++) {
        struct ga_error e;
        double q;
        unsigned key;
        ga_error_compute(c, dx[i], &t[i], &e);
        if (errors)
            errors[i] = e;
        /* |dx - dy d(x)| / ulp(dy): a power of 2, exact inverse */
        q = e.abs * (tables ? tables->ulp_inverse[dy[i]] : ulp_inverse_of(c->format, last, dy[i]));
        key = e.flags | (wrong_sign(c, dx[i], &t[i]) ? SIGN_ERROR_BIT : 0);
        run_add(all, key, index + i, x, dy[i], dx[i], &t[i], &e, q);
        if (root) {
            run_add(in_root, key, index + i, x, dy[i], dx[i], &t[i], &e, q);
            unfaithful |= !(e.flags & GA_ERR_FAITHFUL)
                          && (t[i].rounded & ~c->sign_mask) < c->nan_magnitude;
        }
    }
    return unfaithful;
}

void ga_backward_stats_add_pairs(struct ga_backward_stats *s, const struct ga_format_layout *c,
                                 uint64_t index, size_t n, const ga_bits *x, const ga_bits *dy,
                                 const ga_bits *dx, const struct ga_truth *t,
                                 const struct ga_backward_tables *tables, struct ga_error *errors)
{
    struct run_sums all, in_root;
    struct last_dy last = { 0, NAN };

    run_begin(&all, &s->all);
    run_begin(&in_root, &s->root);
    for (size_t i = 0, m; i < n; i += m) {
        double xd = tables ? tables->value[x[i]] : ga_decode(c->format, x[i]);
        bool root = xd >= GA_ROOT_REGION_LO && xd <= GA_ROOT_REGION_HI, unfaithful;
        struct ga_error *e = errors ? errors + i : NULL;
        for (m = 1; i + m < n && x[i + m] == x[i]; m++)
            ;
        unfaithful = root ? add_run(&all, &in_root, true, c, tables, &last, index + i, m, x[i],
                                    dy + i, dx + i, t + i, e)
                          : add_run(&all, &in_root, false, c, tables, &last, index + i, m, x[i],
                                    dy + i, dx + i, t + i, e);
        if (unfaithful) {
            s->unfaithful_lo = fmin(s->unfaithful_lo, xd);  /* fmin ignores the NaN of none */
            s->unfaithful_hi = fmax(s->unfaithful_hi, xd);
        }
    }
    run_end(&all, &s->all);
    run_end(&in_root, &s->root);
}

void ga_backward_stats_add(struct ga_backward_stats *s, const struct ga_format_layout *c,
                           uint64_t index, ga_bits x, ga_bits dy, ga_bits dx,
                           const struct ga_truth *t, struct ga_error *e)
{
    ga_backward_stats_add_pairs(s, c, index, 1, &x, &dy, &dx, t, NULL, e);
}

static void region_merge(struct ga_backward_region *a, const struct ga_backward_region *b)
{
    a->count += b->count;
    a->correct += b->correct;
    a->faithful += b->faithful;
    a->sign_errors += b->sign_errors;
    a->nan_outputs += b->nan_outputs;
    a->not_nan += b->not_nan;
    a->inf_outputs += b->inf_outputs;
    a->flushed += b->flushed;
    a->zero_sign += b->zero_sign;
    a->sum_ulp += b->sum_ulp;
    a->ulp_count += b->ulp_count;
    a->sum_dy_ulp += b->sum_dy_ulp;
    a->dy_ulp_count += b->dy_ulp_count;
    if (b->max_dy_ulp > a->max_dy_ulp)
        a->max_dy_ulp = b->max_dy_ulp;
    /* b's pairs come later: it wins only with a strictly larger error */
    if (b->worst.index != UINT64_MAX
        && (a->worst.index == UINT64_MAX || b->max_ulp > a->max_ulp)) {
        a->max_ulp = b->max_ulp;
        a->worst = b->worst;
    }
}

void ga_backward_stats_merge(struct ga_backward_stats *into, const struct ga_backward_stats *from)
{
    region_merge(&into->all, &from->all);
    region_merge(&into->root, &from->root);
    if (into->failed_batches == 0 && from->failed_batches > 0)
        into->failure = from->failure;
    into->failed_pairs += from->failed_pairs;
    into->failed_batches += from->failed_batches;
    into->unfaithful_lo = fmin(into->unfaithful_lo, from->unfaithful_lo);
    into->unfaithful_hi = fmax(into->unfaithful_hi, from->unfaithful_hi);
}

struct ga_backward_sums ga_backward_sums_of(const struct ga_backward_stats *s)
{
    return (struct ga_backward_sums){ s->all.sum_ulp, s->all.sum_dy_ulp, s->root.sum_ulp,
                                      s->root.sum_dy_ulp };
}

void ga_backward_sums_set(struct ga_backward_stats *s, const struct ga_backward_sums *sums)
{
    s->all.sum_ulp = sums->ulp;
    s->all.sum_dy_ulp = sums->dy_ulp;
    s->root.sum_ulp = sums->root_ulp;
    s->root.sum_dy_ulp = sums->root_dy_ulp;
}

void ga_backward_sums_add(struct ga_backward_sums *into, const struct ga_backward_sums *from)
{
    into->ulp += from->ulp;
    into->dy_ulp += from->dy_ulp;
    into->root_ulp += from->root_ulp;
    into->root_dy_ulp += from->root_dy_ulp;
}
