/* A report's share of the work (gelu-acc report): each format's
 * measurements swept here (shard 1/1 is the whole domain), or, with save,
 * swept over shard K of N and stored in the shard's partial state instead
 * of a page, or taken from merged shards, where nothing is swept. */
#ifndef GA_ENGINE_REPORT_SHARE_H
#define GA_ENGINE_REPORT_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/report_cost.h"
#include "formats/format.h"
#include "domain/domain.h"
#include "state/partial.h"
#include "state/report_partial.h"
#include "measure/sweep.h"

struct ga_report_share {
    uint32_t shard, shards;
    struct ga_report_partial *save;     /* --partial, or a rank under mpirun */
    struct ga_report_partial *merged;   /* merge: nothing is swept */
    size_t format;                      /* the index of the format in save or merged */
    /* called before each sweep with its options and a label: the command
     * line's progress line (NULL: none) */
    void (*progress)(struct ga_sweep_options *so, const char *label);
    /* called after each format with what it cost (engine/report_cost.h);
     * shard: only a share of it was measured, into the partial state
     * (NULL: none) */
    void (*cost)(const struct ga_format *f, const struct ga_report_cost *c, bool shard);
    char *why;                          /* what went wrong, why_len bytes */
    size_t why_len;
};

/* The message of a failure into share->why ("report: ..."): the engine
 * never prints, the command line prints it. */
void ga_report_say(const struct ga_report_share *share, const char *fmt, ...)
                   __attribute__((format(printf, 2, 3)));

/* The functions below return a GA_ENGINE_* status (engine/engine.h),
 * having said what went wrong (ga_report_say). */

/* Sweep the share's chunks of domain d for m[0..count) (none: nothing
 * measured, the statistics stay empty); label names the sweep in errors. */
int ga_report_sweep_share(const struct ga_format *f, const struct ga_domain *d,
                          struct ga_measurement *m, size_t count, struct ga_sweep_options so,
                          const struct ga_report_share *share, const char *label);

/* Measurement m, identified by id, as part j of e: a finished partial of
 * the share's shard. */
int ga_report_store_partial(struct ga_report_partial_format *e, size_t j,
                            const struct ga_partial_identity *id,
                            const struct ga_measurement *m,
                            const struct ga_report_share *share);

/* A new format entry of share->save: the n models (over domain) and nreal
 * real kernels (over real_domain) of m, each as a partial with its profile,
 * and room for `graded` rows graded from files after them. */
int ga_report_save_share(const struct ga_format *f, struct ga_measurement *m, size_t n,
                         size_t nreal, size_t graded, const struct ga_domain *domain,
                         const struct ga_domain *real_domain,
                         const struct ga_sweep_options *base,
                         const struct ga_report_share *share);

/* The measurements of the merged shards into the plan's m[0..count) (the
 * first n over domain, the rest over real_domain): their kernels must be
 * the plan's (the same catalogue and real libraries). */
int ga_report_take_merged(const struct ga_format *f, struct ga_measurement *m, size_t count,
                          size_t n, const struct ga_domain *domain,
                          const struct ga_domain *real_domain, struct ga_report_share *share);

#endif
