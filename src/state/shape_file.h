/* A shape accumulator (measure/shape.h) in a partial file: the layout is in
 * doc/partial-format.md, "Shape". */
#ifndef GA_SHAPE_FILE_H
#define GA_SHAPE_FILE_H

#include "io/bytes.h"
#include "measure/shape.h"

/* s, or only a 0 byte when s is NULL. */
void ga_shape_put(struct ga_byte_writer *w, const struct ga_shape *s);
/* What ga_shape_put wrote: *out a new accumulator of format f measured
 * against reference (free it), or NULL for the 0 byte; a malformed record
 * fails r. */
void ga_shape_get(struct ga_byte_reader *r, const struct ga_format *f, enum ga_function reference,
                  struct ga_shape **out);

#endif
