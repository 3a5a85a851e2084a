/* A backward sweep's results as text or JSON (doc/gradients.md). */
#ifndef GA_BACKWARD_PRINT_H
#define GA_BACKWARD_PRINT_H

#include <stdio.h>

#include "measure/backward_sweep.h"
#include "report/result.h"

/* Returns 0, or -1 when writing failed.  JSON: with m (a real library's
 * kernel; NULL otherwise), the keys of a report's real rows too (cpu, isa,
 * library, version, call, path; lengths where m has them). */
int ga_backward_print_text(FILE *out, const struct ga_backward_sweep *s,
                           const struct ga_backward_stats *st);
int ga_backward_print_json(FILE *out, const struct ga_backward_sweep *s,
                           const struct ga_backward_stats *st,
                           const struct ga_result_machine *m);

#endif
