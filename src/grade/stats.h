/* Error statistics of one (implementation, format, reference): an accumulator
 * that a sweep feeds input by input, one per thread, merged at the end.
 *
 * Deterministic: add and merge are exactly commutative and associative
 * (integer counters, exact integer sums, maxima with a total-order tie-break),
 * so the figures are bit-identical whatever the input order and thread count.
 * Small: about 375 KB, no per-input storage.  Per region (region.h) there is
 * one sub-accumulator; "all" is their union, formed when summarizing.
 *
 * Metric definitions (error measures themselves in error.h):
 * - count: inputs; correctly_rounded, faithful: inputs whose output is so.
 * - measured: inputs whose ulp error is defined (neither output nor truth NaN);
 *   finite: those with a finite ulp error.
 * - max_ulp / max_rel / max_abs: the largest ulp / relative / absolute error
 *   over the measured inputs (+inf possible), with the input x, output y and
 *   exact value where it occurs; ties go to the smaller encoding of x (then
 *   of y; the truth is taken to be a function of x, as in any sweep).
 * - mean_ulp: mean ulp error over the finite ones.  Each error is truncated
 *   to 32 significant bits (relative change < 2^-32) and errors below
 *   2^-64 ulp count as 0; the sum of the truncated errors is exact.
 * - p50, p95, p99: nearest-rank percentiles of the ulp error over the
 *   measured inputs (the ceil(q N)-th smallest), reported as the upper edge of
 *   its histogram bin: at most 0.4 % above the true value on [2^-16, 2^32)
 *   ulp, at most a factor 2 above outside it (histogram.h); +inf when it
 *   falls on an infinite error.
 * - distance[]: inputs per bucket of ordinal distance from the correctly
 *   rounded result (histogram.h: 0, 1, 2, 3-4, ..., > 2^20, then inf, nan,
 *   not_nan outputs).  Bucket 0 includes zeros of the wrong sign.
 * - flushed_to_zero: output +-0 where the correctly rounded result is not
 *   zero (so a truth that underflows to zero is not counted).
 * - nan: NaN output where the truth is not NaN; inf: +-inf output where the
 *   correctly rounded result is finite; not_nan: a number where the truth is
 *   NaN; wrong_zero_sign: output and correctly rounded result are zeros of
 *   opposite signs.
 * - faithful_interval: the widest interval around 0 on which every output is
 *   faithful: every swept input x with lo < x < hi is faithful, where lo is
 *   the largest negative input (-inf included) and hi the smallest positive
 *   input whose output is not faithful; no lo / no hi: that whole side is
 *   faithful.  It does not exist when an input +-0 is not faithful.
 * - first_fault[]: for each of flushed_to_zero, nan, inf, wrong_zero_sign
 *   and not_nan, the first input where it happens, in increasing order of
 *   value (-0 before +0; NaN inputs after every number), with its output and
 *   exact value: the input a report or a failed check names for that count.
 * - extent: the least and the greatest input measured that is not NaN; a
 *   side of the faithful interval with no unfaithful input reaches there.
 * - zero_below: the least finite input whose output is not +-0 (a NaN output
 *   is not +-0): every finite input below it gives +-0.  With nothing
 *   flushed it is the least finite input swept (-max in an exhaustive
 *   sweep); absent when every finite input gives +-0.  Fed the correctly
 *   rounded results as outputs, it is where the truth itself underflows. */
#ifndef GA_STATS_H
#define GA_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "grade/error.h"
#include "grade/histogram.h"
#include "grade/region.h"
#include "truth/truth.h"

/* Per-region state; read it through ga_stats_summarize. */
struct ga_stats_point {
    double error;             /* -1 until an input is measured */
    struct ga_exact exact;
    ga_bits x, y;
};

/* The faults counted per input (first_fault above). */
enum ga_fault {
    GA_FAULT_FLUSHED,     /* flushed_to_zero */
    GA_FAULT_NAN,         /* nan */
    GA_FAULT_INF,         /* inf */
    GA_FAULT_ZERO_SIGN,   /* wrong_zero_sign */
    GA_FAULT_NOT_NAN,     /* not_nan */
    GA_FAULT_COUNT
};

