/* Two kernels' outputs over the same inputs, input by input (gelu-acc
 * compare, doc/compare.md): how many inputs B improved, worsened or left
 * unchanged against A (grade/better.h), both distributions over the rows of
 * grade/bucket.h, the worst regressions and best improvements, and the
 * ranges of x where B is worse.  Fed chunk by chunk by a sweep that runs A
 * and B (ga_sweep_options.observe), from any thread, in any order: the
 * figures do not depend on either.  Memory: a few words per chunk of the
 * domain (the ranges join across chunks at the end), whatever its size. */
#ifndef GA_COMPARE_TALLY_H
#define GA_COMPARE_TALLY_H

#include <stdbool.h>
#include <stdint.h>

#include "grade/better.h"
#include "grade/bucket.h"
#include "measure/backward_sweep.h"
#include "measure/sweep.h"

/* Points and ranges kept for the report. */
#define GA_COMPARE_POINTS 10
#define GA_COMPARE_RANGES 10

/* One input where the sides differ. */
struct ga_compare_point {
    uint64_t index;              /* in the domain */
    ga_bits x, dy, a, b;         /* input (backward: the pair x, dy), A's and B's outputs */
    struct ga_exact exact;       /* MPFR's, once the tally is finished */
    double ulp_a, ulp_b;         /* the rule's distances (+inf: NaN, inf) */
    double key;                  /* how much worse (or better) B is: what orders the list */
};

/* A range of x where B is worse: a run of consecutive inputs of the domain,
 * of one sign, that starts and ends with an input where B is worse, holds
 * no input where B is better nor a NaN input, and no GA_COMPARE_GAP
 * consecutive inputs where B is not worse. */
#define GA_COMPARE_GAP 32
struct ga_compare_range {
    uint64_t first, last;        /* domain indices of its first and last worsened input
                                    (ranges by x: the encodings of those x) */
    uint64_t worsened;
    ga_bits lo, hi;              /* its worsened inputs' least and greatest x */
};

/* The ranges found: the largest listed, all counted. */
struct ga_compare_ranges {
    size_t count;
    struct ga_compare_range list[GA_COMPARE_RANGES];  /* most worsened first */
    uint64_t total;              /* every range, listed or not */
    uint64_t worsened;           /* the worsened inputs of every range */
};

/* Backward comparisons (pairs x, dy) of a format of 16 bits or fewer find
 * their ranges by x: each x counts the pairs where B is worse and better;
 * the encodings of x, in order, are then walked as a forward domain is,
 * an x being worse (weighing its worsened pairs) where B is worse on more
 * of its pairs than better, better where on fewer.  Elsewhere the ranges
 * follow the domain's order (for pairs x over a domain with one dy, x's). */
struct ga_compare_by_x {
    uint64_t *pairs, *worse, *better;   /* indexed by the encoding of x */
};

struct ga_compare_tally {
    const struct ga_format *format;
    struct ga_format_layout layout;
    enum ga_function reference;  /* backward: the derivative (GA_GELU_GRAD...) */
    bool backward;               /* inputs are pairs; views carry dy */
    uint64_t chunk_size;         /* inputs per view: GA_SWEEP_CHUNK or GA_BACKWARD_CHUNK */
    struct ga_compare_by_x by_x; /* NULL arrays unless ranges go by x */
    uint64_t inputs, same, tied, improved, worsened;  /* unchanged: same + tied */
    uint64_t bucket[2][GA_BUCKET_COUNT];              /* [0]: A, [1]: B */
    size_t regression_count, improvement_count;
    struct ga_compare_point regressions[GA_COMPARE_POINTS];   /* worst first */
    struct ga_compare_point improvements[GA_COMPARE_POINTS];  /* best first */
    struct ga_compare_ranges ranges;
    struct ga_compare_chunk *chunks;  /* the ranges open at each chunk's ends */
    uint64_t chunk_count;
};

/* A tally of f against `reference` over a domain of `size` inputs, fed by
 * a forward sweep, or by a backward sweep (pairs) when `backward`:
 * 0, or -1 out of memory. */
int ga_compare_tally_init(struct ga_compare_tally *t, const struct ga_format *f,
                          enum ga_function reference, uint64_t size, bool backward);

/* The observer a sweep of A and B calls (ctx: the tally); views of
 * chunk_size inputs, the last one shorter. */
void ga_compare_tally_observe(void *ctx, const struct ga_sweep_chunk_view *v);

/* After the sweep: join the ranges across chunks and give the listed points
 * MPFR's exact values.  0, or -1 when MPFR could not decide one. */
int ga_compare_tally_finish(struct ga_compare_tally *t);

void ga_compare_tally_free(struct ga_compare_tally *t);

#endif
