#include "grade/number_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

const char *ga_text_error(double v, char buf[GA_TEXT_LEN])
{
    if (isnan(v))
        snprintf(buf, GA_TEXT_LEN, "-");
    else if (isinf(v))
        snprintf(buf, GA_TEXT_LEN, v > 0 ? "inf" : "-inf");
    else
        snprintf(buf, GA_TEXT_LEN, "%.4g", v);
    return buf;
}

const char *ga_text_stat(double v, char buf[GA_TEXT_LEN])
{
    if (isnan(v) || isinf(v))
        return ga_text_error(v, buf);
    snprintf(buf, GA_TEXT_LEN, "%.3g", v);
    return buf;
}

const char *ga_text_value(const struct ga_format *f, ga_bits x, char buf[GA_TEXT_LEN])
{
    int digits = (int)ceil(1 + f->precision * log10(2.0));
    snprintf(buf, GA_TEXT_LEN, "%.*g", digits, ga_decode(f, x));
    return buf;
}

const char *ga_text_percent(uint64_t count, uint64_t total, char buf[GA_TEXT_LEN])
{
    if (total == 0)
        snprintf(buf, GA_TEXT_LEN, "-");
    else if (count == total)
        snprintf(buf, GA_TEXT_LEN, "100");
    else  /* truncated, so that 99.9996 % does not print as 100 */
        snprintf(buf, GA_TEXT_LEN, "%.3f", floor(100000.0 * (double)count / (double)total) / 1000);
    return buf;
}

const char *ga_text_exact_digits(const struct ga_exact *e, int digits,
                                   char buf[GA_TEXT_LEN])
{
    if (e->exp == GA_EXACT_EXP_MIN)
        snprintf(buf, GA_TEXT_LEN, "%s2^%ld", e->mant < 0 ? "-<" : "<", e->exp);
    else if (e->exp > -1000 && e->exp < 1000)
        snprintf(buf, GA_TEXT_LEN, "%.*g", digits, ldexp(e->mant, (int)e->exp));
    else
        snprintf(buf, GA_TEXT_LEN, "%.*g*2^%ld", digits, e->mant, e->exp);
    return buf;
}

const char *ga_text_exact(const struct ga_exact *e, char buf[GA_TEXT_LEN])
{
    return ga_text_exact_digits(e, 9, buf);
}

bool ga_text_interval_empty(const struct ga_format *f, const struct ga_faithful_interval *fi,
                            ga_bits *nearest)
{
    bool below = fi->has_lo && ga_decode(f, fi->lo) >= ga_decode(f, fi->extent_hi);
    bool above = fi->has_hi && ga_decode(f, fi->hi) <= ga_decode(f, fi->extent_lo);

    if (!fi->exists || !fi->has_extent || !(below || above))
        return false;
    if (nearest)
        *nearest = below ? fi->lo : fi->hi;
    return true;
}

const char *ga_text_interval(const struct ga_format *f, const struct ga_faithful_interval *fi,
                               char buf[GA_INTERVAL_LEN])
{
    char lo[GA_TEXT_LEN], hi[GA_TEXT_LEN];

    if (!fi->exists) {
        snprintf(buf, GA_INTERVAL_LEN, "none");
        return buf;
    }
    if (ga_text_interval_empty(f, fi, NULL)) {
        snprintf(buf, GA_INTERVAL_LEN, "empty");
        return buf;
    }
    /* an open end at the unfaithful input nearest 0; otherwise the measured
     * extent, included (infinite when nothing says how far it goes) */
    snprintf(buf, GA_INTERVAL_LEN, "%s%s, %s%s",
             fi->has_lo || !fi->has_extent ? "(" : "[",
             fi->has_lo ? ga_text_value(f, fi->lo, lo)
             : fi->has_extent ? ga_text_value(f, fi->extent_lo, lo) : "-inf",
             fi->has_hi ? ga_text_value(f, fi->hi, hi)
             : fi->has_extent ? ga_text_value(f, fi->extent_hi, hi) : "inf",
             fi->has_hi || !fi->has_extent ? ")" : "]");
    return buf;
}

double ga_round_up_4(double x)
{
    char buf[64];
    double printed;

    if (!(x > 0) || isinf(x))
        return x;
    snprintf(buf, sizeof buf, "%.3e", x);
    printed = strtod(buf, NULL);
    while (printed < x) {  /* bump the 4th digit */
        int e = (int)floor(log10(printed));
        snprintf(buf, sizeof buf, "%.3e", printed + pow(10, e - 3));
        printed = strtod(buf, NULL);
    }
    return printed;
}
