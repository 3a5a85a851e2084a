/* Charts as standalone SVG: scatter, lines, steps, bars, markers, legend.
 *
 * A plot is a plain description that points at the caller's data; nothing
 * is copied or kept.  Zero-initialise a struct ga_plot, fill in what you
 * need, and call ga_plot_write_svg.  The output is byte-for-byte the same
 * for the same description (no timestamps, no locale, no ids, no <style>),
 * standalone (xmlns, width, height, viewBox), and safe to paste inline into
 * an HTML page any number of times: it defines no ids and no CSS that could
 * clash.  Text is written as given, XML-escaped; write it in UTF-8 and
 * serve the page as UTF-8.
 *
 * Placement rules, so readers can rely on them:
 * - x: points with a NaN or infinite x, or x outside the range, are not drawn;
 *   lines are clipped at the plot edges and broken at a NaN.
 * - y, without bands: values outside the range are clipped (points dropped);
 *   NaN, infinities and, on a log axis, values <= 0 cannot be placed: points
 *   are dropped and lines broken there.
 * - y, with bands (a band exists when its label is set): the low band, a
 *   strip under the plot, catches values below min, -inf, and on a log axis
 *   0 and negative values; the high band, a strip above the plot, catches
 *   values above max and +inf, and for point series NaN too (in line and
 *   step series a NaN y is a gap: "no data in this bin").
 * - A value equal to max maps exactly to the top edge of the plot area, one
 *   equal to min exactly to the bottom edge.
 * - Markers outside the range are not drawn.
 * Automatic ranges cover every finite value of the series (only positive
 * ones on a log axis) and the markers, widened: linear to multiples of the
 * tick step (and to 0 for bars), log10 to whole decades (for bars, down to
 * half the lowest decade, so a bar at that value still shows), symlog to
 * +-powers of ten with 0 included.  Set min and max to show a format's
 * exact range (e.g. -65504..65504 for float16). */
#ifndef GA_PLOT_H
#define GA_PLOT_H

#include <stddef.h>
#include <stdio.h>

enum ga_plot_status {
    GA_PLOT_OK = 0,
    GA_PLOT_EINVAL = -1,    /* inconsistent description (ga_plot_check says why) */
    GA_PLOT_ENOMEM = -2,
    GA_PLOT_EIO = -3,       /* writing to the stream failed */
};

enum ga_scale {
    GA_SCALE_LINEAR,
    GA_SCALE_LOG10,
    /* sign(v) * log10(1 + |v|/linthresh): linear near 0, logarithmic beyond
     * linthresh, so one axis shows a format's whole range, 0 included. */
    GA_SCALE_SYMLOG,
};

struct ga_axis {
    const char *label;          /* with units, e.g. "error (ulp)"; NULL: none */
    enum ga_scale scale;
    double linthresh;           /* symlog only; 0 means 1 */
    double min, max;            /* explicit when min < max, else automatic */
    /* y axis only: band labels, e.g. "0" and "NaN/inf/>1e6"; NULL: no band. */
    const char *low_band;
    const char *high_band;
    /* x axis only: a categorical axis (bar charts).  Category i sits at
     * x = i; bar series give one value per category; the scale must be
     * linear and the range is [-0.5, ncategories - 0.5]. */
    const char *const *categories;
    size_t ncategories;
};

enum ga_series_kind {
    GA_SERIES_POINTS,   /* scatter; points on the same 2x2 px cell are merged */
    GA_SERIES_LINE,     /* polyline through (x[i], y[i]) in order */
    GA_SERIES_STEP,     /* y[i] held from x[i] to x[i+1]; repeat the last
                           point at the right edge to close the last step */
    GA_SERIES_BARS,     /* y[i] is the height of category i; x unused */
};

enum ga_dash { GA_DASH_SOLID, GA_DASH_DASHED, GA_DASH_DOTTED };

/* Colours: 0 means automatic; k >= 1 is palette colour k (cycling). */
#define GA_PLOT_PALETTE_SIZE 10

struct ga_series {
    enum ga_series_kind kind;
    const char *label;          /* legend entry; NULL: not in the legend */
    const double *x, *y;        /* n values each (x may be NULL for bars) */
    size_t n;
    int color;                  /* 0: palette colour (series index + 1) */
    enum ga_dash dash;          /* lines and steps */
    double size;                /* points: marker size, px (0: 3);
                                   lines, steps: stroke width, px (0: 1.5) */
};

