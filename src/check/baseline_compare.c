/* Comparing a measurement with its recorded bounds. */
#include <math.h>

#include "check/baseline.h"
#include "grade/number_text.h"

/* "; LABEL input X (value): output Y (value), exact V" for point p. */
static void name_input(FILE *out, const struct ga_format *f, const char *label,
                       const struct ga_point *p)
{
    char hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN], x[GA_TEXT_LEN], y[GA_TEXT_LEN], v[GA_TEXT_LEN];

    if (!p->has) {
        fputc('\n', out);
        return;
    }
    ga_format_bits(f, p->x, hx);
    ga_format_bits(f, p->y, hy);
    fprintf(out, "; %s input %s (%s): output %s (%s), exact %s\n", label, hx,
            ga_text_value(f, p->x, x), hy, ga_text_value(f, p->y, y), ga_text_exact(&p->exact, v));
}

static void worst(FILE *out, const struct ga_format *f, const struct ga_summary *s)
{
    name_input(out, f, "worst", &s->max_ulp);
}

/* Open side: an interval end that is absent reaches infinity. */
static double lo_of(const struct ga_format *f, const struct ga_faithful_interval *i)
{
    return i->has_lo ? ga_decode(f, i->lo) : -INFINITY;
}

static double hi_of(const struct ga_format *f, const struct ga_faithful_interval *i)
{
    return i->has_hi ? ga_decode(f, i->hi) : INFINITY;
}

static int compare_region(FILE *out, const struct ga_baseline_entry *e, enum ga_region r,
                          const struct ga_summary *s)
{
    const struct ga_bounds *b = &e->region[r];
    const struct ga_format *f = e->format;
    const char *region = r == GA_REGION_ALL ? "" : ga_region_name(r);
    const char *dot = r == GA_REGION_ALL ? "" : ".";
    char old[GA_INTERVAL_LEN], now[GA_INTERVAL_LEN];
    int exceeded = 0;

    if (b->has_max_ulp && s->max_ulp.has && s->max_ulp.error > b->max_ulp) {
        fprintf(out, "%s: %s%smax_ulp %s -> %s", e->name, region, dot, ga_text_error(b->max_ulp, old),
                ga_text_error(s->max_ulp.error, now));
        worst(out, f, s);
        exceeded++;
    }
    /* a count names an input that has the fault it counts (the worst one for
     * correctly_rounded) */
#define COUNT(flag, field, label, worse, fault)                                            \
    if (b->flag && s->field worse b->field) {                                             \
        fprintf(out, "%s: %s%s%s %llu -> %llu", e->name, region, dot, label,              \
                (unsigned long long)b->field, (unsigned long long)s->field);              \
        if ((fault) < GA_FAULT_COUNT)                                                     \
            name_input(out, f, "first", &s->first_fault[(fault) % GA_FAULT_COUNT]);      \
        else                                                                              \
            worst(out, f, s);                                                             \
        exceeded++;                                                                       \
    }
    COUNT(has_correct, correctly_rounded, "correctly_rounded", <, GA_FAULT_COUNT)
    COUNT(has_flushed, flushed_to_zero, "flushed_to_zero", >, GA_FAULT_FLUSHED)
    COUNT(has_nan, nan, "nan", >, GA_FAULT_NAN)
    COUNT(has_inf, inf, "inf", >, GA_FAULT_INF)
    COUNT(has_zero_sign, wrong_zero_sign, "wrong_zero_sign", >, GA_FAULT_ZERO_SIGN)
#undef COUNT
    if (b->has_interval && b->faithful_interval.exists
        && (!s->faithful_interval.exists
            || lo_of(f, &s->faithful_interval) > lo_of(f, &b->faithful_interval)
            || hi_of(f, &s->faithful_interval) < hi_of(f, &b->faithful_interval))) {
        fprintf(out, "%s: %s%sfaithful_interval %s -> %s", e->name, region, dot,
                ga_text_interval(f, &b->faithful_interval, old),
                ga_text_interval(f, &s->faithful_interval, now));
        worst(out, f, s);
        exceeded++;
    }
    if (b->has_zero_below && b->zero_below_exists
        && (!s->has_zero_below || ga_decode(f, s->zero_below) > ga_decode(f, b->zero_below))) {
        fprintf(out, "%s: %s%szero_below %s -> %s", e->name, region, dot,
                ga_text_value(f, b->zero_below, old),
                s->has_zero_below ? ga_text_value(f, s->zero_below, now) : "none");
        worst(out, f, s);
        exceeded++;
    }
    return exceeded;
}

int ga_baseline_compare(FILE *out, const struct ga_baseline_entry *e,
                        const struct ga_summary summary[GA_REGION_COUNT + 1])
{
    int exceeded = compare_region(out, e, GA_REGION_ALL, &summary[GA_REGION_ALL]);

    for (int r = 0; r < GA_REGION_COUNT; r++)
        exceeded += compare_region(out, e, (enum ga_region)r, &summary[r]);
    return exceeded;
}
