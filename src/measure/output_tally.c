/* Outputs compared during a sweep (output_tally.h). */
#include "measure/output_tally.h"

void ga_output_tally_observe(void *ctx, const struct ga_sweep_chunk_view *v)
{
    struct ga_output_tally *t = ctx;
    uint64_t differ = 0;

    for (size_t i = 0; i < v->n; i++)
        differ += v->y[0][i] != v->y[1][i]
                  && !(ga_is_nan(t->format, v->y[0][i]) && ga_is_nan(t->format, v->y[1][i]));
#pragma omp atomic
    t->inputs += v->n;
#pragma omp atomic
    t->differ += differ;
}
