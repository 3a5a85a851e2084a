/* Two kernels' outputs compared input by input during a sweep: an
 * observer (ga_sweep_options.observe, ga_backward_sweep.observe) that
 * counts the inputs where the first two measurements' outputs differ in
 * bits, any NaN matching any NaN (the suite's rule for encodings).  Sums
 * over chunks: the same whatever their order and thread. */
#ifndef GA_OUTPUT_TALLY_H
#define GA_OUTPUT_TALLY_H

#include <stdint.h>

#include "formats/format.h"
#include "measure/sweep.h"

struct ga_output_tally {
    const struct ga_format *format;
    uint64_t inputs, differ;   /* compared, and differing */
};

/* ctx: a struct ga_output_tally, format set, counts zero to begin with. */
void ga_output_tally_observe(void *ctx, const struct ga_sweep_chunk_view *v);

#endif
