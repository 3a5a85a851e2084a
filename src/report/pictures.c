/* The plots of one format's results (file list in pictures.h): where along
 * the input axis each implementation errs, how far its outputs land from the
 * correctly rounded ones, and all implementations on one overview. */
#include "report/pictures.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/figures.h"
#include "report/plot.h"
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

/* The overview's bins: 8 profile bins of 1/64, so that every bin holds an
 * input in each format (bfloat16 values lie 1/16 apart on [8, 16)). */
#define OVERVIEW_MERGE 8

/* Sizes in px: an error plot and its histogram side by side fill a page
 * 1360 px wide; the overview takes a row of its own. */
#define ERROR_WIDTH 860
#define ERROR_HEIGHT 460
#define DISTANCE_WIDTH 460
#define DISTANCE_HEIGHT 460
#define OVERVIEW_WIDTH 1100
#define OVERVIEW_HEIGHT 560

/* UTF-8 for the labels. */
#define LE "\xe2\x89\xa4"       /* less or equal */
#define MINUS "\xe2\x88\x92"

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

struct format_view {
    const struct ga_format *f;
    const struct ga_result *r;
    size_t n;
    double x_min, x_max;            /* the input axis */
    bool has_under[GA_FUNCTION_COUNT];
    ga_bits under[GA_FUNCTION_COUNT];   /* where each reference rounds to -0 */
};

struct error_plot {
    const struct format_view *v;
    size_t i;
};

static bool is_half(const struct ga_format *f)
{
    return f->bits <= 16;
}

/* Counts with thousands separators: "65,536". */
static const char *count_text(uint64_t v, char buf[GA_FIGURE_LEN])
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
    for (int d = 0; d < len; d++) {
        if (d > 0 && (len - d) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[d];
    }
    buf[k] = '\0';
    return buf;
}

/* A value for labels and subtitles: 4 significant digits keep them short
 * (the tables give it in full), with a minus sign like the tick labels. */
static const char *marker_value(const struct ga_format *f, ga_bits x, char buf[GA_FIGURE_LEN])
{
    double v = ga_decode(f, x);
    snprintf(buf, GA_FIGURE_LEN, "%s%.4g", v < 0 ? MINUS : "", fabs(v));
    return buf;
}

/* Vertical markers of a result: where its reference underflows, where its
 * outputs stop being faithful, where they are all zero; and the two
 * horizontal lines every reader looks for. */
struct marker_set {
    struct ga_marker m[6];
    size_t n;
    char under[96], lo[2 * GA_FIGURE_LEN + 32], zero[96];
};

static void result_markers(const struct format_view *v, const struct ga_result *r,
                           struct marker_set *ms, bool with_y)
{
    const struct ga_format *f = v->f;
    const struct ga_summary *all = &r->region[GA_REGION_ALL];
    const struct ga_faithful_interval *fi = &all->faithful_interval;
    char a[GA_FIGURE_LEN], b[GA_FIGURE_LEN];

    ms->n = 0;
    if (v->has_under[r->reference]) {
        snprintf(ms->under, sizeof ms->under, "%s rounds to " MINUS "0 for x " LE " %s",
                 ga_function_name(r->reference), marker_value(f, v->under[r->reference], a));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, v->under[r->reference]),
                                             ms->under, 0 };
    }
    if (all->has_zero_below && all->zero_below != ga_max_finite(f, true)) {
        snprintf(ms->zero, sizeof ms->zero, "every output 0 below %s",
                 marker_value(f, all->zero_below, a));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, all->zero_below), ms->zero,
                                             2 };
    }
    /* The faithful interval's ends; one label when both exist, as they are
     * often a few pixels apart around 0. */
    if (fi->exists && fi->has_lo && fi->has_hi) {
        snprintf(ms->lo, sizeof ms->lo, "faithful only on (%s, %s)",
                 marker_value(f, fi->lo, a), marker_value(f, fi->hi, b));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, fi->lo), ms->lo, 5 };
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, fi->hi), NULL, 5 };
    } else if (fi->exists && (fi->has_lo || fi->has_hi)) {
        ga_bits end = fi->has_lo ? fi->lo : fi->hi;
        snprintf(ms->lo, sizeof ms->lo, "not faithful at %s", marker_value(f, end, a));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, end), ms->lo, 5 };
    }
    if (with_y) {
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_Y, 1.0, "1 ulp and 0.5 ulp", 0 };
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_Y, 0.5, NULL, 0 };
    }
}

