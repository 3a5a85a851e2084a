/* One rounding decision per dy significand at a fixed x (backward_memo.h).
 *
 * Why a decision moves to other exponents: for dy normal and d(x) of kind
 * APPROX, ga_backward_truth is ga_backward_fast (ga_backward_special has
 * nothing to say, the MPFR path runs only where fast does not decide).
 * Replace dy by dy 2^j, j an integer: frexp(dy) keeps its mantissa, so pm is
 * the same double and e moves by j; v, m, a, b, t = dy base and e = RN(dy
 * delta) are doubles far inside the double range, multiplied by 2^j
 * exactly; ga_ulp and rounding into F commute with 2^j on F's normal
 * binades, carries into the next binade included, and an IEEE encoding
 * moves by j << mbits under that scaling (the carry out of the largest
 * binade is the encoding of infinity, 2^(emax+1)).  So every comparison
 * of the fast path comes out the same and its result, when it decides, is
 * the first one's times 2^j: the same rounded value moved by j exponent
 * steps, the same direction and mantissa, the exponent plus j.  That needs
 * both products' a, b and t inside the normal binades: the exact
 * exponent E (|v| in [2^(E-1), 2^E)) within [emin + 2, emax] gives
 * |a| > 2^emin and |b| < 2^(emax+1), with room for the 2^-48 margins and
 * for t = dy base within 2^-19 of T.
 *
 * Where MPFR decided (the fast path did not), that decision is not kept:
 * its exact value is another approximation, which the pairs at other
 * exponents would not have been given.
 * Two kinds of x have special results that carry as well, for dy normal:
 * ONE_ABOVE gives dy itself, exact value frexp(dy) (both move with 2^j);
 * VANISHING gives the same zero of sign -sign(dy) and the same tiny exact
 * value for every dy. */
#include "truth/backward_memo.h"

#include <stdlib.h>

int ga_backward_memo_init(struct ga_backward_memo *m, enum ga_function fn,
                          const struct ga_format *f)
{
    *m = (struct ga_backward_memo){ .fn = fn, .f = f, .generation = 1 };
    if (f->bits > 16 || !ga_has_infinity(f))
        return -1;
    m->mbits = ga_mantissa_bits(f);
    m->exp_field_max = (1u << ga_exponent_bits(f)) - 1;
    /* calloc: generation 0 is no memo's */
    m->entries = calloc((size_t)2 << m->mbits, sizeof *m->entries);
    return m->entries ? 0 : -1;
}

void ga_backward_memo_free(struct ga_backward_memo *m)
{
    free(m->entries);
    m->entries = NULL;
}

void ga_backward_memo_set_x(struct ga_backward_memo *m, ga_bits x, const struct ga_grad_value *g)
{
    m->x = x;
    m->g = g;
    m->generation++;
}

int ga_backward_memo_decide(struct ga_backward_memo *m, ga_bits dy, struct ga_truth *out)
{
    const struct ga_format *f = m->f;
    enum ga_grad_kind kind = m->g->kind;
    unsigned exp_field = (dy >> m->mbits) & m->exp_field_max;
    struct ga_backward_memo_entry *e = &m->entries[ga_backward_memo_key(m, dy)];

    if (!ga_backward_memo_kind(kind) || exp_field == 0 || exp_field == m->exp_field_max)
        return ga_backward_truth(m->fn, f, m->g, m->x, dy, out);
    out->tail = 0.0f;
    /* what ga_backward_truth does, knowing which step decided */
    if (kind == GA_GRAD_APPROX ? !ga_backward_fast(f, m->g, dy, out)
                               : !ga_backward_special(f, m->g, dy, out))
        return ga_backward_mpfr(m->fn, f, m->x, dy, out);
    if (e->generation != m->generation
        && (kind == GA_GRAD_VANISHING || ga_backward_memo_in_range(f, out->exact.exp)))
        *e = (struct ga_backward_memo_entry){ m->generation, out->rounded, out->direction,
                                              out->exact.mant, out->exact.exp, (long)exp_field };
    return GA_TRUTH_OK;
}
