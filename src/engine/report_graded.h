/* A report's rows graded from files: the sections of --real-outputs
 * manifests (libraries run elsewhere), each graded on its own inputs, in
 * one process or over a shard's share, and taken back from merged shards. */
#ifndef GA_ENGINE_REPORT_GRADED_H
#define GA_ENGINE_REPORT_GRADED_H

#include <stddef.h>

#include "engine/report_share.h"
#include "formats/format.h"
#include "report/plan.h"
#include "report/real_outputs.h"
#include "report/result.h"
#include "measure/sweep.h"

/* What a page says of a graded row (its result points here). */
struct ga_report_graded_text {
    char models[1024], formula[64], computes[64];
};

/* The rows a shard keeps for the manifests' sections of f: one per
 * reference of each measured section. */
size_t ga_report_graded_rows(const struct ga_format *f, const struct ga_real_outputs *ro,
                             size_t nro);

/* The rows of the manifests ro[0..nro) for f, each graded on its own inputs
 * (against its reference, and tanh forms against exact GELU too) into
 * results[*n...] with their texts in text[], or, when share->save, over the
 * shard's share into its state; unsupported sections are listed in
 * rr->not_measured.  A GA_ENGINE_* status. */
int ga_report_grade_outside(const struct ga_format *f, const struct ga_real_outputs *ro,
                            size_t nro, const struct ga_sweep_options *base,
                            struct ga_report_real *rr, struct ga_result *results, size_t *n,
                            struct ga_report_graded_text *text,
                            const struct ga_report_share *share);

/* The rows graded from files in merged shards, into results[*n...]: their
 * figures, descriptions and domains are the shards'.  A GA_ENGINE_* status. */
int ga_report_take_graded(const struct ga_format *f, const struct ga_report_share *share,
                          struct ga_report_real *rr, struct ga_result *results, size_t *n);

#endif
