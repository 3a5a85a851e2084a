/* The tensor lengths of a page's real kernels (real/call_length.h).
 *
 * Each real kernel measured on long tensors whose module has lengths also
 * runs at one element per call and at the remainder length, over the
 * format's default domain (every 16-bit encoding; for float32 every 4096th),
 * or the real rows' domain where it is smaller, beside the long-tensor
 * kernel in the same sweep, and the two outputs are
 * compared input by input, bit for bit (any NaN matching any NaN).  A length
 * that gives the same bits everywhere adds no row: the long row says so.
 * One that differs becomes a row of its own (NAME_len1, NAME_len67),
 * measured on that domain, and the long row says where it differs. */
#ifndef GA_ENGINE_REPORT_LENGTHS_H
#define GA_ENGINE_REPORT_LENGTHS_H

#include <stddef.h>

#include "engine/report_share.h"
#include "domain/domain.h"
#include "formats/format.h"
#include "measure/sweep.h"
#include "report/plan.h"
#include "report/result.h"

/* The rows ga_report_lengths may add for f at most. */
size_t ga_report_lengths_max(void);

/* Check the lengths of rr's kernels on f; write rr->lengths[] and
 * rr->length_rows, and the rows of the lengths that differ into
 * results[*n...] (room for ga_report_lengths_max() more).  A GA_ENGINE_*
 * status, having said what went wrong (ga_report_say). */
int ga_report_lengths(const struct ga_format *f, struct ga_report_real *rr,
                      const struct ga_domain *real_domain, const struct ga_sweep_options *base,
                      const struct ga_report_share *share, struct ga_result *results, size_t *n);

#endif
