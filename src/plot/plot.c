/* Drawing a plot as SVG: frame, grid, axes, series, markers, legend.
 * Geometry comes from plot_layout.c; every number goes through svg.c. */
#include "plot/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_private.h"
#include "plot/svg.h"
#include "formats/fp_contract.h"   /* the same coordinates whatever -march */

/* Okabe & Ito's colour-blind-safe palette ("Color Universal Design", 2008)
 * without its yellow, which is unreadable on white, then three more. */
static const char *const palette[GA_PLOT_PALETTE_SIZE] = {
    "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00",
    "#56b4e9", "#000000", "#8c564b", "#7f7f7f", "#bcbd22",
};

#define INK "#222222"           /* titles and labels */
#define INK_SOFT "#555555"      /* tick labels, subtitle */
#define MARKER_INK "#444444"
#define GRID "#e4e4e4"
#define GRID_ZERO "#b0b0b0"
#define FRAME "#9a9a9a"
#define BAND_FILL "#f3f3f3"
#define FONT_FAMILY "Helvetica, Arial, 'Liberation Sans', sans-serif"

const char *ga_plot_color(int color)
{
    int k = color >= 1 ? color - 1 : 0;
    return palette[k % GA_PLOT_PALETTE_SIZE];
}

static const char *series_color(const struct ga_series *s, size_t index)
{
    return ga_plot_color(s->color > 0 ? s->color : (int)(index % GA_PLOT_PALETTE_SIZE) + 1);
}

static const char *dash_array(enum ga_dash dash)
{
    switch (dash) {
    case GA_DASH_DASHED: return " stroke-dasharray=\"6 4\"";
    case GA_DASH_DOTTED: return " stroke-dasharray=\"1 3\"";
    case GA_DASH_SOLID:
    default: return "";
    }
}

static double line_width(const struct ga_series *s)
{
    return s->size > 0 ? s->size : 1.5;
}

/* The vertical extent that data may use: the plot area and its bands. */
static double data_top(const struct plot_geometry *g)
{
    return g->frame.has_high_band ? g->high_band_top : g->frame.top;
}

static double data_bottom(const struct plot_geometry *g)
{
    return g->frame.has_low_band ? g->low_band_bottom : g->frame.bottom;
}

/* ---- Frame, grid, axes ---- */

static int in_x_range(const struct ga_plot_frame *f, double px)
{
    /* Half a pixel of slack: a tick at max may land a rounding error out. */
    return !isnan(px) && px >= f->left - 0.5 && px <= f->right + 0.5;
}

static int in_y_range(const struct ga_plot_frame *f, double py)
{
    return !isnan(py) && py >= f->top - 0.5 && py <= f->bottom + 0.5;
}

static void draw_bands(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    const struct ga_plot_frame *f = &g->frame;
    double width = f->right - f->left;
    if (f->has_high_band) {
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%d\" fill=\"%s\"/>\n",
                   f->left, g->high_band_top, width, BAND_HEIGHT, BAND_FILL);
        ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\" font-style=\"italic\" "
                      "fill=\"%s\" font-size=\"%d\">%x</text>\n",
                   f->left - TICK_LEN - 3, f->high_band_y + 4, INK_SOFT, FONT_TICK,
                   p->y.high_band);
    }
    if (f->has_low_band) {
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%d\" fill=\"%s\"/>\n",
                   f->left, g->low_band_bottom - BAND_HEIGHT, width, BAND_HEIGHT, BAND_FILL);
        ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\" font-style=\"italic\" "
                      "fill=\"%s\" font-size=\"%d\">%x</text>\n",
                   f->left - TICK_LEN - 3, f->low_band_y + 4, INK_SOFT, FONT_TICK,
                   p->y.low_band);
    }
}

static int is_zero_tick(const struct ga_axis_map *m, double v)
{
    return v == 0 && m->scale != GA_SCALE_LOG10 && m->min < 0 && m->max > 0;
}

static void draw_grid(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    const struct ga_plot_frame *f = &g->frame;
    ga_svg_put(w, "<g stroke-width=\"1\" fill=\"none\">\n");
    for (int i = 0; i < g->yticks.n; i++) {
        double py = ga_plot_axis_position(&f->y, g->yticks.value[i]);
        if (!in_y_range(f, py) || py == f->top || py == f->bottom)
            continue;
        ga_svg_put(w, "<path d=\"M%p %pH%p\" stroke=\"%s\"/>\n", f->left, py, f->right,
                   is_zero_tick(&f->y, g->yticks.value[i]) ? GRID_ZERO : GRID);
    }
    if (p->x.categories == NULL) {
        for (int i = 0; i < g->xticks.n; i++) {
            double px = ga_plot_frame_x(f, g->xticks.value[i]);
            if (!in_x_range(f, px) || px == f->left || px == f->right)
                continue;
            ga_svg_put(w, "<path d=\"M%p %pV%p\" stroke=\"%s\"/>\n", px, data_top(g),
                       data_bottom(g), is_zero_tick(&f->x, g->xticks.value[i]) ? GRID_ZERO : GRID);
        }
    }
    ga_svg_put(w, "</g>\n");
}

