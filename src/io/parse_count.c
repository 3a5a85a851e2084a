/* Strict decimal whole numbers (parse_count.h): strtoull would take a sign,
 * leading spaces, "0x" and, with base 0, octal. */
#include "io/parse_count.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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

int ga_parse_max_failures(const char *text, uint64_t *k)
{
    uint64_t v;

    if (ga_parse_count(text, INT64_MAX, &v) != GA_COUNT_OK || v == 0)
        return -1;
    *k = v;
    return 0;
}

int ga_parse_timeout(const char *text, double *seconds)
{
    const char *c = text;
    char *end;
    double v;

    /* digits, optionally a point and more digits: what strtod takes beyond
     * that (signs, exponents, hex, inf, nan) is refused first */
    while (*c >= '0' && *c <= '9')
        c++;
    if (c == text || (*c == '.' && !(c[1] >= '0' && c[1] <= '9')))
        return -1;
    if (*c == '.')
        for (c++; *c >= '0' && *c <= '9'; c++)
            continue;
    if (*c != '\0')
        return -1;
    v = strtod(text, &end);
    if (*end != '\0' || !(v > 0) || !(v <= GA_MAX_TIMEOUT))
        return -1;
    *seconds = v;
    return 0;
}

const char *ga_timeout_text(double seconds, char buf[32])
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, seconds);
        if (strtod(buf, NULL) == seconds)
            break;
    }
    return buf;
}
