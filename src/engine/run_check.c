/* One section of gelu-acc check (run_check.h). */
#include "engine/run_check.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grade/number_text.h"
#include "measure/class_witness.h"
#include "measure/kernel_spec.h"

/* One line per span of failing inputs, in domain order, then the cost. */
static void print_failure(FILE *out, const struct ga_baseline_entry *e, const struct ga_result *r)
{
    for (size_t k = 0; k < r->span_count; k++) {
        char lo[GA_BITS_TEXT_LEN], hi[GA_BITS_TEXT_LEN];
        ga_format_bits(e->format, r->spans[k].first, lo);
        ga_format_bits(e->format, r->spans[k].last, hi);
        fprintf(out, "FAIL %s: the kernel %s on inputs %s..%s (%" PRIu64 " batch%s)\n", e->name,
                r->spans[k].what, lo, hi, r->spans[k].batches,
                r->spans[k].batches == 1 ? "" : "es");
    }
    if (r->unlisted_spans)
        fprintf(out, "FAIL %s: and %" PRIu64 " more failing spans after these\n", e->name,
                (uint64_t)r->unlisted_spans);
    fprintf(out, "FAIL %s: %" PRIu64 " failed batch%s, %" PRIu64 " inputs not measured%s\n",
            e->name, r->failed_batches, r->failed_batches == 1 ? "" : "es",
            r->failed_inputs + r->skipped_inputs,
            r->skipped_inputs ? " (stopped at the max_failures-th failed batch)" : "");
}

/* A witness's point as the comparison names it, with MPFR's exact value. */
static int named_point(const struct ga_baseline_entry *e, const struct ga_class_point *p,
                       struct ga_point *q)
{
    struct ga_truth t;

    memset(q, 0, sizeof *q);
    if (!p->has)
        return 0;
    if (ga_truth_mpfr(e->reference, e->format, p->x, &t) != GA_TRUTH_OK)
        return -1;
    *q = (struct ga_point){ .has = true, .error = NAN, .x = p->x, .y = p->y, .exact = t.exact };
    return 0;
}

static int name_inputs(const struct ga_baseline_entry *e, const struct ga_class_witness *w,
                       struct ga_baseline_named *n)
{
    for (int r = 0; r <= GA_REGION_COUNT; r++)
        for (int k = 0; k < GA_WITNESS_COUNT; k++) {
            n->old_y[r][k] = w->entered[r][k].old_y;
            if (named_point(e, &w->now[r][k], &n->now[r][k]) != 0
                || named_point(e, &w->entered[r][k], &n->entered[r][k]) != 0)
                return -1;
        }
    return 0;
}

/* The inputs whose class changed against the snapshot: the count, then the
 * first few.  Returns 1 when some got worse. */
static int print_changes(FILE *out, const struct ga_baseline_entry *e,
                         const struct ga_class_witness *w)
{
    const struct ga_format *f = e->format;

    if (w->changed == 0)
        return 0;
    fprintf(out, "%s: class changed at %" PRIu64 " of %" PRIu64 " inputs against snapshot %s "
            "(%" PRIu64 " worse; input by input: improved %" PRIu64 ", worsened %" PRIu64 ")\n",
            e->name, w->changed, w->size, e->snapshot, w->changed_worse, w->tally.improved,
            w->tally.worsened);
    for (size_t i = 0; i < w->change_count; i++) {
        const struct ga_class_point *p = &w->changes[i];
        char hx[GA_BITS_TEXT_LEN], ha[GA_BITS_TEXT_LEN], hb[GA_BITS_TEXT_LEN];
        char x[GA_TEXT_LEN], a[GA_TEXT_LEN], b[GA_TEXT_LEN];
        ga_format_bits(f, p->x, hx);
        ga_format_bits(f, p->old_y, ha);
        ga_format_bits(f, p->y, hb);
        fprintf(out, "%s:   input %s (%s): output %s (%s) %s -> %s (%s) %s: %s\n", e->name, hx,
                ga_text_value(f, p->x, x), ha, ga_text_value(f, p->old_y, a),
                ga_bucket_key(p->old_class), hb, ga_text_value(f, p->y, b),
                ga_bucket_key(p->class), p->worse ? "worse" : "not worse");
    }
    if (w->changed > w->change_count)
        fprintf(out, "%s:   and %" PRIu64 " more\n", e->name, w->changed - w->change_count);
    return w->changed_worse > 0;
}