/* Minor ticks at 2..9 x 10^k on a log axis with one labelled decade per
 * tick and room for them (30 px a decade). */
static void draw_minor_log_ticks(struct ga_svg *w, const struct plot_geometry *g, int is_x)
{
    const struct ga_plot_frame *f = &g->frame;
    const struct ga_axis_map *m = is_x ? &f->x : &f->y;
    const struct ga_ticks *t = is_x ? &g->xticks : &g->yticks;
    if (m->scale != GA_SCALE_LOG10 || t->n < 2)
        return;
    double ratio = t->value[1] / t->value[0];
    double decade_px = fabs(log10(m->max / m->min)) > 0
                           ? fabs(m->px_max - m->px_min) / log10(m->max / m->min) : 0;
    if (ratio < 9.99 || ratio > 10.01 || decade_px < 30)
        return;
    double first = t->value[0] / 10;
    for (int d = 0; d <= t->n; d++) {
        double base = first * pow(10.0, d);
        for (int k = 2; k <= 9; k++) {
            double v = base * k;
            if (v < m->min || v > m->max)
                continue;
            if (is_x) {
                double px = ga_plot_frame_x(f, v);
                ga_svg_put(w, "<path d=\"M%p %pv3\"/>\n", px, g->x_tick_y);
            } else {
                double py = ga_plot_axis_position(&f->y, v);
                ga_svg_put(w, "<path d=\"M%p %ph-3\"/>\n", f->left, py);
            }
        }
    }
}

static void draw_axes(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    const struct ga_plot_frame *f = &g->frame;
    ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%p\" fill=\"none\" "
                  "stroke=\"%s\" stroke-width=\"1\"/>\n",
               f->left, f->top, f->right - f->left, f->bottom - f->top, FRAME);

    ga_svg_put(w, "<g stroke=\"%s\" stroke-width=\"1\" fill=\"none\">\n", FRAME);
    for (int i = 0; i < g->yticks.n; i++) {
        double py = ga_plot_axis_position(&f->y, g->yticks.value[i]);
        if (in_y_range(f, py))
            ga_svg_put(w, "<path d=\"M%p %ph-%d\"/>\n", f->left, py, TICK_LEN);
    }
    if (p->x.categories == NULL) {
        for (int i = 0; i < g->xticks.n; i++) {
            double px = ga_plot_frame_x(f, g->xticks.value[i]);
            if (in_x_range(f, px))
                ga_svg_put(w, "<path d=\"M%p %pv%d\"/>\n", px, g->x_tick_y, TICK_LEN);
        }
    }
    draw_minor_log_ticks(w, g, 0);
    draw_minor_log_ticks(w, g, 1);
    if (f->has_low_band) /* the x axis line under the low band */
        ga_svg_put(w, "<path d=\"M%p %pH%p\"/>\n", f->left, g->x_tick_y, f->right);
    ga_svg_put(w, "</g>\n");

    ga_svg_put(w, "<g fill=\"%s\" font-size=\"%d\">\n", INK_SOFT, FONT_TICK);
    for (int i = 0; i < g->yticks.n; i++) {
        double py = ga_plot_axis_position(&f->y, g->yticks.value[i]);
        if (in_y_range(f, py))
            ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\">%s</text>\n",
                       f->left - TICK_LEN - 3, py + 4, g->yticks.label[i]);
    }
    double label_y = g->x_tick_y + TICK_LEN + FONT_TICK;
    if (p->x.categories != NULL) {
        for (size_t i = 0; i < p->x.ncategories; i++) {
            double px = ga_plot_frame_x(f, (double)i);
            if (g->rotate_categories)
                ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\" "
                              "transform=\"rotate(-%d %p %p)\">%x</text>\n",
                           px + 4, label_y - 2, CATEGORY_ANGLE, px + 4, label_y - 2,
                           p->x.categories[i]);
            else
                ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">%x</text>\n",
                           px, label_y, p->x.categories[i]);
        }
    } else {
        for (int i = 0; i < g->xticks.n; i++) {
            double px = ga_plot_frame_x(f, g->xticks.value[i]);
            if (in_x_range(f, px))
                ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">%s</text>\n",
                           px, label_y, g->xticks.label[i]);
        }
    }
    ga_svg_put(w, "</g>\n");

    if (p->x.label != NULL)
        ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" fill=\"%s\" "
                      "font-size=\"%d\">%x</text>\n",
                   (f->left + f->right) / 2, g->x_label_y, INK, FONT_AXIS_LABEL, p->x.label);
    if (p->y.label != NULL) {
        double cy = (f->top + f->bottom) / 2;
        ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" fill=\"%s\" "
                      "font-size=\"%d\" transform=\"rotate(-90 %p %p)\">%x</text>\n",
                   g->y_label_x, cy, INK, FONT_AXIS_LABEL, g->y_label_x, cy, p->y.label);
    }
}

