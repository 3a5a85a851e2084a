/* Validation of a plot description before anything is written, and its
 * geometry once valid (placed by plot_layout.c). */
#include <math.h>
#include <stddef.h>

#include "plot/plot_private.h"

static const char *check_axis(const struct ga_axis *a, int is_x)
{
    if ((unsigned)a->scale > GA_SCALE_SYMLOG)
        return "unknown axis scale";
    if (!isfinite(a->linthresh) || a->linthresh < 0)
        return "symlog linthresh must be finite and >= 0";
    if (isnan(a->min) || isnan(a->max))
        return "axis range is NaN";
    if (a->min > a->max)
        return "axis range has min > max";
    if (a->min < a->max) {
        if (!isfinite(a->min) || !isfinite(a->max) || !isfinite(a->max - a->min))
            return "axis range must be finite";
        if (a->scale == GA_SCALE_LOG10 && !(a->min > 0))
            return "log10 axis needs min > 0";
    }
    if (is_x && (a->low_band != NULL || a->high_band != NULL))
        return "bands belong to the y axis";
    if (!is_x && a->categories != NULL)
        return "categories belong to the x axis";
    if (a->categories == NULL && a->ncategories > 0)
        return "ncategories > 0 without categories";
    if (a->categories != NULL) {
        if (a->ncategories == 0)
            return "categorical axis without categories";
        if (a->scale != GA_SCALE_LINEAR)
            return "categorical axis must be linear";
        if (a->min < a->max)
            return "categorical axis takes no explicit range";
    }
    return NULL;
}

static const char *check_series(const struct ga_plot *p, const struct ga_series *s)
{
    if ((unsigned)s->kind > GA_SERIES_BARS)
        return "unknown series kind";
    if ((unsigned)s->dash > GA_DASH_DOTTED)
        return "unknown dash style";
    if (s->color < 0)
        return "negative colour index";
    if (!isfinite(s->size) || s->size < 0 || s->size > 50)
        return "series size must be in [0, 50] px";
    if (s->n > 0 && s->y == NULL)
        return "series has n > 0 and no y values";
    if (s->kind == GA_SERIES_BARS) {
        if (p->x.categories == NULL)
            return "bar series need a categorical x axis";
    } else if (s->n > 0 && s->x == NULL) {
        return "series has n > 0 and no x values";
    }
    return NULL;
}

const char *ga_plot_invalid_reason(const struct ga_plot *plot)
{
    const char *reason;
    if (plot == NULL)
        return "no plot";
    if ((plot->width != 0 && (plot->width < 200 || plot->width > 8000))
        || (plot->height != 0 && (plot->height < 150 || plot->height > 8000)))
        return "width must be 0 or 200..8000, height 0 or 150..8000";
    if ((reason = check_axis(&plot->x, 1)) != NULL)
        return reason;
    if ((reason = check_axis(&plot->y, 0)) != NULL)
        return reason;
    if (plot->nseries > 0 && plot->series == NULL)
        return "nseries > 0 without series";
    if (plot->nmarkers > 0 && plot->markers == NULL)
        return "nmarkers > 0 without markers";
    for (size_t i = 0; i < plot->nseries; i++)
        if ((reason = check_series(plot, &plot->series[i])) != NULL)
            return reason;
    for (size_t i = 0; i < plot->nmarkers; i++) {
        const struct ga_marker *m = &plot->markers[i];
        if ((unsigned)m->axis > GA_MARK_Y)
            return "unknown marker axis";
        if (m->color < 0)
            return "negative colour index";
    }
    if ((unsigned)plot->legend > GA_LEGEND_INSIDE_TOP_RIGHT)
        return "unknown legend placement";
    return NULL;
}

int ga_plot_check(const struct ga_plot *plot, const char **why)
{
    struct plot_geometry g;
    const char *reason = ga_plot_invalid_reason(plot);
    if (reason == NULL && ga_plot_place(plot, &g) != 0)
        reason = "the canvas is too small for its title, legend and labels";
    if (reason == NULL)
        return GA_PLOT_OK;
    if (why != NULL)
        *why = reason;
    return GA_PLOT_EINVAL;
}

int ga_plot_resolve(const struct ga_plot *plot, struct plot_geometry *g)
{
    if (ga_plot_invalid_reason(plot) != NULL || ga_plot_place(plot, g) != 0)
        return GA_PLOT_EINVAL;
    return GA_PLOT_OK;
}

int ga_plot_layout(const struct ga_plot *plot, struct ga_plot_frame *frame)
{
    struct plot_geometry g;
    int status = ga_plot_resolve(plot, &g);
    if (status == GA_PLOT_OK && frame != NULL)
        *frame = g.frame;
    return status;
}

const char *ga_plot_strerror(int status)
{
    switch (status) {
    case GA_PLOT_OK: return "success";
    case GA_PLOT_EINVAL: return "invalid plot description";
    case GA_PLOT_ENOMEM: return "out of memory";
    case GA_PLOT_EIO: return "write error";
    default: return "unknown plot status";
    }
}
