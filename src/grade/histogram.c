/* Edges and labels of the histogram bins laid out in histogram.h. */
#include "grade/histogram.h"

#include <math.h>

double ga_ulp_bin_lower(unsigned bin)
{
    if (bin == 0)
        return 0.0;
    if (bin == GA_ULP_BIN_TINY)
        return 0.0;  /* open: (0, 2^-64) */
    if (bin < GA_ULP_BIN_FINE)
        return ldexp(1.0, GA_ULP_COARSE_MIN_EXP + (int)(bin - GA_ULP_BIN_LOW));
    if (bin < GA_ULP_BIN_HIGH) {
        unsigned i = bin - GA_ULP_BIN_FINE;
        int k = GA_ULP_FINE_MIN_EXP + (int)(i >> GA_ULP_FINE_SUBBITS);
        unsigned j = i & ((1u << GA_ULP_FINE_SUBBITS) - 1);
        return ldexp(1.0 + ldexp((double)j, -GA_ULP_FINE_SUBBITS), k);
    }
    if (bin < GA_ULP_BIN_INF)
        return ldexp(1.0, GA_ULP_FINE_MAX_EXP + (int)(bin - GA_ULP_BIN_HIGH));
    return INFINITY;
}

double ga_ulp_bin_upper(unsigned bin)
{
    if (bin == 0)
        return 0.0;
    if (bin == GA_ULP_BIN_TINY)
        return ldexp(1.0, GA_ULP_COARSE_MIN_EXP);
    if (bin >= GA_ULP_BIN_INF)
        return INFINITY;
    return ga_ulp_bin_lower(bin + 1);  /* 2^1024 for the last octave: +inf */
}

void ga_distance_bucket_range(unsigned bucket, uint64_t *lo, uint64_t *hi)
{
    if (bucket <= 1) {
        *lo = *hi = bucket;
    } else if (bucket < GA_DIST_ABOVE) {
        *lo = ((uint64_t)1 << (bucket - 2)) + 1;
        *hi = (uint64_t)1 << (bucket - 1);
    } else {
        *lo = ((uint64_t)1 << (GA_DIST_ABOVE - 2)) + 1;
        *hi = UINT64_MAX;
    }
}

static const char *const labels[GA_DIST_BUCKETS] = {
    "0", "1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65-128", "129-256",
    "257-512", "513-1024", "1025-2048", "2049-4096", "4097-8192", "8193-16384",
    "16385-32768", "32769-65536", "65537-131072", "131073-262144", "262145-524288",
    "524289-1048576", ">1048576", "inf", "nan", "not_nan",
};

const char *ga_distance_bucket_label(unsigned bucket)
{
    return bucket < GA_DIST_BUCKETS ? labels[bucket] : NULL;
}
