/* Numbers as reports print them: fixed significant digits, "inf", and
 * encodings with their decimal value, so every report is deterministic text. */
#ifndef GA_NUMBER_TEXT_H
#define GA_NUMBER_TEXT_H

#include <stddef.h>

#include "formats/format.h"
#include "grade/stats.h"

#define GA_TEXT_LEN 48
#define GA_INTERVAL_LEN (2 * GA_TEXT_LEN + 8)

/* An error figure with 4 significant digits ("1.5", "0.5002", "3.1e+07"),
 * "inf", or "-" for NaN (not measured). */
const char *ga_text_error(double v, char buf[GA_TEXT_LEN]);
/* A statistic of many inputs (mean, percentile) with 3 significant digits:
 * computed from the fast oracle's exact values it may differ from the MPFR
 * oracle's beyond that (doc/metrics.md). */
const char *ga_text_stat(double v, char buf[GA_TEXT_LEN]);
/* A value of f in decimal, with just enough digits to tell it apart. */
const char *ga_text_value(const struct ga_format *f, ga_bits x, char buf[GA_TEXT_LEN]);
/* A percentage of count/total with 3 decimals ("99.998"), "-" for total 0. */
const char *ga_text_percent(uint64_t count, uint64_t total, char buf[GA_TEXT_LEN]);
/* An exact value: "-1.0444259e-07", "-0.61*2^-5000000000" outside the double
 * range, "-<2^-1099511627776" below GA_EXACT_EXP_MIN. */
const char *ga_text_exact(const struct ga_exact *e, char buf[GA_TEXT_LEN]);
/* The same with a chosen number of significant digits (17: every bit). */
const char *ga_text_exact_digits(const struct ga_exact *e, int digits,
                                   char buf[GA_TEXT_LEN]);
/* The faithful interval as "(lo, hi)" with -inf/inf for a side that is
 * faithful all the way, or "none". */
/* Whether the faithful interval holds no measured input: the unfaithful input
 * nearest 0 (*nearest, when not NULL) lies beyond every measured input on
 * the other side of 0. */
bool ga_text_interval_empty(const struct ga_format *f, const struct ga_faithful_interval *fi,
                            ga_bits *nearest);
const char *ga_text_interval(const struct ga_format *f, const struct ga_faithful_interval *fi,
                               char buf[GA_INTERVAL_LEN]);

/* x rounded up to 4 significant digits, exactly as printed with %.3e (a
 * baseline's bound never below the measurement it records). */
double ga_round_up_4(double x);

#endif