/* "faithful on (lo, hi); every output 0 below z" for a subtitle. */
static void tail_summary(const struct ga_format *f, const struct ga_summary *all, char *buf,
                         size_t size)
{
    const struct ga_faithful_interval *fi = &all->faithful_interval;
    char lo[GA_FIGURE_LEN], hi[GA_FIGURE_LEN];
    int len;

    if (fi->exists)
        len = snprintf(buf, size, "faithful on (%s, %s)",
                       fi->has_lo ? marker_value(f, fi->lo, lo) : MINUS "inf",
                       fi->has_hi ? marker_value(f, fi->hi, hi) : "inf");
    else
        len = snprintf(buf, size, "not faithful at 0");
    if (all->has_zero_below && all->zero_below != ga_max_finite(f, true) && len >= 0
        && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, "; every output 0 below x = %s",
                 marker_value(f, all->zero_below, lo));
}

static void error_axes(const struct format_view *v, struct ga_plot *p)
{
    p->x = (struct ga_axis){ .label = "input x", .min = v->x_min, .max = v->x_max };
    p->y = (struct ga_axis){ .label = Y_LABEL, .scale = GA_SCALE_LOG10, .min = Y_MIN,
                             .max = Y_MAX, .low_band = LOW_BAND, .high_band = HIGH_BAND };
}

static const char *against(enum ga_function fn)
{
    return fn == GA_GELU_TANH ? "the tanh formula" : "exact GELU";
}

/* ---- Error against x, 16-bit formats: every input ---- */

enum { CLASS_ROUNDED, CLASS_FAITHFUL, CLASS_BAD, CLASSES };

static int write_error_points(FILE *out, const struct format_view *v, const struct ga_result *r)
{
    const struct ga_format *f = v->f;
    const struct ga_profile *pr = r->profile;
    size_t total = (size_t)ga_encoding_count(f), count[CLASSES] = { 0 };
    double *xs = malloc(CLASSES * total * sizeof *xs), *ys = malloc(CLASSES * total * sizeof *ys);
    uint64_t off = 0, off_nan = 0;
    double off_max = 0;
    char title[192], subtitle[640], tail[192], label[CLASSES][96];
    char c1[GA_FIGURE_LEN], c2[GA_FIGURE_LEN], c3[GA_FIGURE_LEN];
    struct ga_series s[CLASSES];
    struct marker_set ms;
    struct ga_plot p = { .width = ERROR_WIDTH, .height = ERROR_HEIGHT, .title = title,
                         .subtitle = subtitle, .series = s, .nseries = CLASSES,
                         .legend = GA_LEGEND_TOP };
    int status;

    if (!xs || !ys) {
        free(xs);
        free(ys);
        return -1;
    }
    for (size_t b = 0; b < total; b++) {
        double e = pr->point[b], x = ga_decode(f, (ga_bits)b);
        int c;
        if (e == -1 || isnan(x))    /* not visited; NaN inputs have no place */
            continue;
        if (!(x >= v->x_min && x <= v->x_max)) {
            off++;
            if (isnan(e))
                off_nan++;
            else if (e > off_max)
                off_max = e;
            continue;
        }
        c = e <= 0.5 ? CLASS_ROUNDED : e <= 1 ? CLASS_FAITHFUL : CLASS_BAD;  /* NaN: bad */
        xs[c * total + count[c]] = x;
        ys[c * total + count[c]] = e;
        count[c]++;
    }
    snprintf(label[CLASS_ROUNDED], sizeof label[0], "error " LE " 0.5 ulp: %s inputs",
             count_text(count[CLASS_ROUNDED], c1));
    snprintf(label[CLASS_FAITHFUL], sizeof label[0], "0.5 to 1 ulp: %s",
             count_text(count[CLASS_FAITHFUL], c1));
    snprintf(label[CLASS_BAD], sizeof label[0], "> 1 ulp, inf or NaN: %s",
             count_text(count[CLASS_BAD], c1));
    /* Blue, orange, vermilion: the worst drawn last, on top. */
    static const int colors[CLASSES] = { 1, 5, 2 };
    for (int c = 0; c < CLASSES; c++)
        s[c] = (struct ga_series){ .kind = GA_SERIES_POINTS, .label = label[c],
                                   .x = xs + c * total, .y = ys + c * total, .n = count[c],
                                   .color = colors[c], .size = 2.5 };

    snprintf(title, sizeof title, "%s on %s: ulp error against %s", r->impl, f->name,
             against(r->reference));
    tail_summary(f, &r->region[GA_REGION_ALL], tail, sizeof tail);
    if (off_nan > 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s off the x axis (max %s ulp, %s NaN)",
                 tail, count_text(off, c1), ga_figure(off_max, c2), count_text(off_nan, c3));
    else if (off > 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s off the x axis (max %s ulp)",
                 tail, count_text(off, c1), ga_figure(off_max, c2));
    else
        snprintf(subtitle, sizeof subtitle, "%s", tail);
    error_axes(v, &p);
    result_markers(v, r, &ms, true);
    p.markers = ms.m;
    p.nmarkers = ms.n;
    status = ga_picture_write_svg(&p, out);
    free(xs);
    free(ys);
    return status;
}

