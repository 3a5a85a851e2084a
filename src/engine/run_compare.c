/* gelu-acc compare (run_compare.h): open both sides, check they cover the
 * same inputs, sweep them together with the tally watching, summarize. */
#include "engine/run_compare.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/run_compare_backward.h"
#include "impls/backward.h"
#include "real/real.h"

static const char *const side_name[2] = { "A", "B" };

/* Side s opened; an outputs: side needs the inputs file, the others refuse it
 * (they run on that file's inputs, taken from the outputs side). */
static int open_side(const struct ga_compare_job *job, struct ga_compare_done *done, int s,
                     char *why, size_t len)
{
    struct ga_kernel_request rq = job->kernel;
    struct ga_io_error io;
    enum ga_real_length length;

    rq.spec = job->spec[s];
    if (strncmp(rq.spec, "outputs:", 8) != 0)
        rq.inputs = NULL;
    if (ga_kernel_open(&done->kernel[s], &rq, &io) != GA_IO_OK) {
        if (ga_backward_catalogue_find(rq.spec) || ga_real_backward_find_at(rq.spec, &length))
            snprintf(why, len, "side %s (%s) is a backward kernel: compare backward kernels "
                     "with --backward", side_name[s], job->spec[s]);
        else
            snprintf(why, len, "side %s (%s): %s", side_name[s], job->spec[s], io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    if (job->warn && done->kernel[s].plugin && !ga_plugin_format_declared(done->kernel[s].plugin)) {
        char message[GA_ENGINE_WHY];
        snprintf(message, sizeof message, "side %s (%s): the library does not declare the "
                 "kernel's format (<gelu-acc/kernel.h>): it cannot be checked to be a %s kernel",
                 side_name[s], job->spec[s], job->kernel.format->name);
        job->warn(message);
    }
    return GA_ENGINE_OK;
}

/* The domain both sides run on: an outputs side's inputs file when there is
 * one (its outputs answer those inputs, element by element), else the
 * domain both opened alike.  NULL, with a message, when two outputs sides
 * cover different numbers of inputs. */
static const struct ga_domain *common_domain(const struct ga_compare_job *job,
                                             const struct ga_compare_done *done, char *why,
                                             size_t len)
{
    const struct ga_kernel *k = done->kernel;

    if (k[0].has_graded && k[1].has_graded && k[0].domain.size != k[1].domain.size) {
        snprintf(why, len, "the sides cover different inputs: A (%s) has %" PRIu64 " outputs, "
                 "B (%s) %" PRIu64, job->spec[0], k[0].domain.size, job->spec[1],
                 k[1].domain.size);
        return NULL;
    }
    return k[1].has_graded && !k[0].has_graded ? &k[1].domain : &k[0].domain;
}

/* A side that failed during the sweep, as sweep reports it: what happened
 * and on which inputs. */
static int side_failed(const struct ga_compare_job *job, const struct ga_compare_done *done,
                       char *why, size_t len)
{
    for (int s = 0; s < 2; s++) {
        const struct ga_result *r = &done->results[s];
        char lo[GA_BITS_TEXT_LEN], hi[GA_BITS_TEXT_LEN];
        if (!r->failed)
            continue;
        ga_format_bits(r->format, r->spans[0].first, lo);
        ga_format_bits(r->format, r->spans[0].last, hi);
        snprintf(why, len, "side %s (%s) failed: %s on inputs %s..%s (%" PRIu64 " inputs in %"
                 PRIu64 " failed batches)", side_name[s], job->spec[s], r->spans[0].what, lo, hi,
                 r->failed_inputs, r->failed_batches);
        return GA_ENGINE_FAILED;
    }
    return GA_ENGINE_OK;
}

static int summarize(const struct ga_compare_job *job, struct ga_compare_done *done,
                     struct ga_measurement *m, const struct ga_domain *d, char *why, size_t len)
{
    if (!(done->results = calloc(2, sizeof *done->results))) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    for (int s = 0; s < 2; s++) {
        if (ga_result_from_measurement(&done->results[s], &m[s], d, job->options.oracle,
                                       job->spec[s]) != 0) {
            snprintf(why, len, "could not summarize side %s", side_name[s]);
            return GA_ENGINE_UNDECIDED;
        }
        done->results[s].impl = job->name[s] ? job->name[s] : job->spec[s];
        ga_compare_side_forward(&done->sides.side[s], &done->results[s]);
    }
    done->sides.results = done->results;
    done->sides.domain = done->results[0].domain;
    done->sides.oracle = job->options.oracle;
    return side_failed(job, done, why, len);
}

int ga_run_compare(const struct ga_compare_job *job, struct ga_compare_done *done, char *why,
                   size_t len)
{
    const struct ga_format *f = job->kernel.format;
    struct ga_measurement m[2];
    struct ga_sweep_options so = job->options;
    const struct ga_domain *d;
    ga_bits input = 0;
    int status;

    memset(done, 0, sizeof *done);
    if (job->backward)
        return ga_run_compare_backward(job, done, why, len);
    for (int s = 0; s < 2; s++)
        if ((status = open_side(job, done, s, why, len)) != GA_ENGINE_OK)
            return status;
    if (!(d = common_domain(job, done, why, len)))
        return GA_ENGINE_BAD_INPUT;
    snprintf(done->domain, sizeof done->domain, "%s", d->spec);
    if (ga_compare_tally_init(&done->tally, f, job->kernel.reference, d->size, false) != 0) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    for (int s = 0; s < 2; s++) {
        m[s] = done->kernel[s].measurement;
        m[s].want_profile = m[s].want_shape = false;
    }
    so.max_failures = 0;
    so.observe = ga_compare_tally_observe;
    so.observe_ctx = &done->tally;
    status = ga_sweep_run(f, d, m, 2, &so, &input);
    status = ga_engine_sweep_status(status, f, d, m, 2, input, why, len);
    if (status == GA_ENGINE_OK)
        status = summarize(job, done, m, d, why, len);
    if (status == GA_ENGINE_OK && ga_compare_tally_finish(&done->tally) != 0) {
        snprintf(why, len, "the MPFR oracle could not decide a listed input");
        status = GA_ENGINE_UNDECIDED;
    }
    for (int s = 0; s < 2; s++)
        if (m[s].stats)
            ga_measurement_clear(&m[s]);
    return status;
}

void ga_compare_done_free(struct ga_compare_done *done)
{
    free(done->results);
    done->results = NULL;
    for (int s = 0; s < 2; s++)
        ga_kernel_close(&done->kernel[s]);
    ga_compare_backward_free(done);
    ga_compare_tally_free(&done->tally);
}
