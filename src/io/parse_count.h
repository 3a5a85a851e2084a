/* Numbers as the user writes them (domain fields, baseline counts and
 * timeouts, command-line options).  Whole numbers: decimal digits only, no
 * sign, no whitespace, no base prefix ("010" is ten), at most max. */
#ifndef GA_PARSE_COUNT_H
#define GA_PARSE_COUNT_H

#include <stdint.h>

enum ga_count_status {
    GA_COUNT_OK = 0,
    GA_COUNT_SYNTAX = -1,     /* empty, or a character that is not a decimal digit */
    GA_COUNT_TOO_LARGE = -2,  /* above max (or 2^64 - 1) */
};

enum ga_count_status ga_parse_count(const char *text, uint64_t max, uint64_t *out);

/* max_failures (a sweep's failure cap, baselines and --max-failures): a
 * count from 1 to 2^63 - 1.  0, or -1. */
int ga_parse_max_failures(const char *text, uint64_t *k);

/* A timeout as users write it, on the command line and in baselines: a
 * decimal number of seconds above 0 and at most GA_MAX_TIMEOUT ("10",
 * "0.5"; no sign, exponent, hex, inf or nan).  0, or -1. */
#define GA_MAX_TIMEOUT 86400
int ga_parse_timeout(const char *text, double *seconds);

/* The shortest decimal text that reads back as seconds; returns buf (32
 * bytes). */
const char *ga_timeout_text(double seconds, char buf[32]);

#endif
