/* HTML pages of a report: the Markdown page's tables with the plots of
 * pictures.h beside them, and an index of the formats.  Offline pages: one
 * inline style sheet, no scripts, no external resources; every text is
 * escaped.  Write the pictures first: pages show the plots as
 * <img src="plots/...svg">, and the index embeds only plots that exist. */
#ifndef GA_HTML_H
#define GA_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "io/io_error.h"
#include "report/report_marker.h"
#include "report/result.h"

/* Write DIR/FORMAT.html: summary against exact GELU, tanh forms against the
 * tanh formula, per-region tables, worst inputs, the plots of each
 * implementation, the approximation curves, the catalogue; links to
 * FORMAT.csv, FORMAT.json, FORMAT.md, index.html and README.md.  Then the
 * optional sections, each left out when NULL: the real libraries' (rs), GELU
 * fused with a cast from a wider format (cast, the float8 pages) and the
 * backward section (backward). */
struct ga_cast_result;
struct ga_backward_section;
enum ga_io_status ga_write_html_page(const char *dir, const struct ga_format *f,
                                     const struct ga_result *r, size_t n,
                                     const char *how_generated,
                                     const struct ga_real_section *rs,
                                     const struct ga_cast_result *cast,
                                     const struct ga_backward_section *backward,
                                     struct ga_io_error *err);

/* Write DIR/index.html: a short guide, and for each format given (then for
 * any other format whose page is in DIR) the inputs its tables measured (from
 * *measured, which may be NULL: then "as the page states"), a link to its
 * page and its overview plot. */
enum ga_io_status ga_write_html_index(const char *dir, const struct ga_format *const *formats,
                                      size_t nformats, const struct ga_report_marker *measured,
                                      struct ga_io_error *err);

#endif
