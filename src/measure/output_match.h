/* Two kernels run on the same inputs and their outputs compared encoding by
 * encoding, any NaN matching any NaN, with no truth computed: how a report
 * checks that a model computes what a library computes
 * (engine/report_proofs.h).  The counts and the first difference (the
 * lowest index of the domain) are the same whatever the thread count. */
#ifndef GA_OUTPUT_MATCH_H
#define GA_OUTPUT_MATCH_H

#include <stdint.h>

#include "domain/domain.h"
#include "formats/format.h"
#include "impls/impl.h"

struct ga_output_match {
    uint64_t inputs, differ;   /* compared, and differing */
    ga_bits x, a, b;           /* differ > 0: the first such input, a's and b's outputs */
};

/* Run a and b on every input of d with `threads` threads (0: OpenMP's
 * default) into *m.  0; -1 when a kernel failed or memory ran out, with
 * what happened in why. */
int ga_output_match(const struct ga_format *f, const struct ga_domain *d,
                    const struct ga_impl *a, const struct ga_impl *b, int threads,
                    struct ga_output_match *m, char *why, size_t why_size);

#endif
