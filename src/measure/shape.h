/* The shape of GELU as a kernel draws it (issue 13, item 6): monotonicity on
 * each side of the minimum, the kernel's own minimum against the truth's,
 * outputs of the wrong sign, and the odd identity gelu(x) - gelu(-x) = x.
 * Definitions in doc/metrics.md, "Shape".
 *
 * An accumulator like stats.h: fed chunk by chunk (a chunk is a run of
 * consecutive inputs in domain order), merged exactly (integer counts,
 * examples chosen by a total order), so every figure is the same whatever
 * the thread count or shard split.  Pairs that straddle two chunks are
 * judged by ga_shape_join from the chunks' edges; the accumulator of a run
 * of whole chunks keeps its own first and last input (head, tail) so that
 * runs merged in order join too. */
#ifndef GA_SHAPE_H
#define GA_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "truth/truth.h"

/* An input at a chunk's edge: its output and correctly rounded result;
 * measured false when its chunk was not measured (a failed batch). */
struct ga_shape_edge {
    bool measured;
    ga_bits x, y, rounded;
};

/* A monotonicity violation: adjacent inputs lo < hi whose outputs are
 * strictly ordered against the truth's order, steps apart (ordinal
 * distance). */
struct ga_shape_violation {
    bool has;
    ga_bits lo, hi, y_lo, y_hi;
    uint64_t steps;
};

/* One side of the minimum: pairs where the truth decreases (left of x0) or
 * increases (right of it). */
struct ga_shape_side {
    uint64_t pairs, violations;
    struct ga_shape_violation first;   /* least lower input */
    struct ga_shape_violation worst;   /* most steps, then least lower input */
};
enum { GA_SHAPE_LEFT, GA_SHAPE_RIGHT };

/* An input and its output (or correctly rounded result). */
struct ga_shape_point {
    bool has;
    ga_bits x, y;
};

struct ga_shape {
    const struct ga_format *format;
    enum ga_function reference;
    bool monotone;              /* adjacent inputs are judged (an ordered domain) */
    bool odd;                   /* the odd identity is measured */
    int64_t key_left, key_right;  /* certainly left of x0: key <= key_left; right: >= key_right */
    struct ga_shape_side side[2];
    struct ga_shape_point minimum;        /* least output, then least input */
    struct ga_shape_point truth_minimum;  /* least correctly rounded result */
    uint64_t sign_errors;                 /* nonzero output, sign opposite to a nonzero x's */
    struct ga_shape_point first_sign_error;  /* least input */
    uint64_t odd_pairs, odd_breaks;       /* x >= +0 with both outputs finite; broken */
    struct ga_shape_point first_odd_break;   /* least x; y is k(x) */
    ga_bits first_odd_break_neg;             /* k(-x) there */
    bool has_head, has_tail;              /* the first and last input fed, in domain order */
    uint64_t head_index, tail_index;
    struct ga_shape_edge head, tail;
};

/* An empty accumulator of outputs measured against `reference`; monotone:
 * the domain visits inputs in value order within each sign (ga_shape_ordered);
 * odd: the caller feeds ga_shape_add_odd. */
void ga_shape_init(struct ga_shape *s, const struct ga_format *f, enum ga_function reference,
                   bool monotone, bool odd);

/* Whether a domain's consecutive inputs of one sign are neighbours in value
 * order among the inputs swept: all, stride and range domains. */
struct ga_domain;
bool ga_shape_ordered(const struct ga_domain *d);

/* A chunk of consecutive inputs x[0..n), outputs y, truths t: the pairs
 * inside it, the minima, the sign errors.  Its edges are the caller's (the
 * sweep joins them, and sets head and tail). */
void ga_shape_add_chunk(struct ga_shape *s, const ga_bits *x, const ga_bits *y,
                        const struct ga_truth *t, size_t n);
/* The chunk's first or last input as an edge (unmeasured: measured = false). */
struct ga_shape_edge ga_shape_edge_of(ga_bits x, ga_bits y, const struct ga_truth *t);
/* The pair of consecutive inputs `before`, `after` (different chunks). */
void ga_shape_join(struct ga_shape *s, const struct ga_shape_edge *before,
                   const struct ga_shape_edge *after);

/* The positive inputs (sign clear, not NaN) of x[0..n): their indexes into
 * at[], their negations into neg[]; returns how many. */
size_t ga_shape_mirror(const struct ga_format *f, const ga_bits *x, size_t n, uint32_t *at,
                       ga_bits *neg);
/* The odd identity on m inputs x[at[k]] >= +0, with k(x) = y[at[k]] and
 * k(-x) = y_neg[k]. */
void ga_shape_add_odd(struct ga_shape *s, const ga_bits *x, const ga_bits *y, const uint32_t *at,
                      const ga_bits *y_neg, size_t m);
/* Whether |y_pos - y_neg - x| > ulp(y_pos)/2 + ulp(y_neg)/2, exactly
 * (finite values of f). */
bool ga_shape_odd_breaks(const struct ga_format *f, ga_bits x, ga_bits y_pos, ga_bits y_neg);

/* into's odd identity := from's, for a measurement of the same kernel's
 * outputs against another reference (the identity does not depend on it). */
void ga_shape_copy_odd(struct ga_shape *into, const struct ga_shape *from);

/* into += from, from's inputs disjoint from into's.  When from's head
 * follows into's tail in domain order (or into's head follows from's tail)
 * the pair between them is judged.  -1 when they differ in format,
 * reference or what they measure; into is then unchanged. */
int ga_shape_merge(struct ga_shape *into, const struct ga_shape *from);

#endif
