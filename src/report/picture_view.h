/* What the plots of one format share (pictures.c draws them, one kind per
 * file: picture_error.c, picture_distance.c, picture_overview.c): the view
 * of the results, the error axis, and the texts of labels.  Private to
 * src/report. */
#ifndef GA_PICTURE_VIEW_H
#define GA_PICTURE_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "grade/number_text.h"
#include "plot/plot.h"
#include "report/result.h"

/* UTF-8 for the labels. */
#define LE "\xe2\x89\xa4"       /* less or equal */
#define MINUS "\xe2\x88\x92"

/* Sizes in px: an error plot and its histogram side by side fill a page
 * 1360 px wide; the overview takes a row of its own. */
#define ERROR_WIDTH 860
#define ERROR_HEIGHT 460
#define DISTANCE_WIDTH 460
#define DISTANCE_HEIGHT 460
#define OVERVIEW_WIDTH 1100
#define OVERVIEW_HEIGHT 560

/* The results of one format, as every plot sees them. */
struct format_view {
    const struct ga_format *f;
    const struct ga_result *r;
    size_t n;
    double x_min, x_max;            /* the input axis */
    bool has_under[GA_FUNCTION_COUNT];
    ga_bits under[GA_FUNCTION_COUNT];   /* where each reference rounds to -0 */
};

/* The plots of result i: its error plot, its distance plot. */
struct error_plot {
    const struct format_view *v;
    size_t i;
};

/* "-1.5" for the value of x, 4 significant digits, with a true minus sign. */
const char *ga_picture_marker_value(const struct ga_format *f, ga_bits x,
                                    char buf[GA_TEXT_LEN]);

/* The axes of an error plot: the view's input axis, the ulp error on log10
 * from 1e-4 to 1e8 with bands below and above. */
void ga_picture_error_axes(const struct format_view *v, struct ga_plot *p);

/* "exact GELU" or "the tanh formula". */
const char *ga_picture_against(enum ga_function fn);

/* The writers of ga_write_report_file: ctx is a struct error_plot for the
 * first two, the struct format_view for the overview. */
int ga_picture_write_error_plot(FILE *out, const void *ctx);
int ga_picture_write_distance_plot(FILE *out, const void *ctx);
int ga_picture_write_overview(FILE *out, const void *ctx);

#endif
