/* Plot geometry: automatic ranges, data-to-pixel mapping, and where the
 * title, legend, bands, axes and plot area go on the canvas. */
#include <math.h>
#include <string.h>

#include "plot/plot_private.h"
#include "formats/fp_contract.h"   /* the same coordinates whatever -march */

/* ---- Text and legend measures ---- */

double ga_plot_text_width(const char *text, double font_size)
{
    size_t chars = 0;
    if (text == NULL)
        return 0;
    for (const char *s = text; *s; s++) {
        if (*s == '&') {
            const char *end = strchr(s, ';');
            if (end != NULL && end - s <= 8)
                s = end;
        }
        if (((unsigned char)*s & 0xc0) != 0x80)  /* not a UTF-8 continuation */
            chars++;
    }
    return (double)chars * CHAR_EM * font_size;
}

int ga_plot_in_legend(const struct ga_series *s)
{
    return s->label != NULL && s->label[0] != '\0';
}

double ga_plot_legend_item_width(const char *label)
{
    return LEGEND_SWATCH + 6 + ga_plot_text_width(label, FONT_LEGEND) + 18;
}

size_t ga_plot_legend_row_end(const struct ga_plot *plot, size_t start, double avail,
                              double *row_width)
{
    double w = 0;
    size_t i = start;
    int placed = 0;
    for (; i < plot->nseries; i++) {
        const struct ga_series *s = &plot->series[i];
        if (!ga_plot_in_legend(s))
            continue;
        double item = ga_plot_legend_item_width(s->label);
        if (placed > 0 && w + item > avail)
            break;
        w += item;
        placed++;
    }
    *row_width = w;
    return i;
}

static int legend_entries(const struct ga_plot *plot)
{
    int n = 0;
    for (size_t i = 0; i < plot->nseries; i++)
        n += ga_plot_in_legend(&plot->series[i]);
    return n;
}

/* ---- Scales ---- */

static double linthresh_of(const struct ga_axis *a)
{
    return a->linthresh > 0 ? a->linthresh : 1.0;
}

/* The scale's transform: positions are linear in it. */
static double transform(const struct ga_axis_map *m, double v)
{
    switch (m->scale) {
    case GA_SCALE_LOG10:
        return log10(v);
    case GA_SCALE_SYMLOG:
        /* log1p keeps the slope exact near 0; divided by ln 10 so that one
         * decade far from 0 is one unit, as on a log10 axis. */
        return copysign(log1p(fabs(v) / m->linthresh) / log(10.0), v);
    case GA_SCALE_LINEAR:
    default:
        return v;
    }
}

static int placeable(const struct ga_axis_map *m, double v)
{
    return isfinite(v) && (m->scale != GA_SCALE_LOG10 || v > 0);
}

/* Position of a placeable value; values out of range land outside
 * [px_min, px_max].  f = 0 and f = 1 give the edges exactly. */
static double position(const struct ga_axis_map *m, double v)
{
    double u0 = transform(m, m->min), u1 = transform(m, m->max);
    double f = (transform(m, v) - u0) / (u1 - u0);
    return f * m->px_max + (1 - f) * m->px_min;
}

double ga_plot_axis_position(const struct ga_axis_map *m, double v)
{
    return placeable(m, v) ? position(m, v) : NAN;
}

double ga_plot_frame_x(const struct ga_plot_frame *frame, double x)
{
    return ga_plot_axis_position(&frame->x, x);
}

double ga_plot_map_y(const struct ga_plot_frame *f, double y, int nan_in_band)
{
    const struct ga_axis_map *m = &f->y;
    if (isnan(y))
        return nan_in_band && f->has_high_band ? f->high_band_y : NAN;
    if (y > m->max)
        return f->has_high_band ? f->high_band_y : placeable(m, y) ? position(m, y) : NAN;
    if (y < m->min || !placeable(m, y))
        return f->has_low_band ? f->low_band_y : placeable(m, y) ? position(m, y) : NAN;
    return position(m, y);
}

double ga_plot_frame_y(const struct ga_plot_frame *frame, double y)
{
    return ga_plot_map_y(frame, y, 1);
}

/* ---- Automatic ranges ---- */

struct extent {
    double lo, hi;
    int any;
};

