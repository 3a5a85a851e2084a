/* Comparing a measurement with its recorded bounds. */
#include <math.h>

#include "check/baseline.h"
#include "grade/number_text.h"

/* "; LABEL input X (value): output Y (value), exact V" for point p, and
 * the end of the line. */
static void name_input_then(FILE *out, const struct ga_format *f, const char *label,
                            const struct ga_point *p, const char *end)
{
    char hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN], x[GA_TEXT_LEN], y[GA_TEXT_LEN], v[GA_TEXT_LEN];

    if (!p->has) {
        fputc('\n', out);
        return;
    }
    ga_format_bits(f, p->x, hx);
    ga_format_bits(f, p->y, hy);
    fprintf(out, "; %s input %s (%s): output %s (%s), exact %s%s", label, hx,
            ga_text_value(f, p->x, x), hy, ga_text_value(f, p->y, y), ga_text_exact(&p->exact, v),
            end);
}

static void name_input(FILE *out, const struct ga_format *f, const char *label,
                       const struct ga_point *p)
{
    name_input_then(out, f, label, p, "\n");
}

static void worst(FILE *out, const struct ga_format *f, const struct ga_summary *s)
{
    name_input(out, f, "worst", &s->max_ulp);
}

/* The input a count's line names: one that entered the count's kind since
 * the snapshot, else one of that kind now ("e.g.": a baseline holds counts,
 * not which inputs they counted). */
static void name_kind(FILE *out, const struct ga_format *f, const struct ga_baseline_named *n,
                      enum ga_region r, enum ga_witness w)
{
    char hy[GA_BITS_TEXT_LEN], y[GA_TEXT_LEN];

    if (n && n->entered[r][w].has) {
        name_input_then(out, f, "newly counted:", &n->entered[r][w], "");
        ga_format_bits(f, n->old_y[r][w], hy);
        fprintf(out, ", snapshot's output %s (%s)\n", hy, ga_text_value(f, n->old_y[r][w], y));
        return;
    }
    if (n && n->now[r][w].has)
        name_input(out, f, "e.g.", &n->now[r][w]);
    else
        fputc('\n', out);
}

/* Without named inputs (the library's check): a first fault of that kind,
 * or for correctly_rounded any first fault, or the worst input when its
 * error is above 1/2 ulp by more than the exact value's error (truth.h:
 * below 2^-20 ulp), as no correctly rounded output's is. */
static void name_fault(FILE *out, const struct ga_format *f, const struct ga_summary *s,
                       int fault)
{
    for (int k = 0; fault == GA_FAULT_COUNT && k < GA_FAULT_COUNT; k++)
        if (s->first_fault[k].has)
            fault = k;
    if (fault < GA_FAULT_COUNT && s->first_fault[fault].has)
        name_input(out, f, "e.g.", &s->first_fault[fault]);
    else if (fault == GA_FAULT_COUNT && s->max_ulp.has && s->max_ulp.error > 0.5 + 0x1p-20)
        name_input(out, f, "e.g.", &s->max_ulp);
    else
        fputc('\n', out);
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

/* "; input X (value) is not faithful": the end of the interval that moved
 * in (an unfaithful input, which the interval ends at), or the side of 0. */
static void name_interval_end(FILE *out, const struct ga_format *f,
                              const struct ga_faithful_interval *was,
                              const struct ga_faithful_interval *is)
{
    char hx[GA_BITS_TEXT_LEN], x[GA_TEXT_LEN];
    ga_bits end;

    if (!is->exists) {
        fprintf(out, "; input +-0 is not faithful\n");
        return;
    }
    end = is->has_lo && lo_of(f, is) > lo_of(f, was) ? is->lo : is->hi;
    ga_format_bits(f, end, hx);
    fprintf(out, "; input %s (%s) is not faithful\n", hx, ga_text_value(f, end, x));
}

static int compare_region(FILE *out, const struct ga_baseline_entry *e, enum ga_region r,
                          const struct ga_summary *s, const struct ga_baseline_named *n)
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
    /* a count names an input of its kind (name_kind) */
#define COUNT(flag, field, label, worse, fault, witness)                                   \
    if (b->flag && s->field worse b->field) {                                             \
        fprintf(out, "%s: %s%s%s %llu -> %llu", e->name, region, dot, label,              \
                (unsigned long long)b->field, (unsigned long long)s->field);              \
        if (n)                                                                            \
            name_kind(out, f, n, r, witness);                                             \
        else                                                                              \
            name_fault(out, f, s, fault);                                                 \
        exceeded++;                                                                       \
    }
    COUNT(has_correct, correctly_rounded, "correctly_rounded", <, GA_FAULT_COUNT,
          GA_WITNESS_NOT_CORRECT)
    COUNT(has_flushed, flushed_to_zero, "flushed_to_zero", >, GA_FAULT_FLUSHED, GA_WITNESS_FLUSHED)
    COUNT(has_nan, nan, "nan", >, GA_FAULT_NAN, GA_WITNESS_NAN)
    COUNT(has_inf, inf, "inf", >, GA_FAULT_INF, GA_WITNESS_INF)
    COUNT(has_zero_sign, wrong_zero_sign, "wrong_zero_sign", >, GA_FAULT_ZERO_SIGN,
          GA_WITNESS_ZERO_SIGN)
#undef COUNT
    if (b->has_interval && b->faithful_interval.exists
        && (!s->faithful_interval.exists
            || lo_of(f, &s->faithful_interval) > lo_of(f, &b->faithful_interval)
            || hi_of(f, &s->faithful_interval) < hi_of(f, &b->faithful_interval))) {
        fprintf(out, "%s: %s%sfaithful_interval %s -> %s", e->name, region, dot,
                ga_text_interval(f, &b->faithful_interval, old),
                ga_text_interval(f, &s->faithful_interval, now));
        if (n && n->entered[r][GA_WITNESS_UNFAITHFUL].has)
            name_kind(out, f, n, r, GA_WITNESS_UNFAITHFUL);
        else
            name_interval_end(out, f, &b->faithful_interval, &s->faithful_interval);
        exceeded++;
    }
    if (b->has_zero_below && b->zero_below_exists
        && (!s->has_zero_below || ga_decode(f, s->zero_below) > ga_decode(f, b->zero_below))) {
        fprintf(out, "%s: %s%szero_below %s -> %s", e->name, region, dot,
                ga_text_value(f, b->zero_below, old),
                s->has_zero_below ? ga_text_value(f, s->zero_below, now) : "none");
        ga_format_bits(f, b->zero_below, old);
        fprintf(out, "; input %s (%s) gives +-0 now\n", old, ga_text_value(f, b->zero_below, now));
        exceeded++;
    }
    return exceeded;
}

int ga_baseline_compare_named(FILE *out, const struct ga_baseline_entry *e,
                              const struct ga_summary summary[GA_REGION_COUNT + 1],
                              const struct ga_baseline_named *named)
{
    int exceeded = compare_region(out, e, GA_REGION_ALL, &summary[GA_REGION_ALL], named);

    for (int r = 0; r < GA_REGION_COUNT; r++)
        exceeded += compare_region(out, e, (enum ga_region)r, &summary[r], named);
    return exceeded;
}

int ga_baseline_compare(FILE *out, const struct ga_baseline_entry *e,
                        const struct ga_summary summary[GA_REGION_COUNT + 1])
{
    return ga_baseline_compare_named(out, e, summary, NULL);
}
