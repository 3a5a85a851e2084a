#include "sweep/backward_stats.h"

#include <math.h>

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
static int wrong_sign(const struct ga_format *f, ga_bits dx, const struct ga_truth *t)
{
    if (ga_is_nan(f, dx) || ga_is_nan(f, t->rounded) || t->exact.mant == 0)
        return 0;
    if ((dx & ~ga_sign_mask(f)) == 0)  /* a zero: flushed, not turned */
        return 0;
    return ga_sign(f, dx) != ga_sign(f, t->rounded);  /* RN keeps the sign, zeros too */
}

static void region_add(struct ga_backward_region *r, const struct ga_format_layout *c,
                       uint64_t index, ga_bits x, ga_bits dy, ga_bits dx,
                       const struct ga_truth *t, const struct ga_error *e, int sign_error)
{
    const struct ga_format *f = c->format;
    double dyd = ga_decode(f, dy);

    r->count++;
    r->correct += (e->flags & GA_ERR_CORRECT) != 0;
    r->faithful += (e->flags & GA_ERR_FAITHFUL) != 0;
    r->nan_outputs += (e->flags & GA_ERR_NAN) != 0;
    r->not_nan += (e->flags & GA_ERR_NOT_NAN) != 0;
    r->inf_outputs += (e->flags & GA_ERR_INF) != 0;
    r->flushed += (e->flags & GA_ERR_FLUSHED) != 0;
    r->zero_sign += (e->flags & GA_ERR_ZERO_SIGN) != 0;
    r->sign_errors += (uint64_t)sign_error;
    if (isnan(e->ulp))
        return;
    r->ulp_count++;
    r->sum_ulp += e->ulp;
    if (r->worst.index == UINT64_MAX || e->ulp > r->max_ulp) {  /* the first of the largest */
        r->max_ulp = e->ulp;
        r->worst = (struct ga_backward_worst){ index, x, dy, dx, t->rounded, e->ulp };
    }
    if (isfinite(dyd) && !isnan(e->abs)) {
        double q = e->abs / ga_ulp(f, dyd);
        r->dy_ulp_count++;
        r->sum_dy_ulp += q;
        if (q > r->max_dy_ulp)
            r->max_dy_ulp = q;
    }
}

void ga_backward_stats_add(struct ga_backward_stats *s, const struct ga_format_layout *c,
                           uint64_t index, ga_bits x, ga_bits dy, ga_bits dx,
                           const struct ga_truth *t)
{
    const struct ga_format *f = c->format;
    struct ga_error e;
    double xd = ga_decode(f, x);
    int sign_error = wrong_sign(f, dx, t);

    ga_error_compute(c, dx, t, &e);
    region_add(&s->all, c, index, x, dy, dx, t, &e, sign_error);
    if (xd >= GA_ROOT_REGION_LO && xd <= GA_ROOT_REGION_HI) {
        region_add(&s->root, c, index, x, dy, dx, t, &e, sign_error);
        if (!(e.flags & GA_ERR_FAITHFUL) && !ga_is_nan(f, t->rounded)) {
            s->unfaithful_lo = fmin(s->unfaithful_lo, xd);  /* fmin ignores the NaN of none */
            s->unfaithful_hi = fmax(s->unfaithful_hi, xd);
        }
    }
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
