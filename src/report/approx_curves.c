/* How far the approximations are from exact GELU, as functions: the
 * difference curves gelu_tanh - gelu and quick - gelu, and their plots.
 *
 * Both differences are even functions: gelu(x) - gelu(-x) = x, and the same
 * identity holds for gelu_tanh (tanh is odd) and for quick (sigma(t) +
 * sigma(-t) = 1), so they cancel in the difference (doc/mathematics.md,
 * 'Shape facts'). */
#include "report/pictures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot.h"
#include "report/report_file.h"

/* The quick GELU constant (doc/mathematics.md, 'Quick GELU': x * sigma(1.702 x)). */
#define QUICK_SCALE 1.702

/* The curves span [-8, 8]: at the ends quick - gelu is -9.8e-6 and
 * gelu_tanh - gelu 5e-15, nothing a linear axis shows. */
#define CURVE_LO (-8.0)
#define CURVE_HI 8.0
#define CURVE_POINTS 1601   /* a step of 0.01 */

static double exact_value(const struct ga_exact *e)
{
    if (e->exp == GA_EXACT_EXP_MIN)
        return 0;
    return ldexp(e->mant, (int)e->exp);
}

int ga_approximation_curves(double lo, double hi, size_t n, double *x, double *tanh_minus_gelu,
                            double *quick_minus_gelu)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32);

    if (n < 2 || !(lo < hi))
        return -1;
    for (size_t i = 0; i < n; i++) {
        float xf = (float)(lo + (hi - lo) * (double)i / (double)(n - 1));
        struct ga_truth g, t;
        uint32_t bits;
        double gelu;

        memcpy(&bits, &xf, sizeof bits);
        if (ga_truth_mpfr(GA_GELU, f32, bits, &g) != GA_TRUTH_OK
            || ga_truth_mpfr(GA_GELU_TANH, f32, bits, &t) != GA_TRUTH_OK)
            return -1;
        x[i] = xf;
        /* Each exact value is good to 2^-50 relative: the difference of two
         * values below 8 is good to 2^-46, far below what a plot shows. */
        gelu = exact_value(&g.exact);
        tanh_minus_gelu[i] = exact_value(&t.exact) - gelu;
        quick_minus_gelu[i] = x[i] / (1 + exp(-QUICK_SCALE * x[i])) - gelu;
    }
    return 0;
}

/* Index of the largest |y|; the first on ties. */
static size_t argmax_abs(const double *y, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (fabs(y[i]) > fabs(y[best]))
            best = i;
    return best;
}

struct curves {
    double x[CURVE_POINTS], tanh_diff[CURVE_POINTS], quick_diff[CURVE_POINTS];
};

struct curve_plot {
    const struct curves *c;
    bool tanh_only;
};

static int write_curve_plot(FILE *out, const void *ctx)
{
    const struct curve_plot *cp = ctx;
    const struct curves *c = cp->c;
    size_t it = argmax_abs(c->tanh_diff, CURVE_POINTS);
    size_t iq = argmax_abs(c->quick_diff, CURVE_POINTS);
    char tanh_label[128], quick_label[128], subtitle[256];
    struct ga_series s[2] = {
        { .kind = GA_SERIES_LINE, .x = c->x, .y = c->quick_diff, .n = CURVE_POINTS, .color = 2,
          .label = "quick(x) \xe2\x88\x92 gelu(x), quick(x) = x\xc2\xb7\xcf\x83(1.702x)" },
        { .kind = GA_SERIES_LINE, .x = c->x, .y = c->tanh_diff, .n = CURVE_POINTS, .color = 1,
          .label = "gelu_tanh(x) \xe2\x88\x92 gelu(x)" },
    };
    struct ga_marker m[4];
    size_t nm = 0;
    struct ga_plot p = {
        .width = 660, .height = 440,
        .x = { .label = "input x", .min = CURVE_LO, .max = CURVE_HI },
        .y = { .label = "approximation \xe2\x88\x92 exact GELU (absolute)" },
        .markers = m, .legend = GA_LEGEND_TOP,
    };

    /* The curves are even: mark the maximum on both sides. */
    /* Short labels (the colour tells the curve): they sit right of x = 2.7. */
    snprintf(tanh_label, sizeof tanh_label, "max %.3g at |x| = %.2f", fabs(c->tanh_diff[it]),
             fabs(c->x[it]));
    snprintf(quick_label, sizeof quick_label, "max %.3g at |x| = %.2f", fabs(c->quick_diff[iq]),
             fabs(c->x[iq]));
    if (cp->tanh_only) {
        p.title = "The tanh form minus exact GELU";
        p.series = &s[1];
        p.nseries = 1;
        p.legend = GA_LEGEND_NONE;
        m[nm++] = (struct ga_marker){ GA_MARK_X, -fabs(c->x[it]), NULL, 1 };
        m[nm++] = (struct ga_marker){ GA_MARK_X, fabs(c->x[it]), tanh_label, 1 };
        snprintf(subtitle, sizeof subtitle, "both exact (MPFR), on %d float32 inputs",
                 CURVE_POINTS);
    } else {
        p.title = "The approximations minus exact GELU";
        p.series = s;
        p.nseries = 2;
        /* The tanh line first: the quick label is then drawn over it. */
        m[nm++] = (struct ga_marker){ GA_MARK_X, fabs(c->x[it]), tanh_label, 1 };
        m[nm++] = (struct ga_marker){ GA_MARK_X, -fabs(c->x[iq]), NULL, 2 };
        m[nm++] = (struct ga_marker){ GA_MARK_X, fabs(c->x[iq]), quick_label, 2 };
        snprintf(subtitle, sizeof subtitle,
                 "gelu, gelu_tanh exact (MPFR), quick in double; %d float32 inputs", CURVE_POINTS);
    }
    p.subtitle = subtitle;
    p.nmarkers = nm;
    return ga_picture_write_svg(&p, out);
}

enum ga_io_status ga_write_approximation_pictures(const char *dir, struct ga_io_error *err)
{
    struct curves *c;
    enum ga_io_status status = ga_make_pictures_dir(dir, err);

    if (status != GA_IO_OK)
        return status;
    if (!(c = malloc(sizeof *c)))
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: out of memory", GA_PICTURE_APPROXIMATIONS);
    if (ga_approximation_curves(CURVE_LO, CURVE_HI, CURVE_POINTS, c->x, c->tanh_diff,
                                c->quick_diff) != 0) {
        free(c);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: the MPFR oracle failed",
                          GA_PICTURE_APPROXIMATIONS);
    }
    struct curve_plot both = { c, false }, tanh_only = { c, true };
    status = ga_write_report_file(dir, GA_PICTURE_APPROXIMATIONS, true, write_curve_plot, &both,
                                  err);
    if (status == GA_IO_OK)
        status = ga_write_report_file(dir, GA_PICTURE_APPROXIMATIONS_TANH, true,
                                      write_curve_plot, &tanh_only, err);
    free(c);
    return status;
}
