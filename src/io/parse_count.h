/* Whole numbers as the user writes them (domain fields, baseline counts,
 * command-line options): decimal digits only, no sign, no whitespace, no
 * base prefix ("010" is ten), at most max. */
#ifndef GA_PARSE_COUNT_H
#define GA_PARSE_COUNT_H

#include <stdint.h>

enum ga_count_status {
    GA_COUNT_OK = 0,
    GA_COUNT_SYNTAX = -1,     /* empty, or a character that is not a decimal digit */
    GA_COUNT_TOO_LARGE = -2,  /* above max (or 2^64 - 1) */
};

enum ga_count_status ga_parse_count(const char *text, uint64_t max, uint64_t *out);

#endif
