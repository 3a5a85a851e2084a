/* What a report page says of the truth of a small format: its rounding, its
 * overflow convention and what the format's special encodings give. */
#ifndef GA_TRUTH_CONVENTION_H
#define GA_TRUTH_CONVENTION_H

#include <stddef.h>

#include "formats/format.h"

/* The sentence for f into buf (plain text, no markup); an empty string for
 * the wide formats, whose pages predate it and say nothing more. */
void ga_truth_convention_text(const struct ga_format *f, char *buf, size_t size);

#endif
