/* The heat map of a backward model over the (x, dy) plane
 * (measure/backward_heat.h): one rectangle per run of cells of one colour,
 * colour = the share of pairs not correctly rounded, on a log scale. */
#include <stdbool.h>
#include <string.h>

#include "plot/svg.h"
#include "report/backward_section.h"
#include "report/pictures.h"
#include "report/report_file.h"

#define CELL_W 4.0
#define CELL_H 2.0
#define GAP 6.0       /* between [-8, 8] and the columns beyond */
#define LEFT 80.0
#define TOP 40.0
#define LEGEND_W 150.0

/* Shares above these bounds take the next colour (log scale); 0 is white. */
static const double level_top[] = { 1e-4, 1e-3, 1e-2, 1e-1, 0.5, 1.0 };
static const char *const level_colour[] = { "#fff5b8", "#fed976", "#fd8d3c", "#e31a1c",
                                            "#a50026", "#4a0012" };
static const char *const level_name[] = { "≤ 0.01 %", "≤ 0.1 %", "≤ 1 %", "≤ 10 %", "≤ 50 %",
                                          "> 50 %" };
#define LEVELS (sizeof level_top / sizeof level_top[0])
#define EMPTY_COLOUR "#d9d9d9"
#define ZERO_COLOUR "#ffffff"

static const char *cell_colour(const struct ga_heat_cell *c)
{
    if (c->count == 0)
        return EMPTY_COLOUR;
    if (c->incorrect == 0)
        return ZERO_COLOUR;
    for (size_t k = 0; k + 1 < LEVELS; k++)  /* incorrect / count <= bound, in integers */
        if ((double)c->incorrect <= level_top[k] * (double)c->count)
            return level_colour[k];
    return level_colour[LEVELS - 1];
}

static double column_x(int k)
{
    if (k < GA_HEAT_X_BINS)
        return LEFT + 2 * CELL_W + GAP + k * CELL_W;
    return k == GA_HEAT_COLUMN_BELOW ? LEFT : LEFT + 3 * CELL_W + 2 * GAP + GA_HEAT_X_BINS * CELL_W;
}

/* Columns in drawing order: x < -8, the bins, x > 8. */
static int drawn_column(int j)
{
    return j == 0 ? GA_HEAT_COLUMN_BELOW : j <= GA_HEAT_X_BINS ? j - 1 : GA_HEAT_COLUMN_ABOVE;
}

static double column_width(int k)
{
    return k < GA_HEAT_X_BINS ? CELL_W : 2 * CELL_W;
}

struct heat_picture {
    const struct ga_backward_section *s;
    size_t row;
};

/* The cells of one colour: a path of one rectangle per run of adjacent
 * bins of that colour (within [-8, 8); the columns beyond stand alone). */
static void cells_of(struct ga_svg *w, const struct ga_backward_heat *h, const char *colour)
{
    bool any = false;

    for (int r = 0; r < h->rows; r++) {
        double y = TOP + (h->rows - r - 1) * CELL_H;  /* exponent 0 at the bottom */
        for (int j = 0; j < GA_HEAT_COLUMNS;) {
            int k = drawn_column(j), end = j + 1;
            bool mine = strcmp(cell_colour(&h->cell[r][k]), colour) == 0;
            while (k < GA_HEAT_X_BINS && end <= GA_HEAT_X_BINS
                   && (strcmp(cell_colour(&h->cell[r][drawn_column(end)]), colour) == 0) == mine)
                end++;
            if (mine) {
                int last = drawn_column(end - 1);
                if (!any)
                    ga_svg_put(w, "<path fill=\"%s\" d=\"", colour);
                any = true;
                ga_svg_put(w, "M%p %ph%pv%ph%pz", column_x(k), y,
                           column_x(last) + column_width(last) - column_x(k), CELL_H,
                           column_x(k) - column_x(last) - column_width(last));
            }
            j = end;
        }
    }
    if (any)
        ga_svg_put(w, "\"/>\n");
}

static void cells(struct ga_svg *w, const struct ga_backward_heat *h)
{
    /* the cells with no pair: the background of each block of columns */
    for (int j = 0; j < 3; j++) {
        int first = j == 0 ? GA_HEAT_COLUMN_BELOW : j == 1 ? 0 : GA_HEAT_COLUMN_ABOVE;
        int last = j == 1 ? GA_HEAT_X_BINS - 1 : first;
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"%p\" height=\"%p\" fill=\"%s\"/>\n",
                   column_x(first), TOP, column_x(last) + column_width(last) - column_x(first),
                   h->rows * CELL_H, EMPTY_COLOUR);
    }
    cells_of(w, h, ZERO_COLOUR);
    for (size_t k = 0; k < LEVELS; k++)
        cells_of(w, h, level_colour[k]);
}