/* The sweep of the opened kernel k with witness w watching, into r. */
static int sweep(const struct ga_check_job *job, const struct ga_baseline_entry *e,
                 struct ga_kernel *k, struct ga_class_witness *w, struct ga_result *r,
                 char *why, size_t len)
{
    struct ga_sweep_options so = job->options;
    ga_bits input = 0;
    int status;

    so.max_failures = job->max_failures > 0 ? job->max_failures : e->max_failures;
    so.observe = ga_class_witness_observe;
    so.observe_ctx = w;
    status = ga_sweep_run(e->format, &k->domain, &k->measurement, 1, &so, &input);
    status = ga_engine_sweep_status(status, e->format, &k->domain, &k->measurement, 1, input,
                                    why, len);
    if (status == GA_ENGINE_OK
        && ga_result_from_measurement(r, &k->measurement, &k->domain, so.oracle, e->name) != 0) {
        snprintf(why, len, "could not summarize the results");
        status = GA_ENGINE_UNDECIDED;
    }
    if (k->measurement.stats)
        ga_measurement_clear(&k->measurement);
    r->profile = NULL;  /* released with the measurement */
    return status;
}

/* Compare r with e's bounds (and the snapshot), writing the lines. */
static int judge(const struct ga_baseline_entry *e, struct ga_class_witness *w,
                 const struct ga_result *r, FILE *out, int *exceeded, char *why, size_t len)
{
    struct ga_baseline_named *named = calloc(1, sizeof *named);
    int n;

    if (!named || ga_class_witness_finish(w) != 0 || name_inputs(e, w, named) != 0) {
        free(named);
        snprintf(why, len, "[%s]: the MPFR oracle could not decide a named input", e->name);
        return GA_ENGINE_UNDECIDED;
    }
    n = ga_baseline_compare_named(out, e, r->region, named);
    n += print_changes(out, e, w);
    fprintf(out, "%s %s (%s, %s, %" PRIu64 " inputs)\n", n ? "FAIL" : "PASS", e->name,
            e->format->name, ga_function_name(e->reference), r->region[GA_REGION_ALL].count);
    *exceeded += n;
    free(named);
    return GA_ENGINE_OK;
}

int ga_run_check_entry(const struct ga_check_job *job, const struct ga_baseline_entry *e,
                       FILE *out, struct ga_result *r, int *exceeded, char *why, size_t len)
{
    struct ga_plugin_options po;
    struct ga_kernel_request rq = {
        .spec = e->kernel, .format = e->format, .reference = e->reference,
        .domain = e->domain, .inputs = e->inputs, .base_dir = job->baseline_dir,
        .plugin_options = &po,
    };
    struct ga_kernel k;
    struct ga_class_witness w;
    struct ga_io_error io;
    char *snapshot = NULL;
    enum ga_io_status opened;
    int status;

    ga_plugin_default_options(&po);
    po.name = e->name;
    if (job->timeout_s > 0 || e->timeout_s > 0)
        po.timeout_s = job->timeout_s > 0 ? job->timeout_s : e->timeout_s;
    opened = ga_kernel_open(&k, &rq, &io);
    if (opened == GA_IO_KERNEL_FAULT) {
        /* its constructors failed as a kernel fails: this section fails,
         * the others are still measured */
        fprintf(out, "FAIL %s (%s): %s\n", e->name, e->format->name, io.message);
        (*exceeded)++;
        return GA_ENGINE_OK;
    }
    if (opened != GA_IO_OK) {
        snprintf(why, len, "%s:%d: [%s]: %s", job->path, e->line, e->name, io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    if (job->warn && k.plugin && !ga_plugin_format_declared(k.plugin)) {
        char message[GA_ENGINE_WHY];
        snprintf(message, sizeof message, "%s: the library does not declare the kernel's "
                 "format (GELU_ACC_KERNEL_F32 and kin, <gelu-acc/kernel.h>): it cannot be "
                 "checked to be a %s kernel", k.measurement.impl->name, e->format->name);
        job->warn(message);
    }
    if (e->snapshot[0] && !job->update  /* an update compares nothing */
        && !(snapshot = ga_kernel_resolve_path(job->baseline_dir, e->snapshot))) {
        ga_kernel_close(&k);
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    if (ga_class_witness_init(&w, e->format, e->reference, k.domain.size, snapshot, &io)
        != GA_IO_OK) {
        snprintf(why, len, "%s:%d: [%s]: %s", job->path, e->line, e->name, io.message);
        status = GA_ENGINE_BAD_INPUT;
    } else if ((status = sweep(job, e, &k, &w, r, why, len)) == GA_ENGINE_OK) {
        if (r->failed) {
            print_failure(out, e, r);
            (*exceeded)++;
        } else if (!job->update) {
            status = judge(e, &w, r, out, exceeded, why, len);
        }
    }
    ga_class_witness_free(&w);
    free(snapshot);
    ga_kernel_close(&k);
    return status;
}
