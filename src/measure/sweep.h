/* The sweep engine: one pass over a domain that measures several
 * implementations against several references at once.  Each chunk of inputs
 * gets its truths computed once per reference; every implementation runs on
 * it, and its outputs feed a per-thread statistics accumulator.  Accumulators
 * merge exactly (stats.h), so results do not depend on the thread count. */
#ifndef GA_SWEEP_H
#define GA_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "impls/impl.h"
#include "domain/domain.h"
#include "measure/profile.h"
#include "measure/shape.h"
#include "grade/stats.h"
#include "truth/truth.h"

/* Inputs per chunk: the unit of work of a thread, and of a kernel batch. */
#define GA_SWEEP_CHUNK 4096

/* Spans of failing inputs kept per measurement: the first ones in domain
 * order. */
#define GA_FAILURES_KEPT 256

/* A span of failing inputs in a batch the kernel failed (a plugin that
 * crashed, hung, touched a guard page or broke the contract): [first,
 * last] as domain indices, and what happened. */
struct ga_failure_record {
    uint64_t start;                     /* the batch's first domain index */
    uint64_t first, last;
    char what[160];
};
/* The chunks that cover size inputs, for any size up to 2^64 - 1 (rounding
 * size up to a whole chunk first would wrap to 0 above 2^64 - 4096). */
static inline uint64_t ga_sweep_chunk_count(uint64_t size)
{
    return size / GA_SWEEP_CHUNK + (size % GA_SWEEP_CHUNK != 0);
}
/* The inputs of chunks [first, end) of a domain of size inputs (the last
 * chunk may be short). */
static inline uint64_t ga_sweep_chunk_inputs(uint64_t size, uint64_t first, uint64_t end)
{
    uint64_t chunks = ga_sweep_chunk_count(size);
    uint64_t last = chunks ? size - (chunks - 1) * GA_SWEEP_CHUNK : 0;

    end = end < chunks ? end : chunks;
    if (first >= end)
        return 0;
    return (end - first - 1) * GA_SWEEP_CHUNK + (end == chunks ? last : GA_SWEEP_CHUNK);
}

/* One (implementation, reference) pair to measure.  Outputs come from
 * impl->run, or, when impl is NULL, from `outputs` (element i answers input
 * i of the domain: graded outputs computed elsewhere). */
struct ga_measurement {
    const struct ga_impl *impl;
    struct ga_source outputs;
    enum ga_function reference;
    bool want_profile;                  /* also fill profile, for plots */
    bool want_shape;                    /* also fill shape (measure/shape.h): the odd
                                           identity runs impl on -x too */
    /* results */
    struct ga_stats *stats;
    struct ga_profile *profile;
    struct ga_shape *shape;             /* NULL unless want_shape */
    bool failed;
    uint64_t failed_inputs;             /* inputs in batches the kernel failed */
    uint64_t failed_batches;
    uint64_t skipped_inputs;            /* not measured: after the max_failures-th failed batch */
    uint64_t failure_spans;             /* spans reported by the failed batches */
    size_t failure_count;               /* the first of them, kept below in domain order */
    struct ga_failure_record failures[GA_FAILURES_KEPT];
};

/* One chunk as an observer sees it (ga_sweep_options.observe, and
 * ga_backward_sweep.observe): the inputs [start, start + n) of the domain,
 * the truth of the first measurement's reference, and the outputs of the
 * first `count` measurements.  A backward sweep's inputs are pairs: x and
 * dy, its outputs dx and its truth RN(dy d(x)); dy is NULL forward. */
#define GA_SWEEP_OBSERVED 2
struct ga_sweep_chunk_view {
    uint64_t start;
    size_t n, count;
    const ga_bits *x, *dy;
    const struct ga_truth *truth;
    const ga_bits *y[GA_SWEEP_OBSERVED];
};

struct ga_sweep_options {
    enum ga_oracle oracle;
    int threads;                        /* 0: OpenMP's default */
    /* called from one thread, about twice a second; may be NULL */
    void (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* Stop measuring a kernel at its max_failures-th failed batch in domain
     * order (the batches after it are skipped, whatever the thread count);
     * 0: never. */
    uint64_t max_failures;
    /* Only chunks [first_chunk, end_chunk) of the domain (a shard, a slice
     * between checkpoints); end_chunk 0: to the last chunk. */
    uint64_t first_chunk, end_chunk;
    /* Called with every chunk that every measurement ran on without failing
     * (and, with max_failures, still counts), from any thread, in any order
     * (NULL: none). */
    void (*observe)(void *ctx, const struct ga_sweep_chunk_view *v);
    void *observe_ctx;
};

enum ga_sweep_status {
    GA_SWEEP_OK = 0,
    GA_SWEEP_NO_MEMORY = -1,
    GA_SWEEP_UNDECIDED = -2,            /* the oracle hit its precision cap */
    GA_SWEEP_BAD_FORMAT = -3,           /* an implementation lacks the format */
    GA_SWEEP_ORACLES_DISAGREE = -4,     /* MPFR and fast oracles differ: a bug to report */
    GA_SWEEP_READ_FAILED = -5,          /* a source of inputs or outputs: see its error() */
    GA_SWEEP_TOO_LARGE = -6,            /* more than GA_SWEEP_MAX_INPUTS inputs, or
                                           2^32 in one region (graded repeats) */
};

/* The most inputs one sweep measures: every float32 encoding.  The
 * statistics count each region in 32 bits (stats.h), so a larger domain is
 * refused rather than miscounted. */
#define GA_SWEEP_MAX_INPUTS ((uint64_t)1 << 32)

/* Fill the stats of every measurement (allocated here; free with
 * ga_measurement_clear) from the chunks o names; GA_SWEEP_TOO_LARGE, measuring
 * nothing, for a domain above GA_SWEEP_MAX_INPUTS.  On GA_SWEEP_UNDECIDED or GA_SWEEP_ORACLES_DISAGREE,
 * *undecided_input is the input concerned. */
int ga_sweep_run(const struct ga_format *f, const struct ga_domain *d,
                 struct ga_measurement *m, size_t count, const struct ga_sweep_options *o,
                 ga_bits *undecided_input);

void ga_measurement_clear(struct ga_measurement *m);

/* Counts one span of a failed batch and keeps it if it is among the first
 * GA_FAILURES_KEPT in domain order (measurement.c).  Not thread-safe: the
 * sweep calls it in a critical section. */
void ga_measurement_keep_span(struct ga_measurement *m, uint64_t start, uint64_t first,
                              uint64_t last, const char *what);

/* into += from: statistics, failure counts and the first failing spans in
 * domain order, exactly as one sweep over both their chunks would have them
 * (from's chunks are disjoint from into's).  GA_SWEEP_TOO_LARGE when a
 * region would reach 2^32 inputs; GA_SWEEP_BAD_FORMAT when the formats
 * differ; `into` is then unchanged. */
int ga_measurement_merge(struct ga_measurement *into, const struct ga_measurement *from);

/* The summary of a region, with its worst points' exact values recomputed by
 * the MPFR oracle, so that reported maxima do not depend on the oracle used. */
int ga_measurement_summary(const struct ga_measurement *m, enum ga_region r,
                           struct ga_summary *out);

#endif