/* ---- Series ---- */

/* Scatter: points are snapped to a CELL-pixel grid over the canvas and each
 * occupied cell is drawn once, as part of a horizontal run of neighbours:
 * "M x y h len" with square caps.  The grid costs a byte a cell however
 * many points there are, and the file a few bytes a run. */
static int draw_points(struct ga_svg *w, const struct plot_geometry *g,
                       const struct ga_series *s, const char *color)
{
    const struct ga_plot_frame *f = &g->frame;
    size_t cols = (size_t)g->width / CELL + 1, rows = (size_t)g->height / CELL + 1;
    unsigned char *grid = calloc(cols * rows, 1);
    if (grid == NULL)
        return GA_PLOT_ENOMEM;
    size_t occupied = 0;
    for (size_t i = 0; i < s->n; i++) {
        double x = s->x[i], y = s->y[i];
        if (!(x >= f->x.min && x <= f->x.max))     /* NaN fails too */
            continue;
        double px = ga_plot_frame_x(f, x);
        double py = ga_plot_map_y(f, y, 1);
        if (isnan(px) || isnan(py))
            continue;
        int in_band = (f->has_high_band && py == f->high_band_y)
                      || (f->has_low_band && py == f->low_band_y);
        if (!in_band && !(y >= f->y.min && y <= f->y.max))
            continue;
        long cx = lround(floor(px / CELL)), cy = lround(floor(py / CELL));
        if (cx < 0 || cy < 0 || (size_t)cx >= cols || (size_t)cy >= rows)
            continue;
        occupied += !grid[(size_t)cy * cols + (size_t)cx];
        grid[(size_t)cy * cols + (size_t)cx] = 1;
    }
    if (occupied == 0) {
        free(grid);
        return GA_PLOT_OK;
    }
    double size = s->size > 0 ? s->size : 3;
    ga_svg_put(w, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%p\" "
                  "stroke-linecap=\"square\" d=\"", color, size);
    int first = 1;
    long cur_x = 0, cur_y = 0;
    for (size_t r = 0; r < rows; r++) {
        for (size_t c = 0; c < cols; c++) {
            if (!grid[r * cols + c])
                continue;
            size_t end = c;
            while (end + 1 < cols && grid[r * cols + end + 1])
                end++;
            /* Cell centres: CELL * c + CELL / 2, integers for CELL = 2. */
            long x0 = (long)(CELL * c + CELL / 2), y0 = (long)(CELL * r + CELL / 2);
            long len = (long)(CELL * (end - c));
            if (first)
                ga_svg_put(w, "M%d %dh%d", (int)x0, (int)y0, (int)len);
            else
                ga_svg_put(w, "m%d %dh%d", (int)(x0 - cur_x), (int)(y0 - cur_y), (int)len);
            first = 0;
            cur_x = x0 + len;
            cur_y = y0;
            c = end;
        }
    }
    ga_svg_put(w, "\"/>\n");
    free(grid);
    return GA_PLOT_OK;
}

