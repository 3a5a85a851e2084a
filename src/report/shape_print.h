/* The shape of a result (measure/shape.h) in each output: text lines, a JSON
 * object, CSV columns, and a report page's "Shape" table. */
#ifndef GA_SHAPE_PRINT_H
#define GA_SHAPE_PRINT_H

#include <stdio.h>

#include "report/result.h"

void ga_shape_write_text(FILE *out, const struct ga_result *r);
/* ',\n   "shape": {...}' after a JSON row's last key, or '"shape": null'. */
void ga_shape_write_json(FILE *out, const struct ga_result *r);
/* The CSV columns: their header (without a leading comma), and a row's
 * values, each after a comma (empty when not measured, and in the rows of
 * single regions: whole false). */
extern const char ga_shape_csv_header[];
void ga_shape_write_csv(FILE *out, const struct ga_result *r, bool whole);
/* A page's "Shape" section, one row per result with a shape, under a
 * heading of level 2 (the models) or 3 (the real libraries' section):
 * Markdown (ending with its last row) or HTML; nothing when none has one. */
void ga_shape_write_table(FILE *out, const struct ga_format *f, const struct ga_result *r,
                          size_t n, bool html, int heading_level);

#endif