static void extent_add(struct extent *e, const struct ga_axis *a, double v)
{
    if (!isfinite(v) || (a->scale == GA_SCALE_LOG10 && !(v > 0)))
        return;
    if (!e->any || v < e->lo)
        e->lo = v;
    if (!e->any || v > e->hi)
        e->hi = v;
    e->any = 1;
}

static struct extent data_extent(const struct ga_plot *plot, int is_x)
{
    const struct ga_axis *a = is_x ? &plot->x : &plot->y;
    struct extent e = { 0, 0, 0 };
    for (size_t i = 0; i < plot->nseries; i++) {
        const struct ga_series *s = &plot->series[i];
        const double *v = is_x ? s->x : s->y;
        if (is_x && s->kind == GA_SERIES_BARS)
            continue;
        for (size_t j = 0; j < s->n; j++)
            extent_add(&e, a, v[j]);
    }
    for (size_t i = 0; i < plot->nmarkers; i++)
        if ((plot->markers[i].axis == GA_MARK_X) == is_x)
            extent_add(&e, a, plot->markers[i].value);
    return e;
}

static int has_bars(const struct ga_plot *plot)
{
    for (size_t i = 0; i < plot->nseries; i++)
        if (plot->series[i].kind == GA_SERIES_BARS)
            return 1;
    return 0;
}

static double decade_at_or_above(double v)
{
    /* 1e308 is the largest power of ten below DBL_MAX. */
    return ga_plot_power_of_ten((int)fmin(308, ceil(log10(v) - 1e-9)));
}

static double decade_at_or_below(double v)
{
    return ga_plot_power_of_ten((int)floor(log10(v) + 1e-9));
}

/* Widen [lo, hi] to multiples of the tick step that max_count ticks give. */
static void round_out_linear(double *lo, double *hi, int max_count)
{
    for (int pass = 0; pass < 2; pass++) {
        struct ga_ticks t;
        if (ga_plot_ticks(GA_SCALE_LINEAR, *lo, *hi, 0, max_count, &t) != 0 || t.n < 2)
            return;
        double step = t.value[1] - t.value[0];
        double nlo = floor(*lo / step + 1e-9) * step;
        double nhi = ceil(*hi / step - 1e-9) * step;
        if (nlo == *lo && nhi == *hi)
            return;
        *lo = nlo;
        *hi = nhi;
    }
}

static void resolve_range(const struct ga_plot *plot, int is_x, int max_count,
                          struct ga_axis_map *m)
{
    const struct ga_axis *a = is_x ? &plot->x : &plot->y;
    m->scale = a->scale;
    m->linthresh = linthresh_of(a);
    if (is_x && a->categories != NULL) {
        m->min = -0.5;
        m->max = (double)a->ncategories - 0.5;
        return;
    }
    if (a->min < a->max) {
        m->min = a->min;
        m->max = a->max;
        return;
    }
    struct extent e = data_extent(plot, is_x);
    int bars = !is_x && has_bars(plot);
    switch (a->scale) {
    case GA_SCALE_LINEAR:
        if (!e.any) {
            e.lo = 0;
            e.hi = 1;
        }
        if (bars) {     /* bars grow from 0 */
            e.lo = fmin(e.lo, 0);
            e.hi = fmax(e.hi, 0);
        }
        if (e.lo == e.hi) {
            double half = e.lo != 0 ? fabs(e.lo) / 2 : 1;
            e.lo -= half;
            e.hi += half;
        }
        round_out_linear(&e.lo, &e.hi, max_count);
        break;
    case GA_SCALE_LOG10:
        if (!e.any) {
            e.lo = 1;
            e.hi = 10;
        }
        {
            double lo = decade_at_or_below(e.lo), hi = decade_at_or_above(e.hi);
            /* A bar as high as the bottom edge would not show: leave room. */
            if (bars)
                lo /= 2;
            if (lo == hi)
                hi = lo * 10;
            e.lo = lo;
            e.hi = hi;
        }
        break;
    case GA_SCALE_SYMLOG:
        if (!e.any) {
            e.lo = 0;
            e.hi = 0;
        }
        {
            double t = m->linthresh;
            e.lo = e.lo < 0 ? -fmax(t, decade_at_or_above(-e.lo)) : 0;
            e.hi = e.hi > 0 ? fmax(t, decade_at_or_above(e.hi)) : 0;
            if (e.lo == e.hi) {
                e.lo = -t;
                e.hi = t;
            }
        }
        break;
    }
    m->min = e.lo;
    m->max = e.hi;
}

