#ifndef GA_PARSE_VALUE_H
#define GA_PARSE_VALUE_H

#include "formats/format.h"

/* Parse a decimal ("-0.75", "1e-40") or hex-float ("0x1.8p-3") number, or
 * "nan", "inf", "-inf", and round it to nearest even into f.  Returns 0, or
 * -1 when the text is not a number. */
int ga_parse_value(const struct ga_format *f, const char *text, ga_bits *out);

#endif
