/* One format of a report (gelu-acc report): its plan (report/plan.h)
 * swept, over the whole domain or a shard's share, or taken from merged
 * shards; its rows graded from files, its cast and backward sections; then
 * its page written (engine/report_page.h), or, in a shard, its state
 * stored in the shard's partial. */
#ifndef GA_ENGINE_REPORT_FORMAT_H
#define GA_ENGINE_REPORT_FORMAT_H

#include <stddef.h>

#include "engine/report_share.h"
#include "formats/format.h"
#include "report/backward_section.h"
#include "report/real_outputs.h"
#include "report/report_marker.h"
#include "measure/sweep.h"

/* The models of f sweep domain_spec; the real libraries real_spec, in the
 * same pass when it is the same domain; the rows of the manifests
 * ro[0..nro) are graded on their own inputs; bw says which backward domain
 * f's section has, if any.  The page goes into dir, stating `how` it was
 * made, and *measured says over what (measured may be NULL); with
 * share->save, nothing is written but the shard's state.  A GA_ENGINE_*
 * status, said in share->why. */
int ga_report_format(const char *dir, const struct ga_format *f, const char *domain_spec,
                     const char *real_spec, const struct ga_real_outputs *ro, size_t nro,
                     const struct ga_sweep_options *base, const char *how,
                     struct ga_report_domain *measured, struct ga_report_share *share,
                     const struct ga_backward_domains *bw);

#endif