/* ---- Layout ---- */

static double widest_label(const struct ga_ticks *t, double font_size)
{
    double w = 0;
    for (int i = 0; i < t->n; i++)
        w = fmax(w, ga_plot_text_width(t->label[i], font_size));
    return w;
}

static double widest_category(const struct ga_axis *a)
{
    double w = 0;
    for (size_t i = 0; i < a->ncategories; i++)
        w = fmax(w, ga_plot_text_width(a->categories[i], FONT_TICK));
    return w;
}

static int clamp_count(double n)
{
    if (n < 2)
        return 2;
    if (n > GA_TICKS_MAX)
        return GA_TICKS_MAX;
    return (int)n;
}

/* x ticks whose labels do not overlap: fewer until they fit. */
static void fit_x_ticks(const struct ga_axis_map *m, double plot_width, struct ga_ticks *t)
{
    for (int count = clamp_count(plot_width / X_TICK_SPACING); count >= 2; count--) {
        ga_plot_ticks(m->scale, m->min, m->max, m->linthresh, count, t);
        int fits = 1;
        for (int i = 1; i < t->n && fits; i++) {
            double gap = position(m, t->value[i]) - position(m, t->value[i - 1]);
            double need = (ga_plot_text_width(t->label[i], FONT_TICK)
                           + ga_plot_text_width(t->label[i - 1], FONT_TICK)) / 2 + 8;
            fits = gap >= need;
        }
        if (fits)
            return;
    }
}

static enum legend_place legend_place(const struct ga_plot *plot, int entries)
{
    if (entries == 0)
        return PLACE_NONE;
    switch (plot->legend) {
    case GA_LEGEND_AUTO: return entries >= 2 ? PLACE_TOP : PLACE_NONE;
    case GA_LEGEND_TOP: return PLACE_TOP;
    case GA_LEGEND_RIGHT: return PLACE_RIGHT;
    case GA_LEGEND_INSIDE_TOP_LEFT: return PLACE_INSIDE_LEFT;
    case GA_LEGEND_INSIDE_TOP_RIGHT: return PLACE_INSIDE_RIGHT;
    case GA_LEGEND_NONE:
    default: return PLACE_NONE;
    }
}

static double legend_column_width(const struct ga_plot *plot)
{
    double w = 0;
    for (size_t i = 0; i < plot->nseries; i++)
        if (ga_plot_in_legend(&plot->series[i]))
            w = fmax(w, ga_plot_legend_item_width(plot->series[i].label) - 18);
    return w;
}

/* Top down: title, subtitle, legend rows, high band; returns the top of
 * the plot area. */
static double place_top(const struct ga_plot *plot, struct plot_geometry *g)
{
    struct ga_plot_frame *f = &g->frame;
    double top = PAD;
    if (plot->title != NULL) {
        g->title_y = top + FONT_TITLE;
        top += FONT_TITLE + 8;
    }
    if (plot->subtitle != NULL) {
        g->subtitle_y = top + FONT_SUBTITLE;
        top += FONT_SUBTITLE + 8;
    }
    g->legend_entries = legend_entries(plot);
    g->legend = legend_place(plot, g->legend_entries);
    if (g->legend == PLACE_TOP) {
        g->legend_top = top;
        double w;
        for (size_t i = 0; i < plot->nseries;) {
            size_t end = ga_plot_legend_row_end(plot, i, g->width - 2 * PAD, &w);
            if (w > 0)
                top += LEGEND_ROW;
            i = end;
        }
        top += 4;
    }
    top += 8;   /* half a tick label sticks out above the top tick */
    f->has_high_band = plot->y.high_band != NULL;
    if (f->has_high_band) {
        g->high_band_top = top;
        f->high_band_y = top + BAND_HEIGHT / 2.0;
        top += BAND_HEIGHT + BAND_GAP;
    }
    return top;
}

/* Bottom up: axis title, tick labels, tick marks, low band; returns the
 * bottom of the plot area. */