static void draw_bars(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p,
                      const struct ga_series *s, int slot, int slots, const char *color)
{
    const struct ga_plot_frame *f = &g->frame;
    const struct ga_axis_map *m = &f->y;
    double cat_w = (f->right - f->left) / (double)p->x.ncategories;
    double group = cat_w * 0.8, bar = group / slots;
    double base_v = m->scale == GA_SCALE_LOG10 ? m->min : fmin(fmax(0, m->min), m->max);
    double base = ga_plot_axis_position(m, base_v);
    if (m->scale == GA_SCALE_LOG10 || isnan(base))
        base = f->bottom;
    ga_svg_put(w, "<g fill=\"%s\">\n", color);
    for (size_t i = 0; i < s->n && i < p->x.ncategories; i++) {
        double v = s->y[i];
        if (isnan(v) || (m->scale == GA_SCALE_LOG10 && !(v > 0)))
            continue;
        double py = v > m->max ? f->top : v < m->min ? f->bottom : ga_plot_axis_position(m, v);
        py = fmin(fmax(py, f->top), f->bottom);
        double y0 = fmin(py, base), h = fabs(py - base);
        if (v != base_v && h < 1) {     /* a nonzero count stays visible */
            h = 1;
            y0 = py <= base ? base - 1 : base;
        }
        if (h <= 0)
            continue;
        double x0 = ga_plot_frame_x(f, (double)i) - group / 2 + slot * bar;
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%p\"/>\n",
                   x0, y0, slots > 1 ? bar - 1 : bar, h);
    }
    ga_svg_put(w, "</g>\n");
}

static int draw_series(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    int slots = 0, slot = 0;
    for (size_t i = 0; i < p->nseries; i++)
        slots += p->series[i].kind == GA_SERIES_BARS;
    for (size_t i = 0; i < p->nseries; i++) {
        const struct ga_series *s = &p->series[i];
        const char *color = series_color(s, i);
        switch (s->kind) {
        case GA_SERIES_POINTS: {
            int status = draw_points(w, g, s, color);
            if (status != GA_PLOT_OK)
                return status;
            break;
        }
        case GA_SERIES_LINE:
        case GA_SERIES_STEP:
            ga_plot_draw_line(w, &g->frame, data_top(g), data_bottom(g), s, color, line_width(s),
                              dash_array(s->dash));
            break;
        case GA_SERIES_BARS:
            draw_bars(w, g, p, s, slot++, slots, color);
            break;
        }
    }
    return GA_PLOT_OK;
}

/* ---- Markers ---- */

#define MARKER_ROWS 6

static void draw_markers(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    const struct ga_plot_frame *f = &g->frame;
    /* Label rows for vertical markers: each remembers where its last label
     * ends, so labels of nearby markers go to the next row down. */
    double row_end[MARKER_ROWS];
    for (int r = 0; r < MARKER_ROWS; r++)
        row_end[r] = -1e9;
    for (size_t i = 0; i < p->nmarkers; i++) {
        const struct ga_marker *mk = &p->markers[i];
        const char *color = mk->color > 0 ? ga_plot_color(mk->color) : MARKER_INK;
        double label_w = ga_plot_text_width(mk->label, FONT_MARKER);
        if (mk->axis == GA_MARK_X) {
            double px = ga_plot_frame_x(f, mk->value);
            if (!in_x_range(f, px))
                continue;
            ga_svg_put(w, "<path d=\"M%p %pV%p\" stroke=\"%s\" stroke-width=\"1.2\" "
                          "stroke-dasharray=\"5 3\" fill=\"none\"/>\n",
                       px, f->top, f->bottom, color);
            if (mk->label == NULL)
                continue;
            /* Right of the line, or left of it in the last third. */
            int left_side = px > f->left + 0.67 * (f->right - f->left);
            double x0 = left_side ? px - 4 - label_w : px + 4;
            int r = 0;
            while (r < MARKER_ROWS - 1 && row_end[r] > x0 - 6)
                r++;
            row_end[r] = fmax(row_end[r], x0 + label_w);
            ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"%s\" fill=\"%s\" "
                          "font-size=\"%d\" stroke=\"#ffffff\" stroke-width=\"3\" "
                          "stroke-linejoin=\"round\" paint-order=\"stroke\">%x</text>\n",
                       left_side ? px - 4 : px + 4, f->top + 14 + 14.0 * r,
                       left_side ? "end" : "start", color, FONT_MARKER, mk->label);
        } else {
            double py = ga_plot_axis_position(&f->y, mk->value);
            if (!in_y_range(f, py))
                continue;
            ga_svg_put(w, "<path d=\"M%p %pH%p\" stroke=\"%s\" stroke-width=\"1.2\" "
                          "stroke-dasharray=\"5 3\" fill=\"none\"/>\n",
                       f->left, py, f->right, color);
            if (mk->label == NULL)
                continue;
            /* Above the line, or below it when the line is near the top. */
            double ty = py - f->top < 16 ? py + 13 : py - 4;
            ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\" fill=\"%s\" "
                          "font-size=\"%d\" stroke=\"#ffffff\" stroke-width=\"3\" "
                          "stroke-linejoin=\"round\" paint-order=\"stroke\">%x</text>\n",
                       f->right - 4, ty, color, FONT_MARKER, mk->label);
        }
    }
}

/* ---- Legend ---- */

