/* Writes one sample SVG per chart kind, and an HTML page showing them, so
 * the plots can be looked at: plot_demo [DIR] (default /tmp/plots).
 *
 * Not a test and not the report: the data are quick stand-ins computed in
 * double (x/2 * erfc(-x/sqrt 2)) rather than by the MPFR oracle. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/format.h"
#include "formats/fp_contract.h"   /* same data whatever -march */
#include "plot/plot.h"

#define NBINS 1024

static const char *const names[] = {
    "scatter_symlog", "scatter_linear", "bins_float32", "curves", "curve_tanh",
    "histogram", "histogram_wide", "overview", "overview_legend_right", "empty_plot", "empty_series",
};

/* index.html shows the files through <img>; inline.html pastes them in,
 * the way a report embeds them. */
static int write_pages(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/index.html", dir);
    FILE *idx = fopen(path, "w");
    snprintf(path, sizeof path, "%s/inline.html", dir);
    FILE *in = fopen(path, "w");
    if (idx == NULL || in == NULL)
        return -1;
    const char *head = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<title>plot samples</title></head><body>\n";
    fputs(head, idx);
    fputs(head, in);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        fprintf(idx, "<p><img src=\"%s.svg\" alt=\"%s\"></p>\n", names[i], names[i]);
        snprintf(path, sizeof path, "%s/%s.svg", dir, names[i]);
        FILE *svg = fopen(path, "r");
        if (svg == NULL)
            return -1;
        char buf[65536];
        size_t n;
        fputs("<div>\n", in);
        while ((n = fread(buf, 1, sizeof buf, svg)) > 0)
            fwrite(buf, 1, n, in);
        fputs("</div>\n", in);
        fclose(svg);
    }
    fputs("</body></html>\n", idx);
    fputs("</body></html>\n", in);
    return (fclose(idx) != 0) | (fclose(in) != 0) ? -1 : 0;
}

static double gelu_double(double x)
{
    return 0.5 * x * erfc(-x * M_SQRT1_2);
}

static float gelu_erf_float(float x)
{
    return 0.5f * x * (1.0f + erff(x * (float)M_SQRT1_2));
}

static float gelu_tanh_float(float x)
{
    const float beta = 0.7978845608f, kappa = 0.044715f;
    return 0.5f * x * (1.0f + tanhf(beta * (x + kappa * x * x * x)));
}

/* ulp error of an encoding y against the exact value (doc/metrics.md). */
static double ulp_error(const struct ga_format *f, ga_bits y, double exact)
{
    if (ga_is_nan(f, y))
        return NAN;
    double v = ga_decode(f, y);
    if (isinf(v))
        return v == exact ? 0 : INFINITY;
    return fabs(v - exact) / ga_ulp(f, exact);
}

static int write_plot(const char *dir, const char *name, const struct ga_plot *p)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.svg", dir, name);
    FILE *out = fopen(path, "w");
    if (out == NULL) {
        fprintf(stderr, "plot_demo: %s: %s\n", path, strerror(errno));
        return -1;
    }
    int status = ga_plot_write_svg(p, out);
    if (fclose(out) != 0 && status == GA_PLOT_OK)
        status = GA_PLOT_EIO;
    if (status != GA_PLOT_OK) {
        const char *why = "";
        ga_plot_check(p, &why);
        fprintf(stderr, "plot_demo: %s: %s %s\n", path, ga_plot_strerror(status), why);
        return -1;
    }
    struct stat st;
    if (stat(path, &st) == 0)
        printf("%s  %lld bytes\n", path, (long long)st.st_size);
    return 0;
}

/* All float16 inputs: x and ulp errors of two float32 formulas rounded once. */
struct f16_sweep {
    double x[65536], err_erf[65536], err_tanh[65536];
    size_t n;
};

