/* gelu-acc truth as one library call: the truth of each input of an array,
 * of a function in a format by a chosen oracle, or of GELU fused with a cast
 * into a float8 format, computed by every thread. */
#ifndef GA_RUN_TRUTH_H
#define GA_RUN_TRUTH_H

#include <stddef.h>

#include "formats/format.h"
#include "truth/truth.h"

struct ga_truth_job {
    const struct ga_format *format;        /* the results' format */
    const struct ga_format *input_format;  /* NULL: FORMAT; else a cast into FORMAT */
    enum ga_function function;             /* without a cast */
    enum ga_oracle oracle;                 /* without a cast (a cast is MPFR's) */
    enum ga_overflow overflow;             /* with a cast: how FORMAT overflows */
};

/* truths[i] = the truth of inputs[i], i < n.  0, or -1 when the oracle could
 * not decide an input: *undecided is then the first such index. */
int ga_run_truth(const struct ga_truth_job *job, const ga_bits *inputs, size_t n,
                 struct ga_truth *truths, size_t *undecided);

#endif
