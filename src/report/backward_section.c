/* Measuring a report's backward section: its rows swept together. */
#include "report/backward_section.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "state/backward_partial.h"
#include "measure/backward_sweep.h"
#include "domain/pairs.h"
#include "real/real.h"
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

static void append(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf);
    if (used < size)
        snprintf(buf + used, size - used, "%s", text);
}

/* The real libraries' backward kernels that run here in f, each against
 * the derivative it approximates; the others into s->not_measured.  Only
 * described here (their modules asked, no worker started): no path goes
 * onto the page, which must not depend on where it was made. */
static void plan_real(struct ga_backward_section *s, const struct ga_format *f)
{
    char model[128], isa[128], line[768], seen[256] = "";

    for (size_t i = 0; i < ga_real_backward_count() && s->n_real < GA_BACKWARD_REAL_MAX; i++) {
        const struct ga_real_desc *r = ga_real_backward_at(i);
        struct ga_backward_real_row *row = &s->real[s->n_real];
        struct ga_io_error err;
        enum ga_io_status st = ga_real_describe(r, f, &row->about, &err);
        char version[160];

        if (st == GA_IO_OK && row->about.refusal[0] == '\0') {
            row->desc = r;
            snprintf(row->name, sizeof row->name, "%s", r->name);
            s->n_real++;
            snprintf(version, sizeof version, "%s %s", r->library, row->about.version);
            if (strstr(seen, version) == NULL) {  /* each library once, in table order */
                append(seen, sizeof seen, seen[0] ? ", " : "");
                append(seen, sizeof seen, version);
            }
            continue;
        }
        if (st == GA_IO_LOAD)
            snprintf(line, sizeof line, "`%s`: the %s module was not built\n", r->name,
                     r->library);
        else if (st == GA_IO_OK)
            snprintf(line, sizeof line, "`%s`: refused by %s %s: %s\n", r->name, r->library,
                     row->about.version, row->about.refusal);
        else
            snprintf(line, sizeof line, "`%s`: %s\n", r->name, err.message);
        append(s->not_measured, sizeof s->not_measured, line);
    }
    ga_real_cpu(model, sizeof model, isa, sizeof isa);
    if (snprintf(s->machine, sizeof s->machine, "%s (%s); %s; glibc %s", model, isa,
                 seen[0] ? seen : "no real library", ga_real_libc_version())
        >= (int)sizeof s->machine)
        memcpy(s->machine + sizeof s->machine - 4, "...", 4);  /* cut, and says so */
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
    plan_real(s, f);
    return 0;
}

#define ALL_ROWS (GA_BACKWARD_ROWS_MAX + GA_BACKWARD_REAL_MAX)

/* The real rows' kernels opened (worker processes), their sweeps after the
 * models' in sweeps[].  0, or -1 with a message (a kernel described but
 * not opened: its module failed the plugin checks). */
static int open_real(struct ga_backward_section *s, int threads,
                     struct ga_grad_value *const tables[2], struct ga_backward_sweep *sweeps,
                     char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n_real; i++) {
        struct ga_backward_real_row *r = &s->real[i];
        struct gelu_acc_real_info about;
        struct ga_io_error io;

        if (ga_real_open_backward(r->desc, s->format, NULL, &r->plugin, &about, &io)
            != GA_IO_OK) {
            snprintf(err, errlen, "%s", io.message);
            return -1;
        }
        sweeps[s->n + i] = (struct ga_backward_sweep){
            .name = r->name, .plugin = r->plugin, .reference = r->desc->approximates,
            .pairs = &s->pairs, .threads = threads,
            .grad_table = tables[r->desc->approximates != GA_GELU_GRAD] };
    }
    return 0;
}

static void close_real(struct ga_backward_section *s)
{
    for (size_t i = 0; i < s->n_real; i++) {
        ga_plugin_close(s->real[i].plugin);
        s->real[i].plugin = NULL;
    }
}

