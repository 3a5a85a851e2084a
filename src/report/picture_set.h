/* All the pictures of one format's results (the files are listed in
 * pictures.h). */
#ifndef GA_PICTURE_SET_H
#define GA_PICTURE_SET_H

#include <stddef.h>

#include "formats/format.h"
#include "io/io_error.h"
#include "report/result.h"

/* Write DIR/plots/FORMAT-*.svg for the results of one format (n results,
 * in catalogue order, all of format f), and the approximation plots.
 * DIR/plots is created when missing. */
enum ga_io_status ga_write_pictures(const char *dir, const struct ga_format *f,
                                    const struct ga_result *r, size_t n,
                                    struct ga_io_error *err);

#endif
