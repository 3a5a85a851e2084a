/* Which of two outputs for one input is better (gelu-acc compare,
 * doc/compare.md "The rule"):
 * - the same encoding (any NaN matching any NaN): unchanged;
 * - otherwise the output nearer the exact value is better, a NaN or an
 *   infinity where the truth is finite lying infinitely far (and, where the
 *   truth is NaN, anything but a NaN);
 * - at equal distance, of two zeros the one with the exact value's sign is
 *   better; other outputs at equal distance are tied (counted unchanged).
 * Distances are the ulp errors of grade/error.h against the same exact
 * value, so two outputs on the same side of it never tie, and outputs on
 * opposite sides are ordered to within the ulp error's last bits. */
#ifndef GA_BETTER_H
#define GA_BETTER_H

#include "grade/error.h"

enum ga_verdict {
    GA_VERDICT_SAME,      /* the same encoding */
    GA_VERDICT_TIED,      /* different encodings, neither better */
    GA_VERDICT_BETTER,    /* B is better than A */
    GA_VERDICT_WORSE,     /* B is worse than A */
};

/* How far y lies from the exact value in ulps, as the rule measures it: +inf
 * for a NaN (or a non-NaN where the truth is NaN) and for an infinity where
 * the truth is finite; 0 for a NaN where the truth is NaN.  e is y's error. */
double ga_better_distance(const struct ga_format *f, ga_bits y, const struct ga_error *e,
                          const struct ga_truth *t);

/* B's output against A's for one input, with their errors ea, eb against t. */
enum ga_verdict ga_better_verdict(const struct ga_format *f, ga_bits a, const struct ga_error *ea,
                                  ga_bits b, const struct ga_error *eb, const struct ga_truth *t);

#endif
