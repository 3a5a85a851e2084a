/* What a report measures for one format: every catalogue implementation
 * against exact GELU, and the tanh-form ones against their own formula too. */
#ifndef GA_REPORT_PLAN_H
#define GA_REPORT_PLAN_H

#include <stddef.h>

#include "formats/format.h"
#include "sweep/sweep.h"

/* The most measurements ga_report_plan writes for any format. */
size_t ga_report_plan_max(void);

/* Fill m[0..n) (m holds ga_report_plan_max() entries) and return n. */
size_t ga_report_plan(const struct ga_format *f, struct ga_measurement *m);

#endif