static void draw_swatch(struct ga_svg *w, const struct ga_series *s, const char *color,
                        double x, double cy)
{
    switch (s->kind) {
    case GA_SERIES_POINTS:
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"8\" height=\"8\" fill=\"%s\"/>\n",
                   x + LEGEND_SWATCH / 2.0 - 4, cy - 4, color);
        break;
    case GA_SERIES_BARS:
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
                   x + 2, cy - 5, color);
        break;
    case GA_SERIES_LINE:
    case GA_SERIES_STEP:
        ga_svg_put(w, "<path d=\"M%p %ph%d\" stroke=\"%s\" stroke-width=\"%p\" "
                      "stroke-linecap=\"round\" fill=\"none\"%s/>\n",
                   x, cy, LEGEND_SWATCH, color, fmin(line_width(s), 4), dash_array(s->dash));
        break;
    }
}

static void draw_legend_item(struct ga_svg *w, const struct ga_series *s, const char *color,
                             double x, double cy)
{
    draw_swatch(w, s, color, x, cy);
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\" fill=\"%s\" font-size=\"%d\">%x</text>\n",
               x + LEGEND_SWATCH + 6, cy + 4, INK, FONT_LEGEND, s->label);
}

static void draw_legend(struct ga_svg *w, const struct plot_geometry *g, const struct ga_plot *p)
{
    if (g->legend == PLACE_NONE)
        return;
    if (g->legend == PLACE_TOP) {
        double cy = g->legend_top + LEGEND_ROW / 2.0;
        for (size_t i = 0; i < p->nseries;) {
            double row_w;
            size_t end = ga_plot_legend_row_end(p, i, g->width - 2 * PAD, &row_w);
            double x = floor((g->width - row_w + 18) / 2);
            for (; i < end; i++) {
                const struct ga_series *s = &p->series[i];
                if (!ga_plot_in_legend(s))
                    continue;
                draw_legend_item(w, s, series_color(s, i), x, cy);
                x += ga_plot_legend_item_width(s->label);
            }
            if (row_w > 0)
                cy += LEGEND_ROW;
        }
        return;
    }
    double x = g->legend_left, cy = g->legend_top + LEGEND_ROW / 2.0;
    if (g->legend != PLACE_RIGHT) {
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%p\" fill=\"#ffffff\" "
                      "fill-opacity=\"0.88\" stroke=\"#cccccc\"/>\n",
                   x, g->legend_top, g->legend_width,
                   (double)g->legend_entries * LEGEND_ROW + 8);
        x += 8;
        cy += 4;
    }
    for (size_t i = 0; i < p->nseries; i++) {
        const struct ga_series *s = &p->series[i];
        if (!ga_plot_in_legend(s))
            continue;
        draw_legend_item(w, s, series_color(s, i), x, cy);
        cy += LEGEND_ROW;
    }
}

/* ---- The whole plot ---- */

int ga_plot_write_svg(const struct ga_plot *plot, FILE *out)
{
    struct plot_geometry g;
    int status = ga_plot_resolve(plot, &g);
    if (status != GA_PLOT_OK)
        return status;
    if (out == NULL)
        return GA_PLOT_EIO;
    struct ga_svg w;
    ga_svg_init(&w, out);
    ga_svg_put(&w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%x\" "
                   "font-family=\"%s\" font-size=\"%d\">\n",
               g.width, g.height, g.width, g.height, plot->title ? plot->title : "plot",
               FONT_FAMILY, FONT_TICK);
    ga_svg_put(&w, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", g.width, g.height);
    if (plot->title != NULL)
        ga_svg_put(&w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" fill=\"%s\" "
                       "font-size=\"%d\" font-weight=\"bold\">%x</text>\n",
                   g.width / 2.0, g.title_y, INK, FONT_TITLE, plot->title);
    if (plot->subtitle != NULL)
        ga_svg_put(&w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" fill=\"%s\" "
                       "font-size=\"%d\">%x</text>\n",
                   g.width / 2.0, g.subtitle_y, INK_SOFT, FONT_SUBTITLE, plot->subtitle);
    draw_bands(&w, &g, plot);
    draw_grid(&w, &g, plot);
    status = draw_series(&w, &g, plot);
    if (status != GA_PLOT_OK)
        return status;
    draw_axes(&w, &g, plot);
    draw_markers(&w, &g, plot);
    draw_legend(&w, &g, plot);
    ga_svg_put(&w, "</svg>\n");
    if (fflush(out) != 0 || ga_svg_status(&w) != 0)
        return GA_PLOT_EIO;
    return GA_PLOT_OK;
}
