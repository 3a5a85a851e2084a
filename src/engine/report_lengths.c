/* The tensor lengths of a page's real kernels (engine/report_lengths.h). */
#include "engine/report_lengths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/domain.h"
#include "measure/output_tally.h"
#include "real/real.h"
#include "report/length_note.h"

size_t ga_report_lengths_max(void)
{
    return 2 * GA_OTHER_LENGTHS * ga_real_count();  /* against gelu, and tanh forms against theirs */
}

/* Kernel k of rr at length over d: its rows into results when its bits
 * differ from the long kernel's on some input, its note either way. */
static int check_length(const struct ga_format *f, struct ga_report_real *rr, size_t k,
                        enum ga_real_length length, const struct ga_domain *d,
                        const struct ga_sweep_options *base, const struct ga_report_share *share,
                        struct ga_result *results, size_t *n, struct ga_length_outcome *o)
{
    const struct ga_impl *long_impl = ga_real_impl(rr->kernels[k]);
    const struct ga_real *r = ga_real_find(long_impl->name);
    struct ga_real_kernel *kernel = NULL;
    struct ga_measurement m[3];
    struct ga_output_tally tally = { f, 0, 0 };
    struct ga_sweep_options so = *base;
    struct ga_io_error err;
    char why[GA_ENGINE_WHY];
    size_t count = 0, rows = 0;
    ga_bits input = 0;
    int status;

    memset(o, 0, sizeof *o);
    if (ga_real_open_at(r, f, length, NULL, &kernel, &err) != GA_IO_OK) {
        snprintf(o->why, sizeof o->why, "%s", err.message);
        return GA_ENGINE_OK;
    }
    memset(m, 0, sizeof m);
    /* the length, then long tensors: the two outputs the observer compares */
    /* (no shape: the page's shape tables are the long rows') */
    m[count++] = (struct ga_measurement){ .impl = ga_real_impl(kernel), .reference = GA_GELU };
    m[count++] = (struct ga_measurement){ .impl = long_impl, .reference = GA_GELU };
    if (long_impl->approximates == GA_GELU_TANH)
        m[count++] = (struct ga_measurement){ .impl = ga_real_impl(kernel),
                                              .reference = GA_GELU_TANH };
    so.first_chunk = so.end_chunk = 0;
    so.observe = ga_output_tally_observe;
    so.observe_ctx = &tally;
    status = ga_sweep_run(f, d, m, count, &so, &input);
    status = ga_engine_sweep_status(status, f, d, m, count, input, why, sizeof why);
    if (status != GA_ENGINE_OK) {
        ga_report_say(share, "report: %s", why);
    } else if (m[0].failed || m[1].failed) {
        snprintf(o->why, sizeof o->why, "a call failed");
    } else if (tally.differ == 0) {
        *o = (struct ga_length_outcome){ .kind = GA_LENGTH_SAME, .inputs = tally.inputs };
    } else {
        struct ga_report_length_row *row = &rr->length_rows[rr->length_row_count];
        *o = (struct ga_length_outcome){ .kind = GA_LENGTH_DIFFERS, .inputs = tally.inputs, .differ = tally.differ };
        snprintf(o->row, sizeof o->row, "%s", ga_real_impl(kernel)->name);
        for (size_t j = 0; status == GA_ENGINE_OK && j < count; j++)
            if (j != 1 && ga_result_from_measurement(&results[*n + rows++], &m[j], d,
                                                     base->oracle, NULL) != 0)
                status = GA_ENGINE_UNDECIDED;
        if (status == GA_ENGINE_OK) {
            snprintf(row->call, sizeof row->call, "%s; %s",
                     f->id == GA_FLOAT64 ? r->entry64 : r->desc.entry,
                     ga_real_length_text(length));
            row->kernel = kernel;
            rr->length_row_count++;
            kernel = NULL;
            *n += rows;
        }
    }
    for (size_t j = 0; j < count; j++)
        if (m[j].stats)
            ga_measurement_clear(&m[j]);
    ga_real_close(kernel);
    return status;
}

int ga_report_lengths(const struct ga_format *f, struct ga_report_real *rr,
                      const struct ga_domain *real_domain, const struct ga_sweep_options *base,
                      const struct ga_report_share *share, struct ga_result *results, size_t *n)
{
    struct ga_domain own;
    const struct ga_domain *d = &own;
    char err[256];
    int status = GA_ENGINE_OK;

    if (rr->count == 0)
        return GA_ENGINE_OK;
    rr->length_rows = calloc(GA_OTHER_LENGTHS * rr->count, sizeof *rr->length_rows);
    if (rr->length_rows == NULL) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    if (ga_domain_parse(&own, ga_domain_default(f), f, err, sizeof err) != 0) {
        ga_report_say(share, "report: %s", err);
        return GA_ENGINE_BAD_INPUT;
    }
    if (real_domain->size < own.size)  /* the real rows' own sample, when smaller */
        d = real_domain;
    for (size_t k = 0; status == GA_ENGINE_OK && k < rr->count; k++) {
        const struct ga_real *r = ga_real_find(ga_real_impl(rr->kernels[k])->name);
        struct ga_length_outcome o[GA_OTHER_LENGTHS];
        if (r == NULL || !ga_real_has_lengths(&r->desc))
            continue;
        for (size_t l = 0; status == GA_ENGINE_OK && l < GA_OTHER_LENGTHS; l++)
            status = check_length(f, rr, k, ga_other_lengths[l], d, base, share, results, n,
                                  &o[l]);
        if (status == GA_ENGINE_OK)
            ga_length_note(rr->lengths[k], GA_REPORT_LENGTHS_NOTE, o, "inputs");
    }
    ga_domain_free(&own);
    return status;
}
