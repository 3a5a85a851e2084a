/* The readable summary 'gelu-acc sweep' prints by default. */
#include "grade/number_text.h"
#include "report/result.h"
#include "report/shape_print.h"

static void print_point(FILE *out, const struct ga_format *f, const char *what,
                        const struct ga_point *p)
{
    char e[GA_TEXT_LEN], x[GA_TEXT_LEN], y[GA_TEXT_LEN], v[GA_TEXT_LEN], hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN];

    if (!p->has) {
        fprintf(out, "  %-10s -\n", what);
        return;
    }
    ga_format_bits(f, p->x, hx);
    ga_format_bits(f, p->y, hy);
    fprintf(out, "  %-10s %s at x = %s (%s): output %s (%s), exact %s\n", what,
            ga_text_error(p->error, e), ga_text_value(f, p->x, x), hx,
            ga_text_value(f, p->y, y), hy, ga_text_exact(&p->exact, v));
}

/* The first input of a fault count, as "  first nan  at x = ...". */
static void print_fault(FILE *out, const struct ga_format *f, enum ga_fault fault,
                        const struct ga_point *p)
{
    char x[GA_TEXT_LEN], y[GA_TEXT_LEN], v[GA_TEXT_LEN], hx[GA_BITS_TEXT_LEN], hy[GA_BITS_TEXT_LEN];

    if (!p->has)
        return;
    ga_format_bits(f, p->x, hx);
    ga_format_bits(f, p->y, hy);
    fprintf(out, "  first %s at x = %s (%s): output %s (%s), exact %s\n", ga_fault_name(fault),
            ga_text_value(f, p->x, x), hx, ga_text_value(f, p->y, y), hy,
            ga_text_exact(&p->exact, v));
}

int ga_write_text(FILE *out, const struct ga_result *r)
{
    const struct ga_format *f = r->format;
    const struct ga_summary *all = &r->region[GA_REGION_ALL];
    char a[GA_TEXT_LEN], b[GA_TEXT_LEN], c[GA_TEXT_LEN], d[GA_TEXT_LEN];
    char interval[GA_INTERVAL_LEN];
    ga_bits nearest;

    fprintf(out, "%s on %s against %s (domain %s, %s oracle)\n", r->impl, f->name,
            ga_function_name(r->reference), r->domain, r->oracle == GA_ORACLE_FAST ? "fast" : "mpfr");
    fprintf(out, "  models     %s\n  formula    %s\n  computes   %s\n", r->models, r->formula,
            r->computes);
    for (size_t i = 0; i < r->span_count; i++) {
        char lo[GA_BITS_TEXT_LEN], hi[GA_BITS_TEXT_LEN];
        ga_format_bits(f, r->spans[i].first, lo);
        ga_format_bits(f, r->spans[i].last, hi);
        fprintf(out, "  %-10s %s on inputs %s..%s (%llu batch%s)\n", i ? "" : "FAILED",
                r->spans[i].what, lo, hi, (unsigned long long)r->spans[i].batches,
                r->spans[i].batches == 1 ? "" : "es");
    }
    if (r->unlisted_spans)
        fprintf(out, "             and %llu more failing spans after these\n",
                (unsigned long long)r->unlisted_spans);
    if (r->failed)
        fprintf(out, "             %llu failed batch%s, %llu inputs not measured%s\n",
                (unsigned long long)r->failed_batches, r->failed_batches == 1 ? "" : "es",
                (unsigned long long)(r->failed_inputs + r->skipped_inputs),
                r->skipped_inputs ? " (stopped at the max_failures-th failed batch)" : "");
    fprintf(out, "  inputs     %llu: correctly rounded %s %%, faithful %s %%\n",
            (unsigned long long)all->count, ga_text_percent(all->correctly_rounded, all->count, a),
            ga_text_percent(all->faithful, all->count, b));
    print_point(out, f, "max ulp", &all->max_ulp);
    fprintf(out, "  ulp        mean %s, p50 %s, p95 %s, p99 %s\n", ga_text_stat(all->mean_ulp, a),
            ga_text_stat(all->p50, b), ga_text_stat(all->p95, c), ga_text_stat(all->p99, d));
    print_point(out, f, "max rel", &all->max_rel);
    print_point(out, f, "max abs", &all->max_abs);
    fprintf(out, "  failures   flushed to 0: %llu, NaN: %llu, inf: %llu, wrong sign of 0: %llu\n",
            (unsigned long long)all->flushed_to_zero, (unsigned long long)all->nan,
            (unsigned long long)all->inf, (unsigned long long)all->wrong_zero_sign);
    for (int i = 0; i < GA_FAULT_COUNT; i++)
        print_fault(out, f, (enum ga_fault)i, &all->first_fault[i]);
    if (!all->faithful_interval.exists) {
        fputs("  faithful   nowhere around 0: an input +-0 is not faithful", out);
    } else if (!all->faithful_interval.has_extent) {
        /* no number measured: nothing says where it is faithful */
        fputs("  faithful   not measured: no input but NaN was measured", out);
    } else if (ga_text_interval_empty(f, &all->faithful_interval, &nearest)) {
        fprintf(out, "  faithful   on no measured input around 0: unfaithful at x = %s",
                ga_text_value(f, nearest, a));
    } else {
        fprintf(out, "  faithful   on %s", ga_text_interval(f, &all->faithful_interval, interval));
    }
    /* below the least measured input nothing is known */
    if (all->has_zero_below && ga_sign(f, all->zero_below)
        && !(all->faithful_interval.has_extent && all->zero_below == all->faithful_interval.extent_lo))
        fprintf(out, "; every output is 0 below x = %s", ga_text_value(f, all->zero_below, a));
    fputc('\n', out);
    ga_shape_write_text(out, r);
    fprintf(out, "\n  %-10s %10s %8s %8s %10s %10s %8s %6s %6s\n", "region", "inputs", "cr %",
            "faith %", "max ulp", "mean ulp", "flushed", "nan", "inf");
    for (int i = 0; i < GA_REGION_COUNT; i++) {
        const struct ga_summary *s = &r->region[i];
        if (s->count == 0)
            continue;
        fprintf(out, "  %-10s %10llu %8s %8s %10s %10s %8llu %6llu %6llu\n",
                ga_region_name((enum ga_region)i), (unsigned long long)s->count,
                ga_text_percent(s->correctly_rounded, s->count, a),
                ga_text_percent(s->faithful, s->count, b), ga_text_error(s->max_ulp.error, c),
                ga_text_stat(s->mean_ulp, d), (unsigned long long)s->flushed_to_zero,
                (unsigned long long)s->nan, (unsigned long long)s->inf);
    }
    return ferror(out) ? -1 : 0;
}
