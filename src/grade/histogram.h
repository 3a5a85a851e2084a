/* Bin layouts of the two histograms a sweep keeps: ulp errors on a fixed
 * log-linear grid (for percentiles), and ordinal distances in powers of two.
 * Bins are found from the bits of the value: no log per input. */
#ifndef GA_HISTOGRAM_H
#define GA_HISTOGRAM_H

#include <stdint.h>
#include <string.h>

/* ulp-error bins, each [lower, upper):
 *   0                  error exactly 0
 *   1                  (0, 2^-64)
 *   2 .. 49            one per octave [2^k, 2^(k+1)), k = -64 .. -17
 *   50 .. 12337        256 per octave on [2^-16, 2^32): width 2^(k-8), so the
 *                      upper edge is within 2^-8 (0.4 %) of any value in the bin
 *   12338 .. 13329     one per octave, k = 32 .. 1023
 *   13330              +inf
 * A percentile is reported as the upper edge of its bin (0 for the zero bin,
 * +inf for the last): never below the true value, above it by at most 0.4 %
 * on [2^-16, 2^32) ulp and by at most a factor 2 outside. */
#define GA_ULP_FINE_SUBBITS 8
#define GA_ULP_FINE_MIN_EXP (-16)
#define GA_ULP_FINE_MAX_EXP 32
#define GA_ULP_COARSE_MIN_EXP (-64)
#define GA_ULP_BIN_TINY 1
#define GA_ULP_BIN_LOW 2
#define GA_ULP_BIN_FINE (GA_ULP_BIN_LOW + (GA_ULP_FINE_MIN_EXP - GA_ULP_COARSE_MIN_EXP))
#define GA_ULP_BIN_HIGH \
    (GA_ULP_BIN_FINE + ((GA_ULP_FINE_MAX_EXP - GA_ULP_FINE_MIN_EXP) << GA_ULP_FINE_SUBBITS))
#define GA_ULP_BIN_INF (GA_ULP_BIN_HIGH + (1024 - GA_ULP_FINE_MAX_EXP))
#define GA_ULP_BINS (GA_ULP_BIN_INF + 1)

/* The bin of a ulp error e >= 0 (not NaN). */
static inline unsigned ga_ulp_bin(double e)
{
    uint64_t b;
    memcpy(&b, &e, sizeof b);
    /* the biased exponent and the first GA_ULP_FINE_SUBBITS bits of the
     * significand, counted from the first fine bin: one subtraction */
    uint64_t fine = (b >> (52 - GA_ULP_FINE_SUBBITS))
                  - ((uint64_t)(1023 + GA_ULP_FINE_MIN_EXP) << GA_ULP_FINE_SUBBITS);
    if (fine < (uint64_t)(GA_ULP_FINE_MAX_EXP - GA_ULP_FINE_MIN_EXP) << GA_ULP_FINE_SUBBITS)
        return GA_ULP_BIN_FINE + (unsigned)fine;
    int k = (int)(b >> 52) - 1023;  /* binary exponent; -1023 for 0 and subnormals */
    if (b == 0)
        return 0;
    if (k < GA_ULP_COARSE_MIN_EXP)
        return GA_ULP_BIN_TINY;
    if (k < GA_ULP_FINE_MIN_EXP)
        return GA_ULP_BIN_LOW + (unsigned)(k - GA_ULP_COARSE_MIN_EXP);
    if (k <= 1023)
        return GA_ULP_BIN_HIGH + (unsigned)(k - GA_ULP_FINE_MAX_EXP);
    return GA_ULP_BIN_INF;
}

/* Edges of a bin; upper of the last is +inf, of the zero bin 0. */
double ga_ulp_bin_lower(unsigned bin);
double ga_ulp_bin_upper(unsigned bin);

/* Ordinal-distance buckets: 0, 1, 2, 3-4, 5-8, ..., 2^19+1 - 2^20, > 2^20,
 * then outputs that are not numbers at the right place. */
enum {
    GA_DIST_ABOVE = 22,    /* distance > 2^20 */
    GA_DIST_INF = 23,      /* +-inf where the correctly rounded result is finite */
    GA_DIST_NAN = 24,      /* NaN where the truth is not NaN */
    GA_DIST_NOT_NAN = 25,  /* not NaN where the truth is NaN */
    GA_DIST_BUCKETS = 26
};

/* Bucket b >= 2 holds (2^(b-2), 2^(b-1)]. */
static inline unsigned ga_distance_bucket(uint64_t d)
{
    if (d <= 1)
        return (unsigned)d;
    unsigned b = 65u - (unsigned)__builtin_clzll(d - 1);
    return b < GA_DIST_ABOVE ? b : GA_DIST_ABOVE;
}

/* The numeric range [lo, hi] of buckets 0 .. GA_DIST_ABOVE (hi = UINT64_MAX
 * for the last). */
void ga_distance_bucket_range(unsigned bucket, uint64_t *lo, uint64_t *hi);
/* "0", "1", "2", "3-4", ..., ">1048576", "inf", "nan", "not_nan". */
const char *ga_distance_bucket_label(unsigned bucket);

#endif
