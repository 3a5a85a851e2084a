/* What the plots of a report share (file list in pictures.h): their file
 * names, the SVG writer that widens for long texts, and the error axis.
 * Each kind of plot is drawn in a file of its own; picture_set.c writes
 * them all. */
#include "report/pictures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "grade/number_text.h"
#include "report/picture_view.h"
#include "plot/plot.h"

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