/* The models' sweeps into sweeps[0..s->n), heat maps allocated.  0, or -1. */
static int plan_sweeps(struct ga_backward_section *s, int threads,
                       struct ga_grad_value *const tables[2], struct ga_backward_sweep *sweeps,
                       char *err, size_t errlen)
{
    for (size_t i = 0; i < s->n; i++) {
        struct ga_backward_row *r = &s->rows[i];
        sweeps[i] = (struct ga_backward_sweep){
            .name = r->impl->name, .impl = r->impl, .reference = r->reference,
            .pairs = &s->pairs, .threads = threads,
            .grad_table = tables[r->reference != GA_GELU_GRAD] };
        if (s->format->id == GA_BFLOAT16 && r->reference == r->impl->approximates
            && has_heat_map(r->impl)
            && !(r->heat = sweeps[i].heat = ga_backward_heat_new(s->format))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Sweep chunks [first, end) of s's domain for every row, the models' then
 * the real libraries' (heat maps allocated here); the statistics into
 * stats[], each chunk's sums into sums unless NULL
 * (ga_backward_sweep_share).  0, or -1 with a message. */
static int sweep_rows(struct ga_backward_section *s, int threads, uint64_t first, uint64_t end,
                      struct ga_backward_stats *stats, struct ga_backward_sums *sums, char *err,
                      size_t errlen)
{
    const struct ga_format *f = s->format;
    struct ga_grad_value *tables[2] = { NULL, NULL };  /* gelu_grad, gelu_tanh_grad */
    struct ga_backward_sweep sweeps[ALL_ROWS];
    size_t rows = s->n + s->n_real;
    char why[512];
    int status = 0;

    /* d(x) of every 16-bit x once per derivative, not once per row */
    for (int k = 0; k < 2 && f->bits <= 16 && status == 0; k++)
        if (!(tables[k] = ga_backward_grad_table(k ? GA_GELU_TANH_GRAD : GA_GELU_GRAD, f))) {
            snprintf(err, errlen, "the derivative was not decided for some %s input, or out "
                     "of memory", f->name);
            status = -1;
        }
    if (status == 0)
        status = plan_sweeps(s, threads, tables, sweeps, err, errlen);
    if (status == 0)  /* the real rows share the tables */
        status = open_real(s, threads, tables, sweeps, err, errlen);
    /* all rows in one pass: the pairs and each reference's truths are shared */
    if (status == 0 && rows > 0
        && ga_backward_sweep_share(sweeps, rows, first, end, stats, sums, why, sizeof why) != 0) {
        snprintf(err, errlen, "the backward section over %s: %s", s->domain, why);
        status = -1;
    }
    close_real(s);
    free(tables[0]);
    free(tables[1]);
    return status;
}

int ga_backward_section_measure(struct ga_backward_section *s, const struct ga_format *f,
                                const char *domain, int threads, char *err, size_t errlen)
{
    struct ga_backward_stats stats[ALL_ROWS];

    if (prepare(s, f, domain, err, errlen) != 0)
        return -1;
    if (sweep_rows(s, threads, 0, ga_backward_sweep_chunks(s->pairs.size), stats, NULL, err,
                   errlen) != 0) {
        ga_backward_section_free(s);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        s->rows[i].stats = stats[i];
    for (size_t i = 0; i < s->n_real; i++)
        s->real[i].stats = stats[s->n + i];
    if (ga_backward_section_lengths(s, threads, err, errlen) != 0) {
        ga_backward_section_free(s);
        return -1;
    }
    return 0;
}

int ga_backward_section_measure_share(const struct ga_format *f, const char *domain,
                                      int threads, uint32_t k, uint32_t n,
                                      struct ga_backward_partial **part, char *err,
                                      size_t errlen)
{
    struct ga_backward_section *s = malloc(sizeof *s);
    struct ga_backward_stats stats[ALL_ROWS];
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
    if (!(p = ga_backward_partial_new(f, domain, s->pairs.size, k, n, s->n + s->n_real)))
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
    for (size_t i = 0; i < s->n_real && status == 0; i++) {  /* after the models' */
        struct ga_backward_partial_row *row = &p->row[s->n + i];
        snprintf(row->impl, sizeof row->impl, "%s", s->real[i].name);
        row->reference = s->real[i].desc->approximates;
        row->stats = stats[s->n + i];
    }
    ga_backward_section_free(s);
    free(s);
    if (status == 0)
        *part = p;
    else
        ga_backward_partial_free(p);
    return status;
}

/* Row i of s, the models' then the real libraries': its name and reference. */
static const char *row_name(const struct ga_backward_section *s, size_t i,
                            enum ga_function *reference)
{
    if (i < s->n) {
        *reference = s->rows[i].reference;
        return s->rows[i].impl->name;
    }
    *reference = s->real[i - s->n].desc->approximates;
    return s->real[i - s->n].name;
}

int ga_backward_section_from_partial(struct ga_backward_section *s, const struct ga_format *f,
                                     struct ga_backward_partial *merged, char *err,
                                     size_t errlen)
{
    size_t rows;

    if (prepare(s, f, merged->domain, err, errlen) != 0)
        return -1;
    rows = s->n + s->n_real;
    if (merged->shards != 1 || merged->sums != NULL || merged->pairs != s->pairs.size
        || merged->n_rows != rows) {
        snprintf(err, errlen, "the shards measured %zu backward rows over %s, this gelu-acc "
                 "plans %zu (real libraries here: %zu)", merged->n_rows, merged->domain, rows,
                 s->n_real);
        ga_backward_section_free(s);
        return -1;
    }
    for (size_t i = 0; i < rows; i++) {
        enum ga_function reference;
        const char *name = row_name(s, i, &reference);
        if (strcmp(merged->row[i].impl, name) != 0 || merged->row[i].reference != reference) {
            snprintf(err, errlen, "the shards' backward row %zu is %s, this gelu-acc plans %s",
                     i + 1, merged->row[i].impl, name);
            ga_backward_section_free(s);
            return -1;
        }
    }
    for (size_t i = 0; i < s->n; i++) {
        s->rows[i].stats = merged->row[i].stats;
        s->rows[i].heat = merged->row[i].heat;  /* moved */
        merged->row[i].heat = NULL;
    }
    for (size_t i = 0; i < s->n_real; i++)
        s->real[i].stats = merged->row[s->n + i].stats;
    /* the other lengths: measured here, on the (small) length pairs */
    if (ga_backward_section_lengths(s, 0, err, errlen) != 0) {
        ga_backward_section_free(s);
        return -1;
    }
    return 0;
}

void ga_backward_section_free(struct ga_backward_section *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->rows[i].heat);
        s->rows[i].heat = NULL;
    }
    close_real(s);
    if (s->has_length_pairs)
        ga_pairs_free(&s->length_pairs);
    s->has_length_pairs = false;
    if (s->format != NULL)
        ga_pairs_free(&s->pairs);
    s->format = NULL;
}
