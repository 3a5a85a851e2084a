/* The section of a float8 page on GELU fused with a cast from a wider
 * format (measure/cast_sweep.h): one table, models under each convention of
 * the truth.  Also what 'gelu-acc sweep --input-format' prints. */
#ifndef GA_CAST_SECTION_H
#define GA_CAST_SECTION_H

#include <stdio.h>

#include "measure/cast_sweep.h"

/* Markdown (a "## " heading, an explanation and the table). */
int ga_write_cast_markdown(FILE *out, const struct ga_cast_result *r);
/* The same as HTML, under <h2 id="cast">. */
int ga_write_cast_html(FILE *out, const struct ga_cast_result *r);

#endif
