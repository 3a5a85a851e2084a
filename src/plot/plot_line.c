/* Line and step series as one SVG path: clipped to the data area, in tenths
 * of a pixel, with the points that fall in one pixel column reduced to the
 * few that change the picture. */
#include <math.h>
#include <string.h>

#include "plot/plot_private.h"
#include "plot/svg.h"
#include "formats/fp_contract.h"   /* the same coordinates whatever -march */

/* A polyline in tenths of a pixel, written as absolute moves and relative
 * lines: deltas of rounded positions, so nothing drifts. */
struct pen {
    struct ga_svg *w;
    long x, y;          /* current position, tenths */
    int down;           /* inside a subpath */
    int drew;           /* the current subpath has a segment */
    int any;            /* anything written */
};

static void pen_move(struct pen *p, long x, long y)
{
    if (p->down && !p->drew)    /* a lone point: a dot, thanks to round caps */
        ga_svg_put(p->w, "h0");
    ga_svg_put(p->w, "M%t %t", x, y);
    p->x = x;
    p->y = y;
    p->down = 1;
    p->drew = 0;
    p->any = 1;
}

static void pen_line(struct pen *p, long x, long y)
{
    if (x == p->x && y == p->y)
        return;
    if (x == p->x)
        ga_svg_put(p->w, "v%t", y - p->y);
    else if (y == p->y)
        ga_svg_put(p->w, "h%t", x - p->x);
    else
        ga_svg_put(p->w, "l%t %t", x - p->x, y - p->y);
    p->x = x;
    p->y = y;
    p->drew = 1;
}

static void pen_finish(struct pen *p)
{
    if (p->down && !p->drew)
        ga_svg_put(p->w, "h0");
    if (!p->any)
        ga_svg_put(p->w, "M0 0");
    p->down = 0;
}

/* Liang-Barsky: clips the segment to the box; returns 0 when nothing is
 * left.  The box is the plot area with its bands. */
static int clip_segment(double box[4], double *x0, double *y0, double *x1, double *y1)
{
    double dx = *x1 - *x0, dy = *y1 - *y0;
    double p[4] = { -dx, dx, -dy, dy };
    double q[4] = { *x0 - box[0], box[1] - *x0, *y0 - box[2], box[3] - *y0 };
    double t0 = 0, t1 = 1;
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return 0;
            continue;
        }
        double r = q[i] / p[i];
        if (p[i] < 0) {
            if (r > t1)
                return 0;
            if (r > t0)
                t0 = r;
        } else {
            if (r < t0)
                return 0;
            if (r < t1)
                t1 = r;
        }
    }
    double ox = *x0, oy = *y0;
    if (t1 < 1) {
        *x1 = ox + t1 * dx;
        *y1 = oy + t1 * dy;
    }
    if (t0 > 0) {
        *x0 = ox + t0 * dx;
        *y0 = oy + t0 * dy;
    }
    return 1;
}

struct polyline {
    struct pen pen;
    double box[4];          /* left, right, top, bottom */
    int have_prev;
    double prev_x, prev_y;  /* last vertex, px (unclipped) */
};

static void poly_vertex(struct polyline *pl, double x, double y)
{
    if (isnan(x) || isnan(y)) {     /* a gap */
        pl->have_prev = 0;
        return;
    }
    if (!pl->have_prev) {
        pl->have_prev = 1;
        pl->prev_x = x;
        pl->prev_y = y;
        if (x >= pl->box[0] && x <= pl->box[1] && y >= pl->box[2] && y <= pl->box[3])
            pen_move(&pl->pen, ga_svg_tenths(x), ga_svg_tenths(y));
        return;
    }
    double x0 = pl->prev_x, y0 = pl->prev_y, x1 = x, y1 = y;
    pl->prev_x = x;
    pl->prev_y = y;
    if (!clip_segment(pl->box, &x0, &y0, &x1, &y1))
        return;
    long tx0 = ga_svg_tenths(x0), ty0 = ga_svg_tenths(y0);
    if (!pl->pen.down || tx0 != pl->pen.x || ty0 != pl->pen.y)
        pen_move(&pl->pen, tx0, ty0);
    pen_line(&pl->pen, ga_svg_tenths(x1), ga_svg_tenths(y1));
}

/* Breaks the subpath: the next vertex starts afresh. */
static void poly_gap(struct polyline *pl)
{
    pl->have_prev = 0;
    if (pl->pen.down && !pl->pen.drew)
        ga_svg_put(pl->pen.w, "h0");
    pl->pen.down = 0;
    pl->pen.drew = 0;
}

/* Column decimation: consecutive vertices in the same pixel column are
 * reduced to the first, lowest, highest and last of them, in their order:
 * the same picture as all of them, at most four vertices a column. */
struct vertex {
    double x, y;
    size_t at;              /* position in the series, for ordering */
};

struct column {
    long col;
    size_t count;
    struct vertex pick[4];  /* first, lowest, highest, last */
};

static void column_flush(struct polyline *pl, struct column *c)
{
    if (c->count == 0)
        return;
    struct vertex v[4];
    memcpy(v, c->pick, sizeof v);
    for (int i = 1; i < 4; i++)     /* insertion sort by position */
        for (int j = i; j > 0 && v[j].at < v[j - 1].at; j--) {
            struct vertex t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    for (int i = 0; i < 4; i++)
        if (i == 0 || v[i].at != v[i - 1].at)
            poly_vertex(pl, v[i].x, v[i].y);
    c->count = 0;
}

static void column_add(struct polyline *pl, struct column *c, size_t at, double x, double y)
{
    long col = lround(floor(x));
    if (c->count > 0 && col != c->col)
        column_flush(pl, c);
    struct vertex v = { x, y, at };
    if (c->count == 0) {
        c->col = col;
        for (int i = 0; i < 4; i++)
            c->pick[i] = v;
    } else {
        if (y < c->pick[1].y)
            c->pick[1] = v;
        if (y > c->pick[2].y)
            c->pick[2] = v;
        c->pick[3] = v;
    }
    c->count++;
}

void ga_plot_draw_line(struct ga_svg *w, const struct ga_plot_frame *f, double top, double bottom,
                       const struct ga_series *s, const char *color, double width, const char *dash)
{
    struct polyline pl;
    memset(&pl, 0, sizeof pl);
    pl.pen.w = w;
    pl.box[0] = f->left;
    pl.box[1] = f->right;
    pl.box[2] = top;
    pl.box[3] = bottom;
    struct column col;
    memset(&col, 0, sizeof col);

    ga_svg_put(w, "<path fill=\"none\" stroke=\"%s\" stroke-width=\"%p\" "
                  "stroke-linecap=\"round\" stroke-linejoin=\"round\"%s d=\"",
               color, width, dash);
    size_t index = 0;
    for (size_t i = 0; i < s->n; i++) {
        double px = ga_plot_frame_x(f, s->x[i]);
        double py = ga_plot_map_y(f, s->y[i], 0);
        if (isnan(px) || isnan(py)) {
            column_flush(&pl, &col);
            poly_gap(&pl);
            continue;
        }
        column_add(&pl, &col, index++, px, py);
        if (s->kind == GA_SERIES_STEP && i + 1 < s->n) {
            /* Hold y[i] until x[i+1]. */
            double nx = ga_plot_frame_x(f, s->x[i + 1]);
            if (!isnan(nx))
                column_add(&pl, &col, index++, nx, py);
        }
    }
    column_flush(&pl, &col);
    pen_finish(&pl.pen);
    ga_svg_put(w, "\"/>\n");
}
