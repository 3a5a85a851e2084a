/* gelu-acc audit as one library call: the share of a domain a run names
 * (or this rank's under mpirun) audited through the run protocol (resumed
 * from its checkpoint, saved between slices, the ranks merged), and the
 * merge of the shards' state files.  The command line prints the result
 * (report/audit_page.h). */
#ifndef GA_RUN_AUDIT_H
#define GA_RUN_AUDIT_H

#include "audit/audit.h"
#include "engine/engine.h"
#include "state/run.h"

struct ga_audit_job {
    enum ga_function fn;
    const struct ga_domain *domain;
    const char *version;            /* the gelu-acc that writes the state files */
    struct ga_run_share share;      /* shard, checkpoint and its interval */
    int threads;
};

/* Audit the job's share: *state is the audit (free() it in every case, NULL
 * when out of memory); a GA_ENGINE_* status, with a message when not OK. */
int ga_run_audit(const struct ga_audit_job *job, struct ga_audit **state, char *why,
                 size_t len);

/* The state files of every shard, merged into *all (free() it in every
 * case); GA_ENGINE_OK or GA_ENGINE_BAD_INPUT with a message. */
int ga_run_audit_merge(char **names, size_t n, struct ga_audit **all, char *why, size_t len);

#endif
