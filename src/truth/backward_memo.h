/* The backward truth for many dy at one x, one rounding decision per dy
 * significand: RN_F(dy 2^j d(x)) is RN_F(dy d(x)) 2^j while both products
 * lie well inside F's normal range, so a decision of the fast path
 * (ga_backward_fast) is kept per sign and mantissa field of dy and moved to
 * every exponent of dy (doc/oracle.md, 'The backward truth', scaling).
 * Every result is bit for bit what ga_backward_truth gives for the pair
 * (backward_memo_test compares them). */
#ifndef GA_BACKWARD_MEMO_H
#define GA_BACKWARD_MEMO_H

#include <stddef.h>
#include <stdint.h>

#include "truth/backward.h"

struct ga_backward_memo_entry {
    uint64_t generation;   /* valid when it is the memo's */
    ga_bits rounded;
    int8_t direction;
    double mant;
    long exp;              /* of the exact product, |T| in [2^(exp-1), 2^exp) */
    long dy_exp;           /* the exponent field of the dy decided */
};

struct ga_backward_memo {
    enum ga_function fn;
    const struct ga_format *f;
    int mbits;
    unsigned exp_field_max;   /* all ones: infinities and NaNs */
    const struct ga_grad_value *g;
    ga_bits x;
    uint64_t generation;
    struct ga_backward_memo_entry *entries;  /* 2^(bits - exponent bits) */
};

/* 0, or -1 when f is wider than 16 bits or has no infinity (then use
 * ga_backward_truth) or memory ran out. */
int ga_backward_memo_init(struct ga_backward_memo *m, enum ga_function fn,
                          const struct ga_format *f);
void ga_backward_memo_free(struct ga_backward_memo *m);

/* From now on x, with d(x) = *g (ga_grad_value): forgets the other x's
 * decisions. */
void ga_backward_memo_set_x(struct ga_backward_memo *m, ga_bits x, const struct ga_grad_value *g);

/* The pairs decided once and moved: dy normal, x of these kinds. */
static inline int ga_backward_memo_kind(enum ga_grad_kind kind)
{
    return kind == GA_GRAD_APPROX || kind == GA_GRAD_VANISHING || kind == GA_GRAD_ONE_ABOVE;
}

/* The exact product's exponent, |T| in [2^(exp-1), 2^exp), where a decision
 * moves (backward_memo.c). */
static inline int ga_backward_memo_in_range(const struct ga_format *f, long exp)
{
    return exp >= f->emin + 2 && exp <= f->emax;
}

/* dy's sign and mantissa field. */
static inline size_t ga_backward_memo_key(const struct ga_backward_memo *m, ga_bits dy)
{
    return ((size_t)(dy >> (m->f->bits - 1)) << m->mbits) | (dy & (((ga_bits)1 << m->mbits) - 1));
}

/* The pair computed, and its decision kept when it can move. */
int ga_backward_memo_decide(struct ga_backward_memo *m, ga_bits dy, struct ga_truth *out);

/* ga_backward_truth(fn, f, g, x, dy, out) for the memo's x: a decision kept
 * for dy's sign and mantissa, moved to dy's exponent, else decided now. */
static inline int ga_backward_memo_truth(struct ga_backward_memo *m, ga_bits dy,
                                         struct ga_truth *out)
{
    const struct ga_backward_memo_entry *e = &m->entries[ga_backward_memo_key(m, dy)];
    unsigned exp_field = (dy >> m->mbits) & m->exp_field_max;
    long j = (long)exp_field - e->dy_exp;

    if (e->generation != m->generation || exp_field == 0 || exp_field == m->exp_field_max)
        return ga_backward_memo_decide(m, dy, out);
    if (m->g->kind == GA_GRAD_VANISHING)  /* the same zero for every dy of a sign */
        j = 0;
    else if (!ga_backward_memo_in_range(m->f, e->exp + j))
        return ga_backward_memo_decide(m, dy, out);
    out->rounded = (ga_bits)((int64_t)e->rounded + j * ((int64_t)1 << m->mbits));
    out->direction = e->direction;
    out->exact.mant = e->mant;
    out->exact.exp = e->exp + j;
    out->tail = 0.0f;
    return GA_TRUTH_OK;
}

#endif
