/* gelu-acc compare's results (doc/compare.md): text for the terminal,
 * a GitHub-flavoured Markdown block for a pull request, JSON with every
 * figure.  r holds A's and B's summaries (report/result.h), t the tally of
 * their outputs input by input (measure/compare_tally.h). */
#ifndef GA_COMPARE_PRINT_H
#define GA_COMPARE_PRINT_H

#include <stdio.h>

#include "measure/compare_tally.h"
#include "report/result.h"

/* Each returns 0, or -1 on a write error. */
int ga_compare_write_text(FILE *out, const struct ga_result r[2], const struct ga_compare_tally *t);
int ga_compare_write_markdown(FILE *out, const struct ga_result r[2],
                              const struct ga_compare_tally *t);
int ga_compare_write_json(FILE *out, const struct ga_result r[2], const struct ga_compare_tally *t);

/* The percentages of count[0..n) in total, in thousandths of a percent,
 * rounded so that they sum to exactly 100000 (largest remainders; all 0
 * when total is 0). */
void ga_compare_percents(const uint64_t *count, int n, uint64_t total, uint32_t *milli);

#endif
