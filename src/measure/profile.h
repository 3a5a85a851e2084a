/* Error profiles: ulp error along the input axis, for plots.  For 16-bit
 * formats every input keeps its own error; for every format, bins of width
 * 1/64 over [-16, 16] keep the maximum and the mean.  Merging is exact
 * (maxima, integer sums), so profiles do not depend on the thread count. */
#ifndef GA_PROFILE_H
#define GA_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "grade/error.h"
#include "truth/truth.h"

#define GA_PROFILE_RANGE 16.0
#define GA_PROFILE_BINS 2048

struct ga_profile {
    const struct ga_format *format;
    struct ga_format_layout layout;  /* for the inline error path */
    /* magnitudes below it have values below 1/64: bin 1024, or 1023 when
     * negative (most of a float32 sweep's binned inputs) */
    ga_bits near_zero_end;
    /* 16-bit formats: ulp error of each encoding's output (NaN for a NaN
     * output, +inf for an infinite one), -1 for an input not visited. */
    double *point;
    double bin_max[GA_PROFILE_BINS];        /* -1: empty bin */
    uint64_t bin_count[GA_PROFILE_BINS];
    unsigned __int128 bin_sum[GA_PROFILE_BINS];  /* errors in units of 2^-32 ulp */
};

struct ga_profile *ga_profile_new(const struct ga_format *f);
void ga_profile_free(struct ga_profile *p);
/* Inputs x[0..n) whose ulp errors (ga_error_ulp's, as the statistics give
 * them: ga_stats_add_batch_in) are ulp[0..n). */
void ga_profile_add_errors(struct ga_profile *p, const ga_bits *x, const double *ulp, size_t n);
/* Inputs x[0..n) with outputs y and truths t: their ulp errors computed
 * here. */
void ga_profile_add_batch(struct ga_profile *p, const ga_bits *x, const ga_bits *y,
                          const struct ga_truth *t, size_t n);
void ga_profile_merge(struct ga_profile *into, const struct ga_profile *from);

/* The bin of input value x, or -1 outside [-16, 16) (NaN included).  x * 64
 * is exact and so is its floor, taken without a call (truncation, one down
 * for a negative fraction): every input lands in the bin that holds it
 * (adding 16 first would round: -2^-50 landed in [0, 1/64)). */
static inline int ga_profile_bin(double x)
{
    double scaled = x * (GA_PROFILE_BINS / (2 * GA_PROFILE_RANGE));
    int below;

    if (!(x >= -GA_PROFILE_RANGE && x < GA_PROFILE_RANGE))
        return -1;
    below = (int)scaled;
    below -= scaled < below;
    return below + GA_PROFILE_BINS / 2;
}
/* The bin of encoding x of p's format, or -1 for an input outside
 * [-16, 16), infinities and NaNs included: ga_profile_bin of its value, the
 * inputs near 0 told by one integer compare. */
static inline int ga_profile_bin_of(const struct ga_profile *p, ga_bits x)
{
    const ga_bits mag = x & ~p->layout.sign_mask;

    if (mag < p->near_zero_end)  /* -0 has value 0: bin 1024 */
        return GA_PROFILE_BINS / 2 - ((x & p->layout.sign_mask) != 0 && mag != 0);
    if (mag >= p->layout.inf_magnitude)
        return -1;
    return ga_profile_bin(ga_error_value(&p->layout, x));
}

/* The centre of bin b. */
double ga_profile_bin_center(int b);
/* Mean ulp error of bin b; NaN when empty. */
double ga_profile_bin_mean(const struct ga_profile *p, int b);

#endif