static void axes(struct ga_svg *w, const struct ga_backward_heat *h)
{
    const struct ga_format *f = h->format;
    double bottom = TOP + h->rows * CELL_H;
    static const int ticks[] = { -8, -4, -2, 0, 2, 4, 8 };
    char text[32];
    int bias = ga_exponent_bias(f);

    for (size_t t = 0; t < sizeof ticks / sizeof ticks[0]; t++) {
        double x = column_x(0) + (ticks[t] + GA_HEAT_X_LIMIT) * (GA_HEAT_X_BINS * CELL_W)
                                     / (2 * GA_HEAT_X_LIMIT);
        snprintf(text, sizeof text, "%d", ticks[t]);
        ga_svg_put(w, "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" y2=\"%p\" stroke=\"#000\"/>\n"
                      "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">%x</text>\n",
                   x, bottom, x, bottom + 4, x, bottom + 16, text);
    }
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">&lt;&#8722;8</text>\n"
                  "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">&gt;8</text>\n",
               column_x(GA_HEAT_COLUMN_BELOW) + CELL_W, bottom + 16,
               column_x(GA_HEAT_COLUMN_ABOVE) + CELL_W, bottom + 16);
    /* x0, the root of gelu' */
    double x0 = column_x(0) + (-0.7517915247 + GA_HEAT_X_LIMIT) * (GA_HEAT_X_BINS * CELL_W)
                                  / (2 * GA_HEAT_X_LIMIT);
    ga_svg_put(w, "<line x1=\"%p\" y1=\"%p\" x2=\"%p\" y2=\"%p\" stroke=\"#0072b2\" "
                  "stroke-dasharray=\"3,3\"/>\n<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" "
                  "fill=\"#0072b2\">x&#8320;</text>\n", x0, TOP, x0, bottom, x0, TOP - 4);
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\">x</text>\n",
               column_x(GA_HEAT_X_BINS / 2), bottom + 32);
    /* dy's exponent: every 32nd binade (5th in a narrow field), then the special rows */
    for (int e = -bias + 1; e <= f->emax; e++) {
        int r = e + bias;
        if (e % (h->rows > 64 ? 32 : 5) != 0)
            continue;
        snprintf(text, sizeof text, "2^%d", e);
        ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\">%x</text>\n", LEFT - 6,
                   TOP + (h->rows - r - 0.5) * CELL_H + 4, text);
    }
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"end\">0, sub</text>\n"
                  "<text x=\"%p\" y=\"%p\" text-anchor=\"end\">inf, NaN</text>\n",
               LEFT - 6, bottom + 2, LEFT - 6, TOP + 6);
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\" text-anchor=\"middle\" transform=\"rotate(-90 %p %p)\">"
                  "|dy| (exponent)</text>\n", 16.0, TOP + h->rows * CELL_H / 2, 16.0,
               TOP + h->rows * CELL_H / 2);
}

static void legend(struct ga_svg *w, double x)
{
    ga_svg_put(w, "<text x=\"%p\" y=\"%p\">not correctly rounded</text>\n", x, TOP + 8);
    for (size_t k = 0; k <= LEVELS + 1; k++) {
        const char *colour = k == 0 ? EMPTY_COLOUR : k == 1 ? ZERO_COLOUR : level_colour[k - 2];
        const char *name = k == 0 ? "no pair" : k == 1 ? "none" : level_name[k - 2];
        double y = TOP + 20 + k * 18;
        ga_svg_put(w, "<rect x=\"%p\" y=\"%p\" width=\"12\" height=\"12\" fill=\"%s\" "
                      "stroke=\"#888\"/>\n<text x=\"%p\" y=\"%p\">%x</text>\n",
                   x, y, colour, x + 18, y + 10, name);
    }
}

static int write_heatmap(FILE *out, const void *ctx)
{
    const struct heat_picture *p = ctx;
    const struct ga_backward_row *row = &p->s->rows[p->row];
    const struct ga_backward_heat *h = row->heat;
    double right = column_x(GA_HEAT_COLUMN_ABOVE) + 2 * CELL_W;
    double width = right + 20 + LEGEND_W, height = TOP + h->rows * CELL_H + 44;
    char title[256];
    struct ga_svg w;

    snprintf(title, sizeof title, "%s in %s: pairs not correctly rounded (against %s)",
             row->impl->name, h->format->name, ga_function_name(row->reference));
    ga_svg_init(&w, out);
    ga_svg_put(&w, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%p\" height=\"%p\" "
                   "viewBox=\"0 0 %p %p\" font-family=\"sans-serif\" font-size=\"11\">\n"
                   "<title>%x</title>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
                   "<text x=\"%p\" y=\"18\" font-size=\"13\">%x</text>\n",
               width, height, width, height, title, LEFT, title);
    cells(&w, h);
    axes(&w, h);
    legend(&w, right + 20);
    ga_svg_put(&w, "</svg>\n");
    return ga_svg_status(&w);
}

const char *ga_backward_heat_path(const struct ga_backward_section *s, size_t row,
                                  char buf[GA_HEAT_PATH_LEN])
{
    snprintf(buf, GA_HEAT_PATH_LEN, "plots/%s-backward-heat-%s.svg", s->format->name,
             s->rows[row].impl->name);
    return buf;
}

enum ga_io_status ga_write_backward_heatmaps(const char *dir, const struct ga_backward_section *s,
                                             struct ga_io_error *err)
{
    char path[GA_HEAT_PATH_LEN];
    enum ga_io_status status = ga_make_pictures_dir(dir, err);

    for (size_t i = 0; i < s->n && status == GA_IO_OK; i++) {
        struct heat_picture p = { s, i };
        if (s->rows[i].heat)
            status = ga_write_report_file(dir, ga_backward_heat_path(s, i, path), true,
                                          write_heatmap, &p, err);
    }
    return status;
}
