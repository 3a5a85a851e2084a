/* gelu-acc compare --backward (run_compare_backward.h): open both sides,
 * check they answer the same pairs against the same derivative, sweep them
 * as two rows of one backward sweep with the tally watching, summarize. */
#include "engine/run_compare_backward.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "impls/impl.h"
#include "real/real.h"

static const char *const side_name[2] = { "A", "B" };

static bool is_outputs(const char *spec)
{
    return strncmp(spec, "outputs:", 8) == 0;
}

/* Why a side did not open as a backward kernel: a forward kernel's name
 * says so, anything else as the backward sweep says it. */
static int open_failed(const struct ga_compare_job *job, int s, const char *message, char *why,
                       size_t len)
{
    const char *spec = job->spec[s];
    enum ga_real_length length;

    if (ga_catalogue_find(spec) || ga_real_find_at(spec, &length))
        snprintf(why, len, "side %s (%s) is a forward kernel; --backward compares backward "
                 "kernels ('gelu-acc list --backward')", side_name[s], spec);
    else
        snprintf(why, len, "side %s (%s): %s", side_name[s], spec, message);
    return GA_ENGINE_BAD_INPUT;
}

/* The pairs of the outputs: sides: --inputs (x) and --dy-inputs, read as
 * grade --backward reads them, checked against one side's dx file. */