/* ---- Error against x, float32: the profile's bins ---- */

static int write_error_bins(FILE *out, const struct format_view *v, const struct ga_result *r)
{
    const struct ga_format *f = v->f;
    const struct ga_profile *pr = r->profile;
    double xs[GA_PROFILE_BINS + 1], mx[GA_PROFILE_BINS + 1], mean[GA_PROFILE_BINS + 1];
    const double width = 2 * GA_PROFILE_RANGE / GA_PROFILE_BINS;
    size_t k = 0;
    uint64_t binned = 0;
    double off_max = -1;    /* the worst bin off the axis; -1: none */
    char title[192], subtitle[640], tail[192];
    char c1[GA_FIGURE_LEN], c2[GA_FIGURE_LEN], c3[GA_FIGURE_LEN];
    struct ga_series s[2] = {
        { .kind = GA_SERIES_STEP, .label = "maximum in each bin", .x = xs, .y = mx, .color = 1 },
        { .kind = GA_SERIES_STEP, .label = "mean in each bin", .x = xs, .y = mean, .color = 3,
          .dash = GA_DASH_DASHED, .size = 1.2 },
    };
    struct marker_set ms;
    struct ga_plot p = { .width = ERROR_WIDTH, .height = ERROR_HEIGHT, .title = title,
                         .subtitle = subtitle, .series = s, .nseries = 2,
                         .legend = GA_LEGEND_TOP };

    for (int b = 0; b < GA_PROFILE_BINS; b++) {
        double lo = ga_profile_bin_center(b) - width / 2;
        if (lo < v->x_min || lo + width > v->x_max) {
            if (pr->bin_max[b] > off_max)
                off_max = pr->bin_max[b];
            continue;
        }
        xs[k] = lo;
        mx[k] = pr->bin_max[b] < 0 ? NAN : pr->bin_max[b];   /* empty: a gap */
        mean[k] = ga_profile_bin_mean(pr, b);
        binned += pr->bin_count[b];
        k++;
    }
    if (k > 0) {    /* close the last step */
        xs[k] = xs[k - 1] + width;
        mx[k] = mx[k - 1];
        mean[k] = mean[k - 1];
        k++;
    }
    s[0].n = s[1].n = k;
    snprintf(title, sizeof title, "%s on %s: ulp error against %s", r->impl, f->name,
             against(r->reference));
    tail_summary(f, &r->region[GA_REGION_ALL], tail, sizeof tail);
    if (off_max >= 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s of %s inputs binned; max %s ulp off the axis",
                 tail, count_text(binned, c1), count_text(r->region[GA_REGION_ALL].count, c2),
                 ga_figure(off_max, c3));
    else
        snprintf(subtitle, sizeof subtitle, "%s; %s of %s inputs binned", tail,
                 count_text(binned, c1), count_text(r->region[GA_REGION_ALL].count, c2));
    error_axes(v, &p);
    result_markers(v, r, &ms, true);
    p.markers = ms.m;
    p.nmarkers = ms.n;
    return ga_picture_write_svg(&p, out);
}

static int write_error_plot(FILE *out, const void *ctx)
{
    const struct error_plot *ep = ctx;
    const struct ga_result *r = &ep->v->r[ep->i];

    if (is_half(ep->v->f) && r->profile->point)
        return write_error_points(out, ep->v, r);
    return write_error_bins(out, ep->v, r);
}

/* ---- Ordinal distances ---- */

/* Short labels, so that a histogram needs no slanted text: bucket b >= 2
 * holds (2^(b-2), 2^(b-1)] (histogram.h) and is labelled by its upper end,
 * "<=8" for 5 to 8, as a power of two from 2^10 on. */
static const char *distance_label(unsigned bucket, char buf[32])
{
    static const char *const superscript[10] = {
        "\xe2\x81\xb0", "\xc2\xb9", "\xc2\xb2", "\xc2\xb3", "\xe2\x81\xb4",
        "\xe2\x81\xb5", "\xe2\x81\xb6", "\xe2\x81\xb7", "\xe2\x81\xb8", "\xe2\x81\xb9",
    };
    unsigned k = bucket - 1;   /* the exponent of the upper end */

    switch (bucket) {
    case 0: return "0";
    case 1: return "1";
    case 2: return "2";
    case GA_DIST_INF: return "inf";
    case GA_DIST_NAN: return "NaN";
    case GA_DIST_NOT_NAN: return "not NaN";
    case GA_DIST_ABOVE: k = bucket - 2; break;
    default: break;
    }
    if (k < 10 && bucket != GA_DIST_ABOVE)
        snprintf(buf, 32, LE "%u", 1u << k);
    else
        snprintf(buf, 32, "%s2%s%s", bucket == GA_DIST_ABOVE ? ">" : LE,
                 k >= 10 ? superscript[k / 10] : "", superscript[k % 10]);
    return buf;
}

