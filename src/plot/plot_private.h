/* Shared by the plot files only (plot.c, plot_layout.c, plot_ticks.c):
 * the resolved geometry of a plot and the measures the layout is made of. */
#ifndef GA_PLOT_PRIVATE_H
#define GA_PLOT_PRIVATE_H

#include "plot/plot.h"

#define GA_PLOT_DEFAULT_WIDTH 800
#define GA_PLOT_DEFAULT_HEIGHT 450

/* Font sizes in px: nothing under 11 px, so every text reads at a glance. */
#define FONT_TITLE 16
#define FONT_SUBTITLE 12
#define FONT_AXIS_LABEL 13
#define FONT_TICK 12
#define FONT_LEGEND 12
#define FONT_MARKER 11

#define PAD 10              /* canvas edge to anything drawn */
#define TICK_LEN 5
#define BAND_HEIGHT 16      /* the 0 and NaN/inf strips */
#define BAND_GAP 6          /* between a strip and the plot area */
#define LEGEND_ROW 18
#define LEGEND_SWATCH 18    /* width of the sample line or box */
#define X_TICK_SPACING 50  /* px per x tick at most, before labels are fitted */
#define Y_TICK_SPACING 24  /* px per y tick at most: a 12 px label and a gap */
#define CELL 2              /* scatter points merge on a CELL x CELL px grid */

/* Average advance of a character in Helvetica/Arial/Liberation Sans, in em:
 * layout only needs an estimate, and a fixed one keeps output deterministic. */
#define CHAR_EM 0.58

/* Rotated category labels: angle in degrees and its sine. */
#define CATEGORY_ANGLE 35
#define CATEGORY_SIN 0.5736

enum legend_place { PLACE_NONE, PLACE_TOP, PLACE_RIGHT, PLACE_INSIDE_LEFT, PLACE_INSIDE_RIGHT };

struct plot_geometry {
    int width, height;
    struct ga_plot_frame frame;
    struct ga_ticks xticks, yticks;
    double title_y, subtitle_y;         /* baselines; 0: none */
    double x_tick_y;                    /* top of the x tick marks */
    double x_label_y, y_label_x;        /* axis title baselines */
    int rotate_categories;
    double high_band_top, low_band_bottom;  /* extent of the strips */
    enum legend_place legend;
    int legend_entries;
    double legend_top;                  /* top of the first legend row */
    double legend_left;                 /* RIGHT and INSIDE: left edge */
    double legend_width;                /* RIGHT and INSIDE: item width */
};

/* Width of a text in px at a font size, estimated; an XML entity ("&#8722;")
 * counts as one character. */
double ga_plot_text_width(const char *text, double font_size);

/* Width of a legend item (swatch, gap, text, spacing to the next one). */
double ga_plot_legend_item_width(const char *label);

/* Whether a series appears in the legend: it has a non-empty label. */
int ga_plot_in_legend(const struct ga_series *s);

/* Legend rows of GA_LEGEND_TOP: the row that starts at series index start
 * ends before the returned index; *row_width gets its width.  Rows hold as
 * many entries as fit in avail px (at least one). */
size_t ga_plot_legend_row_end(const struct ga_plot *plot, size_t start, double avail,
                              double *row_width);

/* Position of a value on one axis, bands ignored: NaN when the value
 * cannot be placed (not finite; <= 0 on log10); off the plot area when it
 * is out of range. */
double ga_plot_axis_position(const struct ga_axis_map *m, double v);

/* The double nearest to 10^e (what a tick labelled "1e-3" stands for). */
double ga_plot_power_of_ten(int e);

/* Why a description is invalid, or NULL when its fields are consistent. */
const char *ga_plot_invalid_reason(const struct ga_plot *plot);

/* The geometry of a valid description: 0, or -1 when the canvas is too
 * small for what surrounds the plot area. */
int ga_plot_place(const struct ga_plot *plot, struct plot_geometry *g);

/* Both: GA_PLOT_OK or GA_PLOT_EINVAL. */
int ga_plot_resolve(const struct ga_plot *plot, struct plot_geometry *g);

/* y position with the band rules; nan_in_band: a NaN goes to the high band
 * (point series) rather than being a gap (lines).  Returns NaN when the
 * value cannot be placed. */
double ga_plot_map_y(const struct ga_plot_frame *f, double y, int nan_in_band);

/* A line or step series s as one <path> clipped to [f->left, f->right] x
 * [top, bottom] (plot_line.c). */
struct ga_svg;
void ga_plot_draw_line(struct ga_svg *w, const struct ga_plot_frame *f, double top, double bottom,
                       const struct ga_series *s, const char *color, double width, const char *dash);

#endif
