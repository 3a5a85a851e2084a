/* Measuring a report's backward section: its rows swept together. */
#include "report/backward_section.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/backward_partial.h"
#include "measure/backward_sweep.h"
#include "domain/pairs.h"
#include "truth/backward.h"

const char *ga_backward_domain_option(const struct ga_format *f)
{
    switch (f->id) {
    case GA_BFLOAT16: return "--bfloat16-backward-domain";
    case GA_FLOAT16: return "--float16-backward-domain";
    case GA_FLOAT32: return "--float32-backward-domain";
    default: return NULL;
    }
}

const char *ga_backward_domain_for(const struct ga_backward_domains *d, const struct ga_format *f)
{
    const char *given = f->id == GA_BFLOAT16 ? d->bfloat16
                        : f->id == GA_FLOAT16 ? d->float16 : d->float32;

    if (d->none || ga_backward_domain_option(f) == NULL)
        return NULL;
    return given ? given : f->bits == 16 ? GA_BACKWARD_DOMAIN_16 : GA_BACKWARD_DOMAIN_32;
}

/* The models whose heat maps a bfloat16 page shows: PyTorch's backward
 * kernels in float opmath and op by op in the format, for both formulas. */
static bool has_heat_map(const struct ga_backward_impl *impl)
{
    static const char *const mapped[] = {
        "pytorch_gelu_backward", "pytorch_gelu_backward_native",
        "pytorch_gelu_backward_tanh", "pytorch_gelu_backward_tanh_native",
    };
    for (size_t k = 0; k < sizeof mapped / sizeof mapped[0]; k++)
        if (strcmp(impl->name, mapped[k]) == 0)
            return true;
    return false;
}

/* The rows: each model against its own derivative, then the tanh forms
 * against exact gelu' (the forward tables' order). */
static void plan_rows(struct ga_backward_section *s, const struct ga_format *f)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
            const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
            if (!ga_backward_supports(impl, f) || (pass == 1 && impl->approximates == GA_GELU_GRAD))
                continue;
            s->rows[s->n].impl = impl;
            s->rows[s->n].reference = pass == 0 ? impl->approximates : GA_GELU_GRAD;
            s->n++;
        }
}

/* s set up for f over domain: the pairs parsed, the rows planned, nothing
 * measured.  0, or -1 with a message (then s holds nothing to free). */
static int prepare(struct ga_backward_section *s, const struct ga_format *f, const char *domain,
                   char *err, size_t errlen)
{
    char why[512];

    memset(s, 0, sizeof *s);
    snprintf(s->domain, sizeof s->domain, "%s", domain);
    snprintf(s->how, sizeof s->how, "gelu-acc report --formats %s %s %s", f->name,
             ga_backward_domain_option(f), domain);
    if (ga_pairs_parse(&s->pairs, domain, f, ga_encode(f, 1.0), why, sizeof why) != 0) {
        snprintf(err, errlen, "%s %s: %s", ga_backward_domain_option(f), domain, why);
        return -1;
    }
    s->format = f;  /* from here on, free frees the pairs */
    plan_rows(s, f);
    return 0;
}

/* Sweep chunks [first, end) of s's domain for every row (heat maps
 * allocated here); the statistics into stats[], each chunk's sums into sums
 * unless NULL (ga_backward_sweep_share).  0, or -1 with a message. */
static int sweep_rows(struct ga_backward_section *s, int threads, uint64_t first, uint64_t end,
                      struct ga_backward_stats *stats, struct ga_backward_sums *sums, char *err,
                      size_t errlen)
{
    const struct ga_format *f = s->format;
    struct ga_grad_value *tables[2] = { NULL, NULL };  /* gelu_grad, gelu_tanh_grad */
    struct ga_backward_sweep sweeps[GA_BACKWARD_ROWS_MAX];
    char why[512];
    int status = 0;

    /* d(x) of every 16-bit x once per derivative, not once per row */
    for (int k = 0; k < 2 && f->bits <= 16 && status == 0; k++)
        if (!(tables[k] = ga_backward_grad_table(k ? GA_GELU_TANH_GRAD : GA_GELU_GRAD, f))) {
            snprintf(err, errlen, "the derivative was not decided for some %s input, or out "
                     "of memory", f->name);
            status = -1;
        }
    for (size_t i = 0; i < s->n && status == 0; i++) {
        struct ga_backward_row *r = &s->rows[i];
        sweeps[i] = (struct ga_backward_sweep){
            .name = r->impl->name, .impl = r->impl, .reference = r->reference,
            .pairs = &s->pairs, .threads = threads,
            .grad_table = tables[r->reference != GA_GELU_GRAD] };
        if (f->id == GA_BFLOAT16 && r->reference == r->impl->approximates
            && has_heat_map(r->impl)
            && !(r->heat = sweeps[i].heat = ga_backward_heat_new(f))) {
            snprintf(err, errlen, "out of memory");
            status = -1;
        }
    }
    /* all rows in one pass: the pairs and each reference's truths are shared */
    if (status == 0 && s->n > 0
        && ga_backward_sweep_share(sweeps, s->n, first, end, stats, sums, why, sizeof why) != 0) {
        snprintf(err, errlen, "the backward section over %s: %s", s->domain, why);
        status = -1;
    }
    free(tables[0]);
    free(tables[1]);
    return status;
}

