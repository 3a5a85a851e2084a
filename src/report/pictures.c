/* The plots of one format's results (file list in pictures.h): their file
 * names, the texts and axes they share, and the loop that writes them all.
 * Each kind of plot is drawn in a file of its own. */
#include "report/pictures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "grade/number_text.h"
#include "report/picture_view.h"
#include "plot/plot.h"
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

/* The error axis: 1e-4 ulp is as good as exact for every reader; 1e8 ulp
 * is above a float32 output flushed to zero (at most 2^24 ulp), so only
 * outputs with the wrong magnitude (or a truth that underflowed) go to the
 * high band. */
#define Y_MIN 1e-4
#define Y_MAX 1e8
#define LOW_BAND "0, < 1e\xe2\x88\x92" "4"
#define HIGH_BAND "> 1e8, inf, NaN"
#define Y_LABEL "ulp error (ulps of the exact value)"

/* ---- Names ---- */

static size_t first_of_impl(const struct ga_result *r, size_t i)
{
    size_t j = 0;
    while (j < i && strcmp(r[j].impl, r[i].impl) != 0)
        j++;
    return j;
}

/* [A-Za-z0-9_.] kept, anything else '_', at most 96 characters: file
 * names and HTML ids stay plain whatever a plugin is called. */
static void sanitize(const char *name, char *out)
{
    size_t k = 0;
    for (; name[k] && k < 96; k++) {
        char c = name[k];
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                     || c == '_' || c == '.';
        out[k] = plain ? c : '_';
    }
    if (k == 0)
        out[k++] = '_';
    out[k] = '\0';
}

const char *ga_picture_key(const struct ga_result *r, size_t n, size_t i,
                           char buf[GA_PICTURE_PATH_LEN])
{
    size_t first = first_of_impl(r, i);
    char other[GA_PICTURE_PATH_LEN];

    (void)n;
    sanitize(r[i].impl, buf);
    /* Another implementation with the same sanitized name before this one:
     * append the index of our first result ('-' never occurs otherwise). */
    for (size_t j = 0; j < first; j++) {
        if (first_of_impl(r, j) != j)
            continue;
        sanitize(r[j].impl, other);
        if (strcmp(other, buf) == 0) {
            size_t len = strlen(buf);
            snprintf(buf + len, GA_PICTURE_PATH_LEN - len, "-%zu", first);
            break;
        }
    }
    return buf;
}

const char *ga_picture_error_path(const struct ga_result *r, size_t n, size_t i,
                                  char buf[GA_PICTURE_PATH_LEN])
{
    char key[GA_PICTURE_PATH_LEN];

    if (!r[i].profile)
        return NULL;
    snprintf(buf, GA_PICTURE_PATH_LEN, GA_PICTURES_DIR "/%s-%s-%s.svg", r[i].format->name,
             ga_picture_key(r, n, i, key), ga_function_name(r[i].reference));
    return buf;
}

const char *ga_picture_distance_path(const struct ga_result *r, size_t n, size_t i,
                                     char buf[GA_PICTURE_PATH_LEN])
{
    char key[GA_PICTURE_PATH_LEN];

    if (first_of_impl(r, i) != i)
        return NULL;
    snprintf(buf, GA_PICTURE_PATH_LEN, GA_PICTURES_DIR "/%s-%s-distance.svg",
             r[i].format->name, ga_picture_key(r, n, i, key));
    return buf;
}

const char *ga_picture_overview_path(const struct ga_format *f, char buf[GA_PICTURE_PATH_LEN])
{
    snprintf(buf, GA_PICTURE_PATH_LEN, GA_PICTURES_DIR "/%s-overview.svg", f->name);
    return buf;
}

enum ga_io_status ga_make_pictures_dir(const char *dir, struct ga_io_error *err)
{
    char path[4096];
    struct stat st;

    if (snprintf(path, sizeof path, "%s/" GA_PICTURES_DIR, dir) >= (int)sizeof path)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: path too long", dir);
    if (mkdir(path, 0777) == 0)
        return ga_io_ok(err);
    if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return ga_io_ok(err);
    return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot create the directory: %s", path,
                      errno == EEXIST ? "a file of that name exists" : strerror(errno));
}

/* Characters of UTF-8 text. */
static size_t text_chars(const char *s)
{
    size_t n = 0;
    for (; s && *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int ga_picture_write_svg(const struct ga_plot *p, FILE *out)
{
    struct ga_plot wide = *p;
    /* The title (16 px bold) and subtitle (12 px) on one line each, at about
     * 0.55 and 0.5 em a character (measured on these plots' texts in
     * Liberation Sans: digits 0.556 em, most lower case less), with 10 px
     * margins: ga_plot_check does not measure them. */
    double title = 0.55 * 16 * (double)text_chars(p->title) + 20;
    double subtitle = 0.5 * 12 * (double)text_chars(p->subtitle) + 20;

    if (wide.width == 0)
        wide.width = 800;
    while ((wide.width < title || wide.width < subtitle) && wide.width < 8000)
        wide.width += 100;
    while (ga_plot_check(&wide, NULL) != GA_PLOT_OK && wide.width < 8000)
        wide.width = wide.width + 100 < 8000 ? wide.width + 100 : 8000;
    return ga_plot_write_svg(&wide, out) == GA_PLOT_OK ? 0 : -1;
}

/* ---- What every format's plots share ---- */

/* A value for labels and subtitles: 4 significant digits keep them short
 * (the tables give it in full), with a minus sign like the tick labels. */
const char *ga_picture_marker_value(const struct ga_format *f, ga_bits x,
                                    char buf[GA_TEXT_LEN])
{
    double v = ga_decode(f, x);
    snprintf(buf, GA_TEXT_LEN, "%s%.4g", v < 0 ? MINUS : "", fabs(v));
    return buf;
}

void ga_picture_error_axes(const struct format_view *v, struct ga_plot *p)
{
    p->x = (struct ga_axis){ .label = "input x", .min = v->x_min, .max = v->x_max };
    p->y = (struct ga_axis){ .label = Y_LABEL, .scale = GA_SCALE_LOG10, .min = Y_MIN,
                             .max = Y_MAX, .low_band = LOW_BAND, .high_band = HIGH_BAND };
}

const char *ga_picture_against(enum ga_function fn)
{
    return fn == GA_GELU_TANH ? "the tanh formula" : "exact GELU";
}

/* ---- All of them ---- */

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