static double place_bottom(const struct ga_plot *plot, struct plot_geometry *g)
{
    struct ga_plot_frame *f = &g->frame;
    double bottom = g->height - PAD;
    if (plot->x.label != NULL) {
        g->x_label_y = bottom - 4;
        bottom -= FONT_AXIS_LABEL + 8;
    }
    if (plot->x.categories != NULL) {
        double slot = (g->width - 120.0) / (double)plot->x.ncategories;
        double w = widest_category(&plot->x);
        g->rotate_categories = w + 6 > slot;
        bottom -= g->rotate_categories ? w * CATEGORY_SIN + FONT_TICK + 2 : FONT_TICK + 6;
    } else {
        bottom -= FONT_TICK + 6;
    }
    bottom -= TICK_LEN;
    g->x_tick_y = bottom;
    f->has_low_band = plot->y.low_band != NULL;
    if (f->has_low_band) {
        g->low_band_bottom = bottom;
        f->low_band_y = bottom - BAND_HEIGHT / 2.0;
        bottom -= BAND_HEIGHT + BAND_GAP;
    }
    return bottom;
}

int ga_plot_place(const struct ga_plot *plot, struct plot_geometry *g)
{
    memset(g, 0, sizeof *g);
    g->width = plot->width ? plot->width : GA_PLOT_DEFAULT_WIDTH;
    g->height = plot->height ? plot->height : GA_PLOT_DEFAULT_HEIGHT;
    struct ga_plot_frame *f = &g->frame;

    f->top = place_top(plot, g);

    f->bottom = place_bottom(plot, g);
    if (f->bottom - f->top < 40)
        return -1;   /* too many legend rows for the height */

    /* y range and ticks, then the left margin their labels need. */
    f->y.px_min = f->bottom;
    f->y.px_max = f->top;
    int y_count = clamp_count((f->bottom - f->top) / Y_TICK_SPACING);
    resolve_range(plot, 0, y_count, &f->y);
    ga_plot_ticks(f->y.scale, f->y.min, f->y.max, f->y.linthresh, y_count, &g->yticks);
    double tick_w = widest_label(&g->yticks, FONT_TICK);
    double band_w = fmax(ga_plot_text_width(plot->y.low_band, FONT_TICK),
                         ga_plot_text_width(plot->y.high_band, FONT_TICK));
    double left = PAD;
    if (plot->y.label != NULL)
        left += FONT_AXIS_LABEL + 8;
    f->left = floor(left + fmax(tick_w, band_w) + 3 + TICK_LEN);
    /* The axis title hugs the tick labels: band labels sit at the ends,
     * the title at mid-height. */
    if (plot->y.label != NULL)
        g->y_label_x = floor(fmax(PAD + FONT_AXIS_LABEL, f->left - TICK_LEN - 3 - tick_w - 8));

    double right = g->width - PAD - 14;
    if (g->legend == PLACE_RIGHT) {
        g->legend_width = legend_column_width(plot);
        g->legend_left = g->width - PAD - g->legend_width;
        right = g->legend_left - 16;
    }
    f->right = floor(right);
    if (f->right - f->left < 60)
        return -1;   /* labels or legend leave no room */

    /* x range and ticks; room on the right for half the last label. */
    f->x.px_min = f->left;
    f->x.px_max = f->right;
    resolve_range(plot, 1, clamp_count((f->right - f->left) / X_TICK_SPACING), &f->x);
    if (plot->x.categories == NULL) {
        fit_x_ticks(&f->x, f->right - f->left, &g->xticks);
        if (g->xticks.n > 0 && g->legend != PLACE_RIGHT) {
            double last = position(&f->x, g->xticks.value[g->xticks.n - 1]);
            double half = ga_plot_text_width(g->xticks.label[g->xticks.n - 1], FONT_TICK) / 2;
            if (last + half > g->width - PAD) {
                f->right = floor(f->right - (last + half - (g->width - PAD)));
                f->x.px_max = f->right;
                fit_x_ticks(&f->x, f->right - f->left, &g->xticks);
            }
        }
    }

    if (g->legend == PLACE_INSIDE_LEFT || g->legend == PLACE_INSIDE_RIGHT) {
        g->legend_width = legend_column_width(plot) + 16;
        g->legend_left = g->legend == PLACE_INSIDE_LEFT ? f->left + 8
                                                        : f->right - 8 - g->legend_width;
        g->legend_top = f->top + 8;
    } else if (g->legend == PLACE_RIGHT) {
        g->legend_top = f->top;
    }
    return 0;
}
