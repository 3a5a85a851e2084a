/* Error plots: the ulp error of one result along the input axis, every
 * input of a 16-bit format as a point, float32 as the profile's bins (their
 * maximum and mean), with the markers a reader looks for. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/picture_view.h"
#include "report/pictures.h"
#include "measure/profile.h"

static bool is_half(const struct ga_format *f)
{
    return f->bits <= 16;
}

/* Counts with thousands separators: "65,536". */
static const char *count_text(uint64_t v, char buf[GA_TEXT_LEN])
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

/* Vertical markers of a result: where its reference underflows, where its
 * outputs stop being faithful, where they are all zero; and the two
 * horizontal lines every reader looks for. */
struct marker_set {
    struct ga_marker m[6];
    size_t n;
    char under[96], lo[2 * GA_TEXT_LEN + 32], zero[96];
};

static void result_markers(const struct format_view *v, const struct ga_result *r,
                           struct marker_set *ms, bool with_y)
{
    const struct ga_format *f = v->f;
    const struct ga_summary *all = &r->region[GA_REGION_ALL];
    const struct ga_faithful_interval *fi = &all->faithful_interval;
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN];

    ms->n = 0;
    if (v->has_under[r->reference]) {
        snprintf(ms->under, sizeof ms->under, "%s rounds to " MINUS "0 for x " LE " %s",
                 ga_function_name(r->reference), ga_picture_marker_value(f, v->under[r->reference], a));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, v->under[r->reference]),
                                             ms->under, 0 };
    }
    if (all->has_zero_below && all->zero_below != ga_max_finite(f, true)) {
        snprintf(ms->zero, sizeof ms->zero, "every output 0 below %s",
                 ga_picture_marker_value(f, all->zero_below, a));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, all->zero_below), ms->zero,
                                             2 };
    }
    /* The faithful interval's ends; one label when both exist, as they are
     * often a few pixels apart around 0. */
    if (fi->exists && fi->has_lo && fi->has_hi) {
        snprintf(ms->lo, sizeof ms->lo, "faithful only on (%s, %s)",
                 ga_picture_marker_value(f, fi->lo, a), ga_picture_marker_value(f, fi->hi, b));
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, fi->lo), ms->lo, 5 };
        ms->m[ms->n++] = (struct ga_marker){ GA_MARK_X, ga_decode(f, fi->hi), NULL, 5 };
    } else if (fi->exists && (fi->has_lo || fi->has_hi)) {
        ga_bits end = fi->has_lo ? fi->lo : fi->hi;
        snprintf(ms->lo, sizeof ms->lo, "not faithful at %s", ga_picture_marker_value(f, end, a));
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
    char lo[GA_TEXT_LEN], hi[GA_TEXT_LEN];
    int len;

    if (fi->exists)
        len = snprintf(buf, size, "faithful on (%s, %s)",
                       fi->has_lo ? ga_picture_marker_value(f, fi->lo, lo) : MINUS "inf",
                       fi->has_hi ? ga_picture_marker_value(f, fi->hi, hi) : "inf");
    else
        len = snprintf(buf, size, "not faithful at 0");
    if (all->has_zero_below && all->zero_below != ga_max_finite(f, true) && len >= 0
        && (size_t)len < size)
        snprintf(buf + len, size - (size_t)len, "; every output 0 below x = %s",
                 ga_picture_marker_value(f, all->zero_below, lo));
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
    char c1[GA_TEXT_LEN], c2[GA_TEXT_LEN], c3[GA_TEXT_LEN];
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
             ga_picture_against(r->reference));
    tail_summary(f, &r->region[GA_REGION_ALL], tail, sizeof tail);
    if (off_nan > 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s off the x axis (max %s ulp, %s NaN)",
                 tail, count_text(off, c1), ga_text_error(off_max, c2), count_text(off_nan, c3));
    else if (off > 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s off the x axis (max %s ulp)",
                 tail, count_text(off, c1), ga_text_error(off_max, c2));
    else
        snprintf(subtitle, sizeof subtitle, "%s", tail);
    ga_picture_error_axes(v, &p);
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
    char c1[GA_TEXT_LEN], c2[GA_TEXT_LEN], c3[GA_TEXT_LEN];
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
             ga_picture_against(r->reference));
    tail_summary(f, &r->region[GA_REGION_ALL], tail, sizeof tail);
    if (off_max >= 0)
        snprintf(subtitle, sizeof subtitle, "%s; %s of %s inputs binned; max %s ulp off the axis",
                 tail, count_text(binned, c1), count_text(r->region[GA_REGION_ALL].count, c2),
                 ga_text_error(off_max, c3));
    else
        snprintf(subtitle, sizeof subtitle, "%s; %s of %s inputs binned", tail,
                 count_text(binned, c1), count_text(r->region[GA_REGION_ALL].count, c2));
    ga_picture_error_axes(v, &p);
    result_markers(v, r, &ms, true);
    p.markers = ms.m;
    p.nmarkers = ms.n;
    return ga_picture_write_svg(&p, out);
}

int ga_picture_write_error_plot(FILE *out, const void *ctx)
{
    const struct error_plot *ep = ctx;
    const struct ga_result *r = &ep->v->r[ep->i];

    if (is_half(ep->v->f) && r->profile->point)
        return write_error_points(out, ep->v, r);
    return write_error_bins(out, ep->v, r);
}

