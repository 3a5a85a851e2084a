/* The pictures of a report: SVG plots of one format's results, written to
 * DIR/plots/ for the HTML pages (html.h) to show.  Same results, same
 * bytes: no timestamps, and every figure comes from the results or from the
 * MPFR oracle.
 *
 * Files, relative to DIR (IMPL is the implementation name with characters
 * other than [A-Za-z0-9_.-] replaced by '_', made unique within a format):
 *   plots/FORMAT-overview.svg          maximum ulp error per bin of every
 *                                      implementation against exact GELU
 *   plots/FORMAT-IMPL-gelu.svg         ulp error against x, exact GELU
 *   plots/FORMAT-IMPL-gelu_tanh.svg    the same against the tanh formula
 *   plots/FORMAT-IMPL-distance.svg     ordinal distances, as a histogram
 *   plots/approximations.svg           gelu_tanh - gelu and quick - gelu
 *   plots/approximations-tanh.svg      gelu_tanh - gelu alone, at its scale
 * Error plots exist only for results that kept a profile (sweep.h,
 * want_profile). */
#ifndef GA_PICTURES_H
#define GA_PICTURES_H

#include <stdbool.h>
#include <stddef.h>

#include "io/io_error.h"
#include "plot/plot.h"
#include "report/result.h"

#define GA_PICTURES_DIR "plots"
#define GA_PICTURE_APPROXIMATIONS GA_PICTURES_DIR "/approximations.svg"
#define GA_PICTURE_APPROXIMATIONS_TANH GA_PICTURES_DIR "/approximations-tanh.svg"
#define GA_PICTURE_PATH_LEN 256

/* Only the approximation plots (they do not depend on a format). */
enum ga_io_status ga_write_approximation_pictures(const char *dir, struct ga_io_error *err);

/* Create DIR/plots unless it exists. */
enum ga_io_status ga_make_pictures_dir(const char *dir, struct ga_io_error *err);

/* ga_plot_write_svg, widening the canvas (up to 8000 px) when the texts of
 * the plot do not fit its width: a long implementation name must not cost
 * the report.  Returns 0, or -1 when the plot cannot be written. */
int ga_picture_write_svg(const struct ga_plot *p, FILE *out);

/* Paths relative to DIR of the plots of result i among r[0..n), or NULL
 * when that plot is not drawn (no profile for an error plot; the distance
 * plot belongs to an implementation's first result). */
const char *ga_picture_error_path(const struct ga_result *r, size_t n, size_t i,
                                  char buf[GA_PICTURE_PATH_LEN]);
const char *ga_picture_distance_path(const struct ga_result *r, size_t n, size_t i,
                                     char buf[GA_PICTURE_PATH_LEN]);
const char *ga_picture_overview_path(const struct ga_format *f, char buf[GA_PICTURE_PATH_LEN]);
/* The implementation's name as it appears in file names and HTML ids. */
const char *ga_picture_key(const struct ga_result *r, size_t n, size_t i,
                           char buf[GA_PICTURE_PATH_LEN]);

/* The largest x whose correctly rounded fn(x) is -0 (below it every
 * negative input's result rounds to -0 too: fn decreases in magnitude
 * towards -inf once x < -3), found by bisection over encodings with the
 * MPFR oracle.  Returns 0, or -1 when the oracle fails or no finite input
 * underflows. */
int ga_underflow_threshold(enum ga_function fn, const struct ga_format *f, ga_bits *x);

/* Difference curves of the approximations from exact GELU on n >= 2
 * points of [lo, hi], each rounded to float32: x[i], gelu_tanh(x) - gelu(x)
 * from the MPFR oracle's exact values, and quick(x) - gelu(x) with
 * quick(x) = x / (1 + exp(-1.702 x)) in double.  Returns 0, or -1 when the
 * oracle fails. */
int ga_approximation_curves(double lo, double hi, size_t n, double *x, double *tanh_minus_gelu,
                            double *quick_minus_gelu);

#endif
