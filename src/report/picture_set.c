/* Every plot of one format's results, and the approximation plots: the
 * input axis they share is chosen here, from where the truth and each
 * implementation's outputs underflow. */
#include "report/picture_set.h"

#include <math.h>
#include <stdbool.h>

#include "report/picture_view.h"
#include "report/pictures.h"
#include "report/report_file.h"

/* The input axis of error plots.  It ends on the left 4 below where the
 * truth underflows (nothing but zeros lies further left), never beyond the
 * profile's bins (GA_PROFILE_RANGE = 16); on the right at 6, where gelu(x)
 * is x to within x * 1e-9 (so the error of a correct output decays below
 * 1e-4 ulp in the 16-bit formats), which also puts x = 0 in the right third
 * of the axis, where the plot writes marker labels leftwards.  Inputs off
 * the axis are counted in the subtitle, never silently lost. */
#define X_LEFT_MARGIN 4.0
#define X_RIGHT 6.0

enum ga_io_status ga_write_pictures(const char *dir, const struct ga_format *f,
                                    const struct ga_result *r, size_t n,
                                    struct ga_io_error *err)
{
    struct format_view v = { .f = f, .r = r, .n = n, .x_min = -GA_PROFILE_RANGE,
                             .x_max = X_RIGHT };
    char path[GA_PICTURE_PATH_LEN];
    enum ga_io_status status = ga_make_pictures_dir(dir, err);

    if (status != GA_IO_OK)
        return status;
    for (size_t i = 0; i < n; i++)
        if (r[i].format != f)
            return ga_io_fail(err, GA_IO_MISMATCH, "%s: result %s is of format %s, not %s", dir,
                              r[i].impl, r[i].format->name, f->name);
    /* The thresholds are drawn when the oracle finds them; a plot without
     * them is still right. */
    bool tried[GA_FUNCTION_COUNT] = { false };
    for (size_t i = 0; i < n; i++) {
        enum ga_function fn = r[i].reference;
        if (!tried[fn])
            v.has_under[fn] = ga_underflow_threshold(fn, f, &v.under[fn]) == 0;
        tried[fn] = true;
    }
    if (v.has_under[GA_GELU]) {
        double left = floor(ga_decode(f, v.under[GA_GELU])) - X_LEFT_MARGIN;
        /* ... and far enough to show where every implementation's outputs
         * become 0 (within the profile's range). */
        for (size_t i = 0; i < n; i++) {
            const struct ga_summary *all = &r[i].region[GA_REGION_ALL];
            if (all->has_zero_below && all->zero_below != ga_max_finite(f, true)
                && ga_decode(f, all->zero_below) - 1 < left)
                left = floor(ga_decode(f, all->zero_below)) - 1;
        }
        v.x_min = left > -GA_PROFILE_RANGE ? left : -GA_PROFILE_RANGE;
    }
    for (size_t i = 0; i < n && status == GA_IO_OK; i++) {
        struct error_plot ep = { &v, i };
        if (ga_picture_error_path(r, n, i, path))
            status = ga_write_report_file(dir, path, true, ga_picture_write_error_plot, &ep, err);
        if (status == GA_IO_OK && ga_picture_distance_path(r, n, i, path))
            status = ga_write_report_file(dir, path, true, ga_picture_write_distance_plot, &ep, err);
    }
    if (status == GA_IO_OK)
        status = ga_write_report_file(dir, ga_picture_overview_path(f, path), true,
                                      ga_picture_write_overview, &v, err);
    if (status == GA_IO_OK)
        status = ga_write_approximation_pictures(dir, err);
    return status;
}
