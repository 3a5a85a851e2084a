/* The oracle audit: the MPFR-only oracle (a Ziv loop, ga_truth_mpfr) against
 * the fast oracle every sweep uses (ga_truth_fast: proven bounds, falling
 * back to MPFR when a rounding is not decided), on every input of a domain.
 * Two independent computations of one certified value: the rounded result
 * and the direction of the exact value from it must agree bit for bit.
 *
 * An audit runs over whole chunks (sweep.h) like a sweep, so it is cut into
 * shards (shard.h), checkpointed and resumed, and spread over MPI ranks the
 * same way; its state merges exactly (counts, and the first disagreements in
 * domain order).  The file is in audit_file.c (doc/audit.md). */
#ifndef GA_AUDIT_H
#define GA_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io_error.h"
#include "domain/domain.h"
#include "truth/function.h"

/* Disagreements listed, the first in domain order; all are counted. */
#define GA_AUDIT_LISTED 64

enum ga_audit_kind {
    GA_AUDIT_DIFFERENT = 0,      /* both decided, different results */
    GA_AUDIT_MPFR_UNDECIDED = 1, /* the MPFR oracle reached its precision cap */
    GA_AUDIT_FAST_UNDECIDED = 2, /* so did the fast oracle's MPFR fallback */
};

struct ga_audit_disagreement {
    uint64_t index;              /* in the domain */
    uint32_t x, mpfr, fast;      /* input; rounded results (0 when undecided) */
    int8_t mpfr_dir, fast_dir;   /* signs of exact - rounded */
    uint8_t kind;                /* enum ga_audit_kind */
};

struct ga_audit {
    /* identity: what makes two audit states parts of one audit */
    char program[64];
    enum ga_function fn;
    const struct ga_format *format;
    char domain[GA_DOMAIN_SPEC_LEN];
    uint64_t domain_size, domain_digest;
    /* share: shard K of N, chunks [first, end), [first, next) audited */
    uint32_t shard, shards;
    uint64_t first, end, next;
    /* results */
    uint64_t inputs;             /* inputs of chunks [first, next) */
    uint64_t disagreements;      /* every kind */
    uint32_t listed;
    struct ga_audit_disagreement list[GA_AUDIT_LISTED];
    double cpu_s;                /* CPU seconds of every thread, kept work only */
};

/* A fresh audit of shard k of n over d (refused, -1, for a function with no
 * fast oracle in d's format: there is nothing to compare). */
int ga_audit_init(struct ga_audit *a, const char *program, enum ga_function fn,
                  const struct ga_domain *d, uint32_t k, uint32_t n);

/* The index of the first identity field in which a and b differ (0
 * program, 1 function, 2 format, 3 domain, 4 domain size, 5 digest), or -1;
 * its name. */
int ga_audit_differs(const struct ga_audit *a, const struct ga_audit *b);
const char *ga_audit_field_name(int field);

typedef int (*ga_audit_save_fn)(void *ctx, const struct ga_audit *a);

/* Audit the rest of a's chunks with `threads` threads (0: OpenMP's
 * default).  With save, in slices, saving every interval_s seconds and once
 * at the end; a nonzero status of save stops the run and is returned.
 * Returns 0, -1 when the domain could not be read, or save's status. */
int ga_audit_run(struct ga_audit *a, const struct ga_domain *d, int threads,
                 ga_audit_save_fn save, void *ctx, double interval_s);

/* Merge n complete audits that are the n shards of one audit, each once,
 * into *out (shard 1 of 1).  Else -1 and *bad: the index of the first part
 * that does not fit, and why in `why` (a short phrase). */
int ga_audits_merge(const struct ga_audit *const *parts, size_t n, struct ga_audit *out,
                    size_t *bad, const char **why);

/* The shards of 1..parts[0]->shards that none of the n parts is: their
 * count, the first `max` of them in list (ascending). */
size_t ga_audits_missing(const struct ga_audit *const *parts, size_t n, uint32_t *list,
                         size_t max);

/* The state file (audit_file.c): its bytes, every field and a checksum
 * checked on reading (GA_IO_MALFORMED, GA_IO_UNSUPPORTED for another
 * version); files go through the run protocol (ga_audit_run_kind). */
enum ga_io_status ga_audit_encode(const struct ga_audit *a, unsigned char **data, size_t *size,
                                  struct ga_io_error *err);
enum ga_io_status ga_audit_decode(const unsigned char *data, size_t size, struct ga_audit *a,
                                  struct ga_io_error *err);
/* The run protocol (state/run.h) bound to audit states: saved, loaded,
 * resumed and merged with the words 'audit' prints. */
#define GA_AUDIT_MAX_FILE_BYTES ((size_t)1 << 20)
struct ga_run_kind;
extern const struct ga_run_kind ga_audit_run_kind;

#endif