/* The name of a fault count in reports and baselines ("flushed_to_zero"). */
const char *ga_fault_name(enum ga_fault fault);

/* The first input of a fault: key orders inputs by value (INT64_MAX: none). */
struct ga_fault_point {
    int64_t key;
    ga_bits x, y;
    struct ga_exact exact;
};

/* Mean sum buckets by binary exponent of the error, 2^-64 .. 2^1023. */
#define GA_ULP_SUM_MIN_EXP (-64)
#define GA_ULP_SUM_BUCKETS (1024 - GA_ULP_SUM_MIN_EXP)

/* Everything of a region but its two arrays.  The common case, a correctly
 * rounded output, is counted once in `correct`; the other counters count
 * the other inputs.  A region's input count is correct plus the sum of
 * distance[]; its measured inputs are the sum of ulp_bins[]. */
struct ga_tally {
    /* read or written for every input: together at the start */
    uint64_t correct;
    int64_t nonzero_min;         /* least key of a finite input with an output not +-0; INT64_MAX: none */
    struct ga_stats_point max_ulp, max_rel, max_abs;
    /* the other inputs */
    uint64_t faithful;           /* faithful but not correctly rounded */
    uint64_t flushed, nan, inf, wrong_zero_sign, not_nan;
    uint64_t unfaithful_zeros;   /* inputs +-0 whose output is not faithful */
    uint64_t distance[GA_DIST_BUCKETS];
    ga_bits unfaithful_neg;      /* least magnitude of a negative unfaithful input; UINT64_MAX: none */
    ga_bits unfaithful_pos;
    struct ga_fault_point first_fault[GA_FAULT_COUNT];
};

struct ga_region_stats {
    struct ga_tally tally;
    /* sum of (32-bit significand) * 2^(exponent - 31) of the finite errors,
     * by exponent: each bucket stays below count * 2^32 < 2^64 */
    uint64_t ulp_sum[GA_ULP_SUM_BUCKETS];
    uint32_t ulp_bins[GA_ULP_BINS];  /* a region holds fewer than 2^32 inputs */
};

struct ga_stats {
    const struct ga_format *format;
    struct ga_format_layout err;
    struct ga_region_bounds bounds;
    int64_t extent_min, extent_max;  /* keys of the extent; INT64_MAX, INT64_MIN: none */
    struct ga_region_stats region[GA_REGION_COUNT];
};

/* Status codes. */
enum ga_stats_status {
    GA_STATS_OK = 0,
    GA_STATS_FULL = -1,      /* a region would reach 2^32 inputs */
    GA_STATS_MISMATCH = -2,  /* merging accumulators of different formats */
    GA_STATS_BAD_REGION = -3,
};

/* Empty accumulator for format f.  The struct is large: allocate it (or use
 * ga_stats_new). */
void ga_stats_init(struct ga_stats *s, const struct ga_format *f);
/* malloc + init; NULL when out of memory.  Free with ga_stats_free. */
struct ga_stats *ga_stats_new(const struct ga_format *f);
void ga_stats_free(struct ga_stats *s);

/* Account output y of input x, whose truth is t.  No overflow check: a
 * region must stay below 2^32 inputs (an exhaustive float32 sweep does). */
void ga_stats_add(struct ga_stats *s, ga_bits x, ga_bits y, const struct ga_truth *t);
/* n inputs at once.  Returns GA_STATS_FULL, adding nothing, when a region
 * could reach 2^32 inputs. */
int ga_stats_add_batch(struct ga_stats *s, const ga_bits *x, const ga_bits *y,
                       const struct ga_truth *t, size_t n);
/* Widen the extent by inputs (ga_stats_add and ga_stats_add_batch do). */
void ga_stats_widen_extent(struct ga_stats *s, const ga_bits *x, size_t n);

