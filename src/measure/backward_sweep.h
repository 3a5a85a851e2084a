/* The backward sweep: a backward kernel over a pair domain against the
 * backward truth (truth/backward.h), statistics in backward_stats.h. */
#ifndef GA_BACKWARD_SWEEP_H
#define GA_BACKWARD_SWEEP_H

#include <stddef.h>

#include "impls/backward.h"
#include "isolation/plugin.h"
#include "measure/backward_heat.h"
#include "grade/backward_stats.h"
#include "domain/pairs.h"
#include "measure/sweep.h"

/* Pairs per chunk: the unit of work, of sharing and of observing. */
#define GA_BACKWARD_CHUNK 65536

/* dx comes from one of: a catalogue model, a plugin's backward kernel
 * (ga_plugin_open_backward), or a source (graded outputs). */
struct ga_backward_sweep {
    const char *name;            /* in reports */
    const struct ga_backward_impl *impl;
    struct ga_plugin *plugin;
    struct ga_source dx;         /* used when impl and plugin are NULL */
    enum ga_function reference;  /* GA_GELU_GRAD or GA_GELU_TANH_GRAD */
    const struct ga_pairs *pairs;
    int threads;                 /* 0: OpenMP's default */
    struct ga_backward_heat *heat;  /* NULL, or a map of the pairs' errors to fill too */
    /* NULL, or ga_backward_grad_table(reference, format): shared by sweeps
     * of one format and reference, used whatever the domain's size.  A
     * caller sweeping one 16-bit domain in several runs of chunks
     * (checkpoints) passes it, or each run builds the table again. */
    const struct ga_grad_value *grad_table;
    /* NULL, or called (rows[0]'s, from any thread, chunks in any order)
     * with each chunk's pairs, truths and the first GA_SWEEP_OBSERVED
     * rows' outputs, when every row has its outputs; the rows observed
     * share rows[0]'s reference (gelu-acc compare --backward). */
    void (*observe)(void *ctx, const struct ga_sweep_chunk_view *v);
    void *observe_ctx;
};

/* d(x) of every encoding of a 16-bit format f (ga_grad_value, MPFR), in
 * encoding order; NULL when out of memory or some value is undecided.
 * free() it. */
struct ga_grad_value *ga_backward_grad_table(enum ga_function fn, const struct ga_format *f);

/* Returns 0, or -1 with a message in err (the truth undecided somewhere, a
 * file that failed to read).  A plugin's failed batches are counted in out
 * and their pairs left out of the statistics, the first one described. */
int ga_backward_sweep_run(const struct ga_backward_sweep *s, struct ga_backward_stats *out,
                          char *err, size_t errlen);

/* n_rows sweeps of one pair domain (rows[0].pairs and rows[0].threads
 * serve all) in one pass: each chunk's pairs are filled once and each
 * reference's truths computed once for every row that has it.  out[r] is
 * bit for bit what ga_backward_sweep_run(&rows[r], &out[r]) gives. */
int ga_backward_sweep_rows(const struct ga_backward_sweep *rows, size_t n_rows,
                           struct ga_backward_stats *out, char *err, size_t errlen);

/* The chunks of a domain of that many pairs: the sweep's units of work, of
 * sharing (shard.h) and of merging. */
uint64_t ga_backward_sweep_chunks(uint64_t pairs);

/* ga_backward_sweep_rows over chunks [first, end) of the domain only: out[r]
 * holds those chunks merged in order, each row's heat map only their pairs;
 * unless sums is NULL, sums[k * n_rows + r] receives the sums of chunk
 * first + k alone for row r (backward_stats.h), so that shards of a sweep
 * merge into its bits (backward_partial.h). */
int ga_backward_sweep_share(const struct ga_backward_sweep *rows, size_t n_rows, uint64_t first,
                            uint64_t end, struct ga_backward_stats *out,
                            struct ga_backward_sums *sums, char *err, size_t errlen);

#endif