static int write_distance_plot(FILE *out, const void *ctx)
{
    const struct error_plot *ep = ctx;
    const struct format_view *v = ep->v;
    const struct ga_result *first = &v->r[ep->i];
    const char *labels[GA_DIST_BUCKETS];
    char text[GA_DIST_BUCKETS][32];
    double counts[2][GA_DIST_BUCKETS];
    char names[2][64], title[192], subtitle[256];
    char a[GA_FIGURE_LEN], b[GA_FIGURE_LEN], c[GA_FIGURE_LEN];
    struct ga_series s[2];
    size_t ns = 0;
    unsigned last = 2, nc = 0;

    /* Up to two series: the implementation against each reference. */
    for (size_t j = ep->i; j < v->n && ns < 2; j++) {
        if (strcmp(v->r[j].impl, first->impl) != 0)
            continue;
        for (unsigned k = 0; k <= GA_DIST_ABOVE; k++)
            if (v->r[j].region[GA_REGION_ALL].distance[k] > 0 && k > last)
                last = k;
        snprintf(names[ns], sizeof names[ns], "against %s", against(v->r[j].reference));
        s[ns] = (struct ga_series){ .kind = GA_SERIES_BARS, .label = names[ns], .y = counts[ns],
                                    .color = v->r[j].reference == GA_GELU ? 1 : 3 };
        for (unsigned k = 0; k < GA_DIST_BUCKETS; k++)
            counts[ns][k] = (double)v->r[j].region[GA_REGION_ALL].distance[k];
        ns++;
    }
    /* Numeric buckets up to the last one used, then inf, NaN, not NaN. */
    for (unsigned k = 0; k <= last; k++, nc++)
        labels[nc] = distance_label(k, text[nc]);
    for (unsigned k = GA_DIST_INF; k < GA_DIST_BUCKETS; k++) {
        labels[nc] = distance_label(k, text[nc]);
        for (size_t j = 0; j < ns; j++)
            counts[j][nc] = counts[j][k];
        nc++;
    }
    for (size_t j = 0; j < ns; j++)
        s[j].n = nc;

    const struct ga_summary *all = &first->region[GA_REGION_ALL];
    uint64_t at0 = all->distance[0], at1 = all->distance[1];
    snprintf(title, sizeof title, "%s: ordinal distance", first->impl);
    snprintf(subtitle, sizeof subtitle, "%s, %s: %s %% at 0, %s %% at 1, %s %% farther",
             v->f->name, first->reference == GA_GELU_TANH ? "tanh formula" : "exact GELU",
             ga_figure_percent(at0, all->count, a), ga_figure_percent(at1, all->count, b),
             ga_figure_percent(all->count - at0 - at1, all->count, c));
    struct ga_plot p = {
        .width = DISTANCE_WIDTH, .height = DISTANCE_HEIGHT, .title = title,
        .subtitle = subtitle, .series = s, .nseries = ns,
        .x = { .label = "format values from the correctly rounded result (" LE "8: 5 to 8)",
               .categories = labels, .ncategories = nc },
        .y = { .label = "inputs (log scale)", .scale = GA_SCALE_LOG10 },
        .legend = ns > 1 ? GA_LEGEND_INSIDE_TOP_RIGHT : GA_LEGEND_NONE,
    };
    return ga_picture_write_svg(&p, out);
}

/* ---- Overview ---- */

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

static int write_overview(FILE *out, const void *ctx)
{
    const struct format_view *v = ctx;
    const size_t bins = GA_PROFILE_BINS / OVERVIEW_MERGE;
    const double width = 2 * GA_PROFILE_RANGE / bins;
    size_t ns = 0;
    struct ga_series *s = calloc(v->n + 1, sizeof *s);
    double *xy = calloc(2 * (v->n + 1) * (bins + 1), sizeof *xy);
    char title[160], subtitle[256], under[96], a[GA_FIGURE_LEN];
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
                 marker_value(v->f, v->under[GA_GELU], a));
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
    error_axes(v, &p);
    status = ga_picture_write_svg(&p, out);
    free(s);
    free(xy);
    return status;
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
            status = ga_write_report_file(dir, path, true, write_error_plot, &ep, err);
        if (status == GA_IO_OK && ga_picture_distance_path(r, n, i, path))
            status = ga_write_report_file(dir, path, true, write_distance_plot, &ep, err);
    }
    if (status == GA_IO_OK)
        status = ga_write_report_file(dir, ga_picture_overview_path(f, path), true,
                                      write_overview, &v, err);
    if (status == GA_IO_OK)
        status = ga_write_approximation_pictures(dir, err);
    return status;
}