/* The extent of a batch of inputs, as the keys of stats.h (lo > hi: every
 * input NaN).  It depends on the inputs alone, so a sweep that measures
 * several implementations on one batch finds it once and hands it to each
 * accumulator (any accumulator of the format can find it). */
struct ga_stats_extent {
    int64_t lo, hi;
};
void ga_stats_batch_extent(const struct ga_stats *s, const ga_bits *x, size_t n,
                           struct ga_stats_extent *e);
/* ga_stats_add_batch with the batch's extent found already (by
 * ga_stats_batch_extent on the same x): the same accumulator afterwards.
 * When ulp is not NULL, ulp[i] receives input i's ulp error, bit for bit
 * ga_error_ulp's (a plot profile then need not compute it again); it is
 * left unspecified when GA_STATS_FULL is returned. */
int ga_stats_add_batch_in(struct ga_stats *s, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n, const struct ga_stats_extent *e,
                          double *ulp);
/* into += from.  GA_STATS_MISMATCH or GA_STATS_FULL leave `into` unchanged. */
int ga_stats_merge(struct ga_stats *into, const struct ga_stats *from);

/* Where a maximum is reached. */
struct ga_point {
    bool has;                /* false when no input was measured */
    double error;
    ga_bits x, y;
    struct ga_exact exact;
};

struct ga_faithful_interval {
    bool exists;             /* false when an input +-0 is not faithful */
    bool has_lo, has_hi;     /* false: that side is faithful all the way */
    ga_bits lo, hi;          /* faithful on the open interval (lo, hi) */
    /* the measured extent (stats.h): a side that is faithful all the way is
     * faithful up to there, included */
    bool has_extent;
    ga_bits extent_lo, extent_hi;
};

/* Final figures of one region (or GA_REGION_ALL), for report writers. */
struct ga_summary {
    enum ga_region region;
    uint64_t count, correctly_rounded, faithful, measured, finite;
    struct ga_point max_ulp, max_rel, max_abs;
    double mean_ulp;         /* NaN when finite = 0 */
    double p50, p95, p99;    /* NaN when measured = 0 */
    uint64_t flushed_to_zero, nan, inf, wrong_zero_sign, not_nan;
    struct ga_point first_fault[GA_FAULT_COUNT];  /* error unused (NaN) */
    uint64_t distance[GA_DIST_BUCKETS];
    struct ga_faithful_interval faithful_interval;
    bool has_zero_below;
    ga_bits zero_below;
};

/* Returns GA_STATS_OK or GA_STATS_BAD_REGION. */
int ga_stats_summarize(const struct ga_stats *s, enum ga_region r, struct ga_summary *out);

/* Inputs of region r (or all) whose ulp error falls in histogram bin `bin`. */
uint64_t ga_stats_ulp_bin_count(const struct ga_stats *s, enum ga_region r, unsigned bin);

/* A truth source for refinement, e.g. a wrapper of ga_truth_mpfr. */
typedef int (*ga_stats_truth_fn)(void *ctx, ga_bits x, struct ga_truth *out);

/* Recompute max_ulp, max_rel and max_abs of a summary, and the exact values
 * of its first faults, from a better truth of their inputs (the fast
 * oracle's exact values are good to ~2^-40, MPFR's to 2^-50).  Only the recorded points are refined: a near-tie with another
 * input stays as the sweep decided it.  Returns 0, or the first nonzero
 * status of `truth` (the summary is then partly refined). */
int ga_summary_refine(struct ga_summary *s, const struct ga_format *f, ga_stats_truth_fn truth,
                      void *ctx);

/* ga_stats_summarize with the worst points' exact values (and the first
 * faults') recomputed by the MPFR oracle of `reference`, so that reported
 * maxima do not depend on the oracle that fed the statistics: what sweep,
 * grade and the library report.  Returns a ga_stats_status, or the MPFR
 * oracle's status when it fails. */
int ga_stats_summary(const struct ga_stats *s, enum ga_function reference, enum ga_region r,
                     struct ga_summary *out);

#endif