enum ga_marker_axis {
    GA_MARK_X,                  /* a vertical line at x = value */
    GA_MARK_Y,                  /* a horizontal line at y = value */
};

/* A dashed reference line with a label, e.g. the underflow threshold. */
struct ga_marker {
    enum ga_marker_axis axis;
    double value;
    const char *label;          /* NULL: no label */
    int color;                  /* 0: dark grey; k >= 1: palette colour k */
};

enum ga_legend {
    GA_LEGEND_AUTO,             /* GA_LEGEND_TOP when 2+ series have labels */
    GA_LEGEND_NONE,
    GA_LEGEND_TOP,              /* rows between the title and the plot */
    GA_LEGEND_RIGHT,            /* a column right of the plot */
    GA_LEGEND_INSIDE_TOP_LEFT,  /* boxed, over the plot area */
    GA_LEGEND_INSIDE_TOP_RIGHT,
};

struct ga_plot {
    const char *title;          /* NULL: none */
    const char *subtitle;       /* smaller, grey, under the title */
    int width, height;          /* px; 0: 800 x 450 */
    struct ga_axis x, y;
    const struct ga_series *series;
    size_t nseries;
    const struct ga_marker *markers;
    size_t nmarkers;
    enum ga_legend legend;
};

/* Writes the plot as one <svg> element (no XML declaration, so it can be
 * inlined in HTML as is).  Returns GA_PLOT_OK or a negative status; on
 * GA_PLOT_EINVAL nothing is written.  The stream is flushed, not closed. */
int ga_plot_write_svg(const struct ga_plot *plot, FILE *out);

/* A short message for a status; ga_plot_check says why a plot is invalid. */
const char *ga_plot_strerror(int status);

/* Checks a description without writing: inconsistent fields, or a canvas
 * too small for its title, legend rows and labels.  Returns GA_PLOT_OK, or
 * GA_PLOT_EINVAL with a reason (a static string) in *why when why != NULL. */
int ga_plot_check(const struct ga_plot *plot, const char **why);

/* "#rrggbb" of a colour index as used for series (k >= 1, cycling; 0 gives
 * palette colour 1): to colour HTML tables like the plots. */
const char *ga_plot_color(int color);

/* ---- Geometry, exposed for tests and for callers that annotate plots ---- */

#define GA_TICKS_MAX 64

struct ga_ticks {
    int n;
    double value[GA_TICKS_MAX];
    char label[GA_TICKS_MAX][48];   /* may contain "&#8722;" (a minus sign) */
};

/* Nice ticks on [min, max] (min < max; min > 0 for log10), at most
 * max_count of them (2 <= max_count <= GA_TICKS_MAX):
 * - linear: multiples of 1, 2 or 5 x 10^k, the finest step that fits;
 * - log10: powers of ten, every 1, 2, 3, 5, 10... decades; 1, 2, 5 x 10^k
 *   or linear ticks when the range holds fewer than two powers of ten;
 * - symlog: 0 and +-10^k for 10^k >= linthresh, thinned like log10.
 * Labels: "0.2", "1e-3" style (plain for moderate powers of ten).
 * Returns 0, or -1 for invalid arguments. */
int ga_plot_ticks(enum ga_scale scale, double min, double max, double linthresh,
                  int max_count, struct ga_ticks *ticks);

/* One axis resolved to pixels. */
struct ga_axis_map {
    enum ga_scale scale;
    double linthresh;
    double min, max;            /* the range used (explicit or automatic) */
    double px_min, px_max;      /* pixel positions of min and max */
};

/* The resolved layout of a plot. */
struct ga_plot_frame {
    double left, top, right, bottom;    /* the plot area, px */
    struct ga_axis_map x, y;
    int has_low_band, has_high_band;
    double low_band_y, high_band_y;     /* centre line of each band, px */
};

/* Resolves ranges and layout exactly as ga_plot_write_svg does. */
int ga_plot_layout(const struct ga_plot *plot, struct ga_plot_frame *frame);

/* Pixel position of a data value: x (NaN when it cannot be placed), and y
 * following the band rules above, for a point series (NaN goes to the
 * high band when there is one).  A value out of range that no band catches
 * maps outside the plot area. */
double ga_plot_frame_x(const struct ga_plot_frame *frame, double x);
double ga_plot_frame_y(const struct ga_plot_frame *frame, double y);

#endif
