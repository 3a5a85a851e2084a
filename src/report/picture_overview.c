/* The overview: the worst ulp error of every implementation against exact
 * GELU, in bins of 1/8 along the input axis, on one plot. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/picture_view.h"
#include "report/pictures.h"
#include "measure/profile.h"

/* The overview's bins: 8 profile bins of 1/64, so that every bin holds an
 * input in each format (bfloat16 values lie 1/16 apart on [8, 16)). */
#define OVERVIEW_MERGE 8

/* "erf_native" is "erf" computed in the format itself (catalogue.c): the
 * two share a colour, the native one dashed, so that pairs read as pairs. */
#define NATIVE_SUFFIX "_native"

static size_t base_length(const char *name)
{
    size_t len = strlen(name), suffix = strlen(NATIVE_SUFFIX);
    if (len > suffix && strcmp(name + len - suffix, NATIVE_SUFFIX) == 0)
        return len - suffix;
    return len;
}

/* The colour of series for result i: one per base name, in order of first
 * appearance among the results drawn. */
static int base_color(const struct format_view *v, size_t i)
{
    const char *name = v->r[i].impl;
    size_t len = base_length(name);
    int color = 0;

    for (size_t j = 0; j < v->n; j++) {
        const struct ga_result *r = &v->r[j];
        bool earlier_base = false;
        if (r->reference != GA_GELU || !r->profile)
            continue;
        /* j is the first result with its base name? */
        for (size_t k = 0; k < j && !earlier_base; k++)
            earlier_base = v->r[k].reference == GA_GELU && v->r[k].profile
                           && base_length(v->r[k].impl) == base_length(r->impl)
                           && strncmp(v->r[k].impl, r->impl, base_length(r->impl)) == 0;
        if (earlier_base)
            continue;
        color++;
        if (base_length(r->impl) == len && strncmp(r->impl, name, len) == 0)
            break;
    }
    return (color - 1) % GA_PLOT_PALETTE_SIZE + 1;
}

int ga_picture_write_overview(FILE *out, const void *ctx)
{
    const struct format_view *v = ctx;
    const size_t bins = GA_PROFILE_BINS / OVERVIEW_MERGE;
    const double width = 2 * GA_PROFILE_RANGE / bins;
    size_t ns = 0;
    struct ga_series *s = calloc(v->n + 1, sizeof *s);
    double *xy = calloc(2 * (v->n + 1) * (bins + 1), sizeof *xy);
    char title[160], subtitle[256], under[96], a[GA_TEXT_LEN];
    struct ga_marker m[1];
    size_t nm = 0;
    int status;

    if (!s || !xy) {
        free(s);
        free(xy);
        return -1;
    }
    for (size_t i = 0; i < v->n; i++) {
        const struct ga_result *r = &v->r[i];
        double *xs = xy + 2 * ns * (bins + 1), *ys = xs + bins + 1;
        size_t k = 0;
        if (r->reference != GA_GELU || !r->profile)
            continue;
        /* Empty bins are skipped: the step holds across them. */
        for (size_t b = 0; b < bins; b++) {
            double lo = -GA_PROFILE_RANGE + width * (double)b, worst = -1;
            if (lo < v->x_min || lo + width > v->x_max)
                continue;
            for (size_t j = 0; j < OVERVIEW_MERGE; j++)
                if (r->profile->bin_max[b * OVERVIEW_MERGE + j] > worst)
                    worst = r->profile->bin_max[b * OVERVIEW_MERGE + j];
            if (worst < 0)
                continue;
            xs[k] = lo;
            ys[k] = worst;
            k++;
        }
        if (k > 0) {
            xs[k] = xs[k - 1] + width;
            ys[k] = ys[k - 1];
            k++;
        }
        s[ns] = (struct ga_series){ .kind = GA_SERIES_STEP, .label = r->impl, .x = xs, .y = ys,
                                    .n = k, .color = base_color(v, i),
                                    .dash = base_length(r->impl) < strlen(r->impl)
                                                ? GA_DASH_DASHED : GA_DASH_SOLID,
                                    .size = 1.4 };
        ns++;
    }
    if (v->has_under[GA_GELU]) {
        snprintf(under, sizeof under, "gelu rounds to " MINUS "0 for x " LE " %s",
                 ga_picture_marker_value(v->f, v->under[GA_GELU], a));
        m[nm++] = (struct ga_marker){ GA_MARK_X, ga_decode(v->f, v->under[GA_GELU]), under, 0 };
    }
    snprintf(title, sizeof title, "GELU in %s: worst ulp error of every implementation",
             v->f->name);
    snprintf(subtitle, sizeof subtitle,
             "maximum over bins of width 1/8, against exact GELU; NaN outputs are not in the "
             "bins (see the tables)");
    struct ga_plot p = { .width = OVERVIEW_WIDTH, .height = OVERVIEW_HEIGHT, .title = title,
                         .subtitle = subtitle, .series = s, .nseries = ns, .markers = m,
                         .nmarkers = nm, .legend = GA_LEGEND_RIGHT };
    ga_picture_error_axes(v, &p);
    status = ga_picture_write_svg(&p, out);
    free(s);
    free(xy);
    return status;
}