static void sweep_float16(struct f16_sweep *s)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    s->n = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        double x = ga_decode(f, b);
        if (isnan(x))
            continue;
        double exact = isinf(x) ? (x > 0 ? x : -0.0) : gelu_double(x);
        ga_bits ye = ga_encode(f, gelu_erf_float((float)x));
        ga_bits yt = ga_encode(f, gelu_tanh_float((float)x));
        s->x[s->n] = x;
        s->err_erf[s->n] = ulp_error(f, ye, exact);
        s->err_tanh[s->n] = ulp_error(f, yt, exact);
        s->n++;
    }
}

/* Ordinal-distance histogram bins: 0, 1, 2, 3-4, 5-8, ..., NaN. */
#define HIST_BINS 12
static const char *const hist_labels[HIST_BINS] = {
    "0", "1", "2", "3\xe2\x80\x93" "4", "5\xe2\x80\x93" "8", "9\xe2\x80\x93" "16",
    "17\xe2\x80\x93" "32", "33\xe2\x80\x93" "64", "65\xe2\x80\x93" "128",
    "129\xe2\x80\x93" "256", ">256", "NaN",
};

static int hist_bin(double err)
{
    if (isnan(err))
        return HIST_BINS - 1;
    double d = ceil(err - 0.5);     /* a stand-in for the ordinal distance */
    if (d <= 2)
        return d < 0 ? 0 : (int)d;
    int bin = 3;
    for (double hi = 4; d > hi && bin < HIST_BINS - 2; hi *= 2)
        bin++;
    return bin;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "/tmp/plots";
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "plot_demo: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    int failed = 0;
    static struct f16_sweep sw;
    sweep_float16(&sw);

    /* 1. Scatter, full float16 range on a symlog x axis, log y with bands. */
    {
        struct ga_series s[] = {
            { .kind = GA_SERIES_POINTS, .label = "float32 erf form, rounded once",
              .x = sw.x, .y = sw.err_erf, .n = sw.n },
        };
        struct ga_marker m[] = {
            { .axis = GA_MARK_X, .value = -5.5426, .label = "1 + erf(u) = 0 from here" },
            { .axis = GA_MARK_Y, .value = 0.5, .label = "correctly rounded: \xe2\x89\xa4 0.5 ulp" },
        };
        struct ga_plot p = {
            .title = "GELU float16: ulp error of every input",
            .subtitle = "65536 inputs; x/2\xc2\xb7(1 + erf(x/\xe2\x88\x9a" "2)) in float32, rounded to float16",
            .x = { .label = "input x", .scale = GA_SCALE_SYMLOG, .linthresh = 1,
                   .min = -65504, .max = 65504 },
            .y = { .label = "error (ulp)", .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
                   .low_band = "0", .high_band = "NaN/inf/>1e6" },
            .series = s, .nseries = 1, .markers = m, .nmarkers = 2,
        };
        failed |= write_plot(dir, "scatter_symlog", &p);

        p.title = "GELU float16: ulp error on [\xe2\x88\x92" "12, 12]";
        p.x = (struct ga_axis){ .label = "input x", .min = -12, .max = 12 };
        failed |= write_plot(dir, "scatter_linear", &p);
    }

    /* 2. Per-bin maximum and mean, float32, 1024 bins over [-12, 12]. */
    {
        static double xb[NBINS + 1], mx[NBINS + 1], mean[NBINS + 1];
        const struct ga_format *f = ga_format_get(GA_FLOAT32);
        for (int b = 0; b < NBINS; b++) {
            double lo = -12 + 24.0 * b / NBINS, hi = -12 + 24.0 * (b + 1) / NBINS;
            double worst = 0, sum = 0;
            int n = 0;
            for (int k = 0; k < 64; k++) {
                float x = (float)(lo + (hi - lo) * (k + 0.5) / 64);
                double err = ulp_error(f, ga_encode(f, gelu_erf_float(x)), gelu_double(x));
                worst = isnan(err) || err > worst ? err : worst;
                sum += err;
                n++;
            }
            xb[b] = lo;
            mx[b] = worst;
            mean[b] = sum / n;
        }
        xb[NBINS] = 12;
        mx[NBINS] = mx[NBINS - 1];
        mean[NBINS] = mean[NBINS - 1];
        struct ga_series s[] = {
            { .kind = GA_SERIES_STEP, .label = "maximum per bin", .x = xb, .y = mx, .n = NBINS + 1 },
            { .kind = GA_SERIES_STEP, .label = "mean per bin", .x = xb, .y = mean, .n = NBINS + 1,
              .dash = GA_DASH_DASHED },
        };
        struct ga_marker m[] = {
            { .axis = GA_MARK_X, .value = -5.5426, .label = "left tail starts here", .color = 2 },
            { .axis = GA_MARK_X, .value = -4.6, .label = "|gelu| < 1e-5", .color = 0 },
        };
        struct ga_plot p = {
            .title = "GELU float32: error per bin (1024 bins)",
            .x = { .label = "input x", .min = -12, .max = 12 },
            .y = { .label = "error (ulp)", .scale = GA_SCALE_LOG10, .min = 1e-2, .max = 1e6,
                   .low_band = "0", .high_band = "NaN/inf/>1e6" },
            .series = s, .nseries = 2, .markers = m, .nmarkers = 2,
            .legend = GA_LEGEND_INSIDE_TOP_RIGHT,
        };
        failed |= write_plot(dir, "bins_float32", &p);
    }

    /* 3. Curves: approximations minus exact GELU. */
    {
        enum { N = 2001 };
        static double x[N], dt[N], dq[N];
        for (int i = 0; i < N; i++) {
            x[i] = -6 + 12.0 * i / (N - 1);
            double g = gelu_double(x[i]);
            double u = sqrt(2 / M_PI) * (x[i] + 0.044715 * x[i] * x[i] * x[i]);
            dt[i] = 0.5 * x[i] * (1 + tanh(u)) - g;
            dq[i] = x[i] / (1 + exp(-1.702 * x[i])) - g;
        }
        struct ga_series s[] = {
            { .kind = GA_SERIES_LINE, .label = "tanh form \xe2\x88\x92 GELU", .x = x, .y = dt, .n = N },
            { .kind = GA_SERIES_LINE, .label = "quick GELU x\xc2\xb7\xcf\x83(1.702x) \xe2\x88\x92 GELU",
              .x = x, .y = dq, .n = N },
        };
        struct ga_marker m[] = {
            { .axis = GA_MARK_X, .value = -2.27, .label = "quick: max at |x| \xe2\x89\x88 2.27" },
            { .axis = GA_MARK_X, .value = 2.70, .label = "tanh: max at |x| \xe2\x89\x88 2.70" },
        };
        struct ga_plot p = {
            .title = "Approximations minus exact GELU (in double)",
            .x = { .label = "input x" },
            .y = { .label = "difference" },
            .series = s, .nseries = 2, .markers = m, .nmarkers = 2,
            .legend = GA_LEGEND_TOP,
        };
        failed |= write_plot(dir, "curves", &p);
        /* The tanh form alone: 4.7e-4 scale, ticks in "1e-4" style. */
        p.title = "tanh form minus exact GELU";
        p.nseries = 1;
        p.markers = m + 1;
        p.nmarkers = 1;
        p.legend = GA_LEGEND_NONE;
        failed |= write_plot(dir, "curve_tanh", &p);
    }

    /* 4. Histogram of distances, log counts, two implementations. */
    {
        static double ce[HIST_BINS], ct[HIST_BINS];
        for (size_t i = 0; i < sw.n; i++) {
            ce[hist_bin(sw.err_erf[i])]++;
            ct[hist_bin(sw.err_tanh[i])]++;
        }
        struct ga_series s[] = {
            { .kind = GA_SERIES_BARS, .label = "erf form", .y = ce, .n = HIST_BINS },
            { .kind = GA_SERIES_BARS, .label = "tanh form", .y = ct, .n = HIST_BINS },
        };
        struct ga_plot p = {
            .title = "GELU float16: distance from the correctly rounded result",
            .x = { .label = "ordinal distance (representable values)",
                   .categories = hist_labels, .ncategories = HIST_BINS },
            .y = { .label = "inputs", .scale = GA_SCALE_LOG10 },
            .series = s, .nseries = 2,
        };
        failed |= write_plot(dir, "histogram", &p);

        /* Float32-sized distance bins: long labels, drawn slanted. */
        enum { WIDE = 26 };
        static char text[WIDE][32];
        static const char *labels[WIDE];
        static double counts[WIDE];
        for (int i = 0; i < WIDE; i++) {
            long long lo = i < 3 ? i : (1ll << (i - 2)) + 1, hi = i < 3 ? i : 1ll << (i - 1);
            if (i == WIDE - 1)
                snprintf(text[i], sizeof text[i], "NaN");
            else if (lo == hi)
                snprintf(text[i], sizeof text[i], "%lld", lo);
            else
                snprintf(text[i], sizeof text[i], "%lld\xe2\x80\x93%lld", lo, hi);
            labels[i] = text[i];
            counts[i] = i == WIDE - 1 ? 3 : floor(4e9 * pow(0.35, i));
        }
        struct ga_series w = { .kind = GA_SERIES_BARS, .label = "float32 erf form",
                               .y = counts, .n = WIDE };
        struct ga_plot q = {
            .title = "GELU float32: distance from the correctly rounded result",
            .x = { .label = "ordinal distance", .categories = labels, .ncategories = WIDE },
            .y = { .label = "inputs", .scale = GA_SCALE_LOG10 },
            .series = &w, .nseries = 1,
        };
        failed |= write_plot(dir, "histogram_wide", &q);
    }

    /* 5. Overview: several implementations on one scatter. */
    {
        static double shifted[65536];
        for (size_t i = 0; i < sw.n; i++)   /* a third, made-up implementation */
            shifted[i] = sw.err_erf[i] * 3;
        struct ga_series s[] = {
            { .kind = GA_SERIES_POINTS, .label = "tanh form", .x = sw.x, .y = sw.err_tanh, .n = sw.n },
            { .kind = GA_SERIES_POINTS, .label = "erf form", .x = sw.x, .y = sw.err_erf, .n = sw.n },
            { .kind = GA_SERIES_POINTS, .label = "made-up \"3\xc3\x97 erf\" <demo> & co", .x = sw.x,
              .y = shifted, .n = sw.n },
        };
        struct ga_plot p = {
            .title = "GELU float16: all implementations",
            .x = { .label = "input x", .min = -12, .max = 12 },
            .y = { .label = "error (ulp)", .scale = GA_SCALE_LOG10, .min = 1e-3, .max = 1e6,
                   .low_band = "0", .high_band = "NaN/inf/>1e6" },
            .series = s, .nseries = 3,
        };
        failed |= write_plot(dir, "overview", &p);
        p.legend = GA_LEGEND_RIGHT;
        failed |= write_plot(dir, "overview_legend_right", &p);
    }

    /* 6. Edge cases: nothing at all, and an empty series. */
    {
        struct ga_plot p = { 0 };
        failed |= write_plot(dir, "empty_plot", &p);
        struct ga_series s = { .kind = GA_SERIES_LINE, .label = "no data" };
        struct ga_plot q = { .title = "An empty series", .series = &s, .nseries = 1,
                             .y = { .scale = GA_SCALE_LOG10, .low_band = "0" } };
        failed |= write_plot(dir, "empty_series", &q);
    }
    if (!failed && write_pages(dir) != 0) {
        fprintf(stderr, "plot_demo: cannot write the HTML pages in %s\n", dir);
        failed = 1;
    }
    return failed ? 1 : 0;
}
