/* Low-level SVG writing: escaped text and deterministic numbers.
 *
 * Numbers are formatted with integer arithmetic, never with printf's %f or
 * %g, so the bytes written do not depend on the locale (LC_NUMERIC) or on
 * the C library: the same plot gives the same file everywhere.
 *
 * A writer keeps the first error: once a write fails, later writes are
 * skipped and ga_svg_status reports the failure. */
#ifndef GA_SVG_H
#define GA_SVG_H

#include <stddef.h>
#include <stdio.h>

struct ga_svg {
    FILE *out;
    int failed;     /* nonzero once a write to out has failed */
};

void ga_svg_init(struct ga_svg *w, FILE *out);
/* 0, or -1 when a write failed (ferror on the stream included). */
int ga_svg_status(const struct ga_svg *w);

/* Writes fmt with these directives, all locale-free:
 *   %s  const char *   written as is (markup the caller built)
 *   %x  const char *   XML-escaped text (NULL writes nothing)
 *   %d  int
 *   %p  double         a pixel coordinate: 1 decimal, trailing ".0" dropped
 *   %t  long           a coordinate in tenths of a pixel (1234 -> "123.4")
 *   %%  a percent sign
 * Any other directive is a programming error and writes "?". */
void ga_svg_put(struct ga_svg *w, const char *fmt, ...);

/* XML escaping for text and attribute values: & < > " ' become entities;
 * control characters that XML 1.0 forbids and bytes that are not valid
 * UTF-8 become '?', so any C string gives well-formed XML.  Writes at most
 * size bytes including the terminating NUL (size > 0) and returns the length
 * the full escaped text needs, like snprintf. */
size_t ga_svg_escape(char *dst, size_t size, const char *src);

/* A pixel coordinate in tenths, rounded half away from zero.  Clamped to
 * +-1e9 tenths: anything that far off the canvas is invisible anyway, and
 * NaN gives 0 (callers drop NaN before drawing). */
long ga_svg_tenths(double px);

/* Writes v in tenths as text: 1234 -> "123.4", 10 -> "1", -5 -> "-0.5".
 * buf needs 24 bytes.  Returns the length. */
int ga_svg_format_tenths(char *buf, long v);

/* A decimal number given as digits * 10^exponent, written plainly when
 * plain_min <= (its power of ten) <= plain_max, else as "1.5e-7".  Minus
 * signs are written as "&#8722;" (U+2212) when typographic, as '-'
 * otherwise.  buf needs 48 bytes.  Returns the length. */
int ga_svg_format_decimal(char *buf, long long digits, int exponent,
                          int plain_min, int plain_max, int typographic);

#endif
