/* The models a page's real kernels are claimed to equal
 * (real/model_claims.h), checked where the page measures the kernels: each
 * claimed model and its kernel run on every input of the real rows' domain
 * (all 2^32 float32 inputs under make report) and their outputs compared
 * bit for bit, any NaN matching any NaN.  The page records what was found
 * beside the kernel's row; a difference is reported, never hidden. */
#ifndef GA_ENGINE_REPORT_PROOFS_H
#define GA_ENGINE_REPORT_PROOFS_H

#include "domain/domain.h"
#include "engine/report_share.h"
#include "formats/format.h"
#include "report/plan.h"

/* Check the claim about each of rr's kernels on f into rr->proofs (one per
 * kernel; model NULL where no claim names it).  A GA_ENGINE_* status,
 * having said what went wrong (ga_report_say); a model that cannot run is
 * recorded as not checked, with the reason. */
int ga_report_proofs(const struct ga_format *f, struct ga_report_real *rr,
                     const struct ga_domain *real_domain, int threads,
                     const struct ga_report_share *share);

#endif