static int open_outputs(const struct ga_compare_job *job, struct ga_compare_done *done, int s,
                        char *why, size_t len)
{
    struct ga_compare_backward_side *side = &done->backward[s];
    struct ga_io_error io;

    if (!job->kernel.inputs || !job->dy_inputs) {
        snprintf(why, len, "side %s (%s): backward outputs answer pairs: give --inputs X_FILE "
                 "and --dy-inputs DY_FILE", side_name[s], job->spec[s]);
        return GA_ENGINE_BAD_INPUT;
    }
    if (ga_graded_open_backward(&side->graded, job->kernel.inputs, job->dy_inputs,
                                job->spec[s] + 8, job->kernel.format, &io) != GA_IO_OK) {
        snprintf(why, len, "side %s (%s): %s", side_name[s], job->spec[s], io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    side->has_graded = true;
    if (done->has_pairs) {  /* the other side's files' pairs serve both */
        struct ga_pairs again;
        ga_graded_attach_backward(&side->graded, job->kernel.inputs, &again,
                                  &side->kernel.sweep.dx);
        ga_pairs_free(&again);
    } else {
        ga_graded_attach_backward(&side->graded, job->kernel.inputs, &done->pairs,
                                  &side->kernel.sweep.dx);
        done->has_pairs = true;
    }
    side->kernel.sweep.reference = job->have_reference ? job->kernel.reference : GA_GELU_GRAD;
    side->kernel.sweep.name = job->spec[s];
    return GA_ENGINE_OK;
}

static int open_side(const struct ga_compare_job *job, struct ga_compare_done *done, int s,
                     char *why, size_t len)
{
    struct ga_backward_request rq = {
        .spec = job->spec[s], .format = job->kernel.format, .reference = job->kernel.reference,
        .have_reference = job->have_reference, .domain = job->kernel.domain, .dy = job->dy,
        .plugin_options = job->kernel.plugin_options, .threads = job->options.threads,
    };
    struct ga_io_error io;
    struct ga_plugin *plugin;

    if (is_outputs(job->spec[s]))
        return open_outputs(job, done, s, why, len);
    if (job->kernel.inputs)
        rq.domain = NULL;  /* the pairs come from the files; the default parses */
    if (ga_backward_kernel_open(&done->backward[s].kernel, &rq, &io) != GA_IO_OK)
        return open_failed(job, s, io.message, why, len);
    plugin = done->backward[s].kernel.sweep.plugin;
    if (job->warn && plugin && strncmp(job->spec[s], "plugin:", 7) == 0
        && !ga_plugin_format_declared(plugin)) {
        char message[GA_ENGINE_WHY];
        snprintf(message, sizeof message, "side %s (%s): the library does not declare the "
                 "kernel (GELU_ACC_BACKWARD_KERNEL_BF16 and kin, <gelu-acc/kernel.h>): it "
                 "cannot be checked to be a %s backward kernel", side_name[s], job->spec[s],
                 job->kernel.format->name);
        job->warn(message);
    }
    return GA_ENGINE_OK;
}

/* Both rows over one pair domain, against one derivative; the outputs
 * files' pairs when there are some.  The rows' pairs point at it. */
static const struct ga_pairs *common_pairs(const struct ga_compare_job *job,
                                           struct ga_compare_done *done, char *why, size_t len)
{
    struct ga_backward_sweep *a = &done->backward[0].kernel.sweep;
    struct ga_backward_sweep *b = &done->backward[1].kernel.sweep;
    const struct ga_pairs *pairs = done->has_pairs ? &done->pairs : &done->backward[0].kernel.pairs;

    if (done->has_pairs && job->kernel.domain) {
        snprintf(why, len, "--inputs and --dy-inputs are the pairs of outputs: sides; --domain "
                 "cannot go with them");
        return NULL;
    }
    if (!done->has_pairs && job->kernel.inputs) {
        snprintf(why, len, "--inputs goes with an outputs:FILE side");
        return NULL;
    }
    if (a->reference != b->reference) {
        snprintf(why, len, "the sides approximate different derivatives (A: %s, B: %s): give "
                 "--reference", ga_function_name(a->reference), ga_function_name(b->reference));
        return NULL;
    }
    a->pairs = b->pairs = pairs;
    return pairs;
}

/* A side whose plugin failed on a batch, as sweep --backward reports it. */
static int side_failed(const struct ga_compare_job *job, const struct ga_compare_done *done,
                       char *why, size_t len)
{
    const struct ga_format *f = job->kernel.format;

    for (int s = 0; s < 2; s++) {
        const struct ga_backward_stats *st = &done->backward[s].stats;
        char x[GA_BITS_TEXT_LEN], dy[GA_BITS_TEXT_LEN];
        if (st->failed_batches == 0)
            continue;
        ga_format_bits(f, st->failure.x, x);
        ga_format_bits(f, st->failure.dy, dy);
        snprintf(why, len, "side %s (%s) failed: %s on pairs %" PRIu64 "..%" PRIu64 " (first: "
                 "x = %s, dy = %s; %" PRIu64 " pairs in %" PRIu64 " failed batches)",
                 side_name[s], job->spec[s], st->failure.what, st->failure.first,
                 st->failure.last, x, dy, st->failed_pairs, st->failed_batches);
        return GA_ENGINE_FAILED;
    }
    return GA_ENGINE_OK;
}

static void summarize(const struct ga_compare_job *job, struct ga_compare_done *done)
{
    done->sides.domain = done->domain;
    for (int s = 0; s < 2; s++) {
        struct ga_compare_backward_side *side = &done->backward[s];
        side->kernel.sweep.name = job->name[s] ? job->name[s] : side->kernel.sweep.name;
        ga_compare_side_backward(&done->sides.side[s], side->kernel.sweep.name, &side->stats);
        done->sides.sweeps[s] = &side->kernel.sweep;
        done->sides.stats[s] = &side->stats;
    }
}

int ga_run_compare_backward(const struct ga_compare_job *job, struct ga_compare_done *done,
                            char *why, size_t len)
{
    struct ga_backward_sweep rows[2];
    struct ga_backward_stats out[2];
    const struct ga_pairs *pairs;
    int status;

    for (int s = 0; s < 2; s++)
        if ((status = open_side(job, done, s, why, len)) != GA_ENGINE_OK)
            return status;
    if (!(pairs = common_pairs(job, done, why, len)))
        return GA_ENGINE_BAD_INPUT;
    snprintf(done->domain, sizeof done->domain, "%s", pairs->spec);
    if (ga_compare_tally_init(&done->tally, pairs->format, done->backward[0].kernel.sweep.reference,
                              pairs->size, true) != 0) {
        snprintf(why, len, "out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    for (int s = 0; s < 2; s++)
        rows[s] = done->backward[s].kernel.sweep;
    rows[0].observe = ga_compare_tally_observe;
    rows[0].observe_ctx = &done->tally;
    rows[0].threads = job->options.threads;
    if (ga_backward_sweep_rows(rows, 2, out, why, len) != 0) {
        for (int s = 0; s < 2; s++)
            if (done->backward[s].has_graded && ga_graded_error(&done->backward[s].graded)) {
                snprintf(why, len, "%s", ga_graded_error(&done->backward[s].graded));
                return GA_ENGINE_BAD_INPUT;
            }
        return GA_ENGINE_UNDECIDED;
    }
    for (int s = 0; s < 2; s++)
        done->backward[s].stats = out[s];
    summarize(job, done);
    if ((status = side_failed(job, done, why, len)) != GA_ENGINE_OK)
        return status;
    if (ga_compare_tally_finish(&done->tally) != 0) {
        snprintf(why, len, "the MPFR oracle could not decide a listed pair");
        return GA_ENGINE_UNDECIDED;
    }
    return GA_ENGINE_OK;
}

void ga_compare_backward_free(struct ga_compare_done *done)
{
    for (int s = 0; s < 2; s++) {
        ga_backward_kernel_close(&done->backward[s].kernel);
        if (done->backward[s].has_graded)
            ga_graded_close(&done->backward[s].graded);
        done->backward[s].has_graded = false;
    }
    if (done->has_pairs)
        ga_pairs_free(&done->pairs);
    done->has_pairs = false;
}
