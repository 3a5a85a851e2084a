/* Numbers as the user writes them, with exactly this grammar (README,
 * "Numbers"); anything else is refused, whitespace included:
 *
 *   number   = [sign] (decimal | hexfloat | "inf" | "infinity" | "nan")
 *   sign     = "+" | "-"
 *   decimal  = (digits ["." [digits]] | "." digits) [("e" | "E") [sign] digits]
 *   hexfloat = "0" ("x" | "X") (hexdigits ["." [hexdigits]] | "." hexdigits)
 *              [("p" | "P") [sign] digits]          (binary exponent)
 *
 * The words are case-insensitive.  MPFR's own extensions (0b101, 1@2, @inf@,
 * nan(...)) and C's suffixes are not numbers here. */
#ifndef GA_PARSE_VALUE_H
#define GA_PARSE_VALUE_H

#include <stddef.h>

#include "formats/format.h"

/* 0 when text follows the grammar; otherwise -1 and *bad_at is the byte
 * offset of the first character that does not (strlen(text) when the text
 * ends too early). */
int ga_number_syntax(const char *text, size_t *bad_at);

/* Parse a number and round it to nearest even into f ("nan" gives f's quiet
 * NaN), overflow and infinities as f's default convention does (infinity,
 * or saturation where f has none).  Returns 0, -1 when the text is not a
 * number (see ga_number_syntax for where), -2 when it is nan and f has no
 * NaN. */
int ga_parse_value(const struct ga_format *f, const char *text, ga_bits *out);
/* The same with an overflow convention that f allows (ga_overflow_allowed). */
int ga_parse_value_overflow(const struct ga_format *f, const char *text, enum ga_overflow o,
                            ga_bits *out);

/* Parse a finite number (no inf, no nan) into the nearest double.  Returns
 * 0, -1 when the text is not a number or names inf or nan, -2 when it is
 * beyond the double range. */
int ga_parse_real(const char *text, double *out);

#endif
