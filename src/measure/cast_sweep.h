/* Measuring GELU fused with a cast (impls/cast.h): inputs of a wide format,
 * outputs in a float8 format, against the truth of the cast
 * (ga_truth_cast) under each overflow convention the format allows.  Where
 * an input's GELU lies beyond the overflow threshold, the conventions give
 * different truths and the models different outputs, so the tallies tell a
 * saturating conversion from one that overflows to NaN. */
#ifndef GA_CAST_SWEEP_H
#define GA_CAST_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/format.h"
#include "impls/cast.h"
#include "domain/domain.h"

/* The output formats of a cast: those with a NaN (the two float8 formats),
 * so that every convention applies.  (The MX FP6 and FP4 types are cast
 * after a per-block scale, not on their own.) */
bool ga_cast_output_allowed(const struct ga_format *out);

/* One model against the truth under one convention. */
struct ga_cast_tally {
    const struct ga_cast_model *model;
    enum ga_overflow truth;
    uint64_t count, correct, faithful;
    uint64_t nan, inf, saturated;   /* outputs NaN, infinite, +-largest finite */
    bool has_max;
    double max_ulp;                 /* over the inputs not beyond, outputs and truths not NaN */
    ga_bits max_ulp_input;
};

/* The whole measurement: every supported model under every convention. */
#define GA_CAST_MAX_TALLIES 9
struct ga_cast_result {
    const struct ga_format *in, *out;
    char domain_spec[GA_DOMAIN_SPEC_LEN];  /* the domain as given ("all", "stride:65536") */
    uint64_t inputs;
    uint64_t beyond;                /* inputs whose GELU rounds past the largest finite */
    size_t n;
    struct ga_cast_tally tally[GA_CAST_MAX_TALLIES];
};

enum ga_cast_status {
    GA_CAST_OK = 0,
    GA_CAST_BAD_FORMAT = -1,        /* out is not a float8 format */
    GA_CAST_UNDECIDED = -2,         /* the oracle hit its cap: *undecided holds the input */
    GA_CAST_READ_FAILED = -3,       /* the domain's source failed */
};

/* Measure every input of d (a domain of format in) in order, one thread:
 * the MPFR oracle takes a few microseconds per input (d->spec names the
 * domain). */
int ga_cast_sweep(const struct ga_domain *d, const struct ga_format *out,
                  struct ga_cast_result *r, ga_bits *undecided);

#endif
