/* Strict decimal whole numbers (parse_count.h): strtoull would take a sign,
 * leading spaces, "0x" and, with base 0, octal. */
#include "io/parse_count.h"

#include <stdbool.h>

enum ga_count_status ga_parse_count(const char *text, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    bool overflow = false;  /* the syntax is still checked to the end */

    if (*text == '\0')
        return GA_COUNT_SYNTAX;
    for (; *text; text++) {
        unsigned d = (unsigned)(*text - '0');
        if (d > 9)
            return GA_COUNT_SYNTAX;
        if (v > (UINT64_MAX - d) / 10)
            overflow = true;
        else
            v = v * 10 + d;
    }
    if (overflow || v > max)
        return GA_COUNT_TOO_LARGE;
    *out = v;
    return GA_COUNT_OK;
}