int ga_backward_section_measure(struct ga_backward_section *s, const struct ga_format *f,
                                const char *domain, int threads, char *err, size_t errlen)
{
    struct ga_backward_stats stats[GA_BACKWARD_ROWS_MAX];

    if (prepare(s, f, domain, err, errlen) != 0)
        return -1;
    if (sweep_rows(s, threads, 0, ga_backward_sweep_chunks(s->pairs.size), stats, NULL, err,
                   errlen) != 0) {
        ga_backward_section_free(s);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        s->rows[i].stats = stats[i];
    return 0;
}

int ga_backward_section_measure_share(const struct ga_format *f, const char *domain,
                                      int threads, uint32_t k, uint32_t n,
                                      struct ga_backward_partial **part, char *err,
                                      size_t errlen)
{
    struct ga_backward_section *s = malloc(sizeof *s);
    struct ga_backward_stats stats[GA_BACKWARD_ROWS_MAX];
    struct ga_backward_partial *p = NULL;
    int status = -1;

    *part = NULL;
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (prepare(s, f, domain, err, errlen) != 0) {
        free(s);
        return -1;
    }
    if (!(p = ga_backward_partial_new(f, domain, s->pairs.size, k, n, s->n)))
        snprintf(err, errlen, "out of memory");
    else if (sweep_rows(s, threads, p->first, p->end, stats, p->sums, err, errlen) == 0)
        status = 0;
    for (size_t i = 0; i < s->n && status == 0; i++) {
        struct ga_backward_partial_row *row = &p->row[i];
        snprintf(row->impl, sizeof row->impl, "%s", s->rows[i].impl->name);
        row->reference = s->rows[i].reference;
        row->stats = stats[i];
        row->heat = s->rows[i].heat;  /* moved */
        s->rows[i].heat = NULL;
    }
    ga_backward_section_free(s);
    free(s);
    if (status == 0)
        *part = p;
    else
        ga_backward_partial_free(p);
    return status;
}

int ga_backward_section_from_partial(struct ga_backward_section *s, const struct ga_format *f,
                                     struct ga_backward_partial *merged, char *err,
                                     size_t errlen)
{
    if (prepare(s, f, merged->domain, err, errlen) != 0)
        return -1;
    if (merged->shards != 1 || merged->sums != NULL || merged->pairs != s->pairs.size
        || merged->n_rows != s->n) {
        snprintf(err, errlen, "the shards measured %zu backward rows over %s, this gelu-acc "
                 "plans %zu", merged->n_rows, merged->domain, s->n);
        ga_backward_section_free(s);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(merged->row[i].impl, s->rows[i].impl->name) != 0
            || merged->row[i].reference != s->rows[i].reference) {
            snprintf(err, errlen, "the shards' backward row %zu is %s, this gelu-acc plans %s",
                     i + 1, merged->row[i].impl, s->rows[i].impl->name);
            ga_backward_section_free(s);
            return -1;
        }
    for (size_t i = 0; i < s->n; i++) {
        s->rows[i].stats = merged->row[i].stats;
        s->rows[i].heat = merged->row[i].heat;  /* moved */
        merged->row[i].heat = NULL;
    }
    return 0;
}

void ga_backward_section_free(struct ga_backward_section *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].heat);
        s->rows[i].heat = NULL;
    }
    if (s->format != NULL)
        ga_pairs_free(&s->pairs);
    s->format = NULL;
}
