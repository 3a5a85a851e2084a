/* gelu-acc compare's results (doc/compare.md): text for the terminal,
 * a GitHub-flavoured Markdown block for a pull request, JSON with every
 * figure.  s holds A's and B's summaries, t the tally of their outputs
 * input by input (measure/compare_tally.h): inputs x forward, pairs
 * (x, dy) backward (t->backward). */
#ifndef GA_COMPARE_PRINT_H
#define GA_COMPARE_PRINT_H

#include <stdio.h>

#include "measure/backward_sweep.h"
#include "measure/compare_tally.h"
#include "report/result.h"

/* A side as the comparison summarizes it, forward or backward alike. */
struct ga_compare_side {
    const char *name;
    uint64_t count, correctly_rounded, faithful;
    double max_ulp;
    bool has_max;
    ga_bits max_x, max_dy;       /* where the max is: x, and dy backward */
    uint64_t flushed, nan, inf, wrong_zero_sign;
    uint64_t sign_errors;        /* backward: dx of the sign opposite to dy d(x) */
};

/* Both sides, and their full results for the JSON's "sides": A's and B's
 * forward results, or their backward sweeps and statistics. */
struct ga_compare_sides {
    struct ga_compare_side side[2];
    const char *domain;          /* the inputs both ran on, in words */
    enum ga_oracle oracle;       /* forward */
    const struct ga_result *results;
    const struct ga_backward_sweep *sweeps[2];
    const struct ga_backward_stats *stats[2];
};

/* A side from a forward result; from a backward sweep's statistics. */
void ga_compare_side_forward(struct ga_compare_side *side, const struct ga_result *r);
void ga_compare_side_backward(struct ga_compare_side *side, const char *name,
                              const struct ga_backward_stats *st);

/* Each returns 0, or -1 on a write error. */
int ga_compare_write_text(FILE *out, const struct ga_compare_sides *s,
                          const struct ga_compare_tally *t);
int ga_compare_write_markdown(FILE *out, const struct ga_compare_sides *s,
                              const struct ga_compare_tally *t);
int ga_compare_write_json(FILE *out, const struct ga_compare_sides *s,
                          const struct ga_compare_tally *t);

/* The percentages of count[0..n) in total, in thousandths of a percent,
 * rounded so that they sum to exactly 100000 (largest remainders; all 0
 * when total is 0). */
void ga_compare_percents(const uint64_t *count, int n, uint64_t total, uint32_t *milli);

#endif
