/* Distance plots: a histogram of how many format values each output lies
 * from the correctly rounded result, against each reference. */
#include <stdio.h>
#include <string.h>

#include "report/picture_view.h"
#include "report/pictures.h"

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

int ga_picture_write_distance_plot(FILE *out, const void *ctx)
{
    const struct error_plot *ep = ctx;
    const struct format_view *v = ep->v;
    const struct ga_result *first = &v->r[ep->i];
    const char *labels[GA_DIST_BUCKETS];
    char text[GA_DIST_BUCKETS][32];
    double counts[2][GA_DIST_BUCKETS];
    char names[2][64], title[192], subtitle[256];
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN];
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
        snprintf(names[ns], sizeof names[ns], "against %s", ga_picture_against(v->r[j].reference));
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
             ga_text_percent(at0, all->count, a), ga_text_percent(at1, all->count, b),
             ga_text_percent(all->count - at0 - at1, all->count, c));
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

