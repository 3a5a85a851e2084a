/* Partial results of a sweep: everything a process accumulated over a share
 * of the domain (a shard, shard.h, or the chunks done before a checkpoint),
 * from which the figures of the whole are computed once every share is in.
 *
 * A partial holds the statistics accumulator (stats.h) and the failure
 * record of one measurement, the chunks they cover, and the identity of the
 * sweep: program version, format, kernel, reference, oracle, domain and the
 * options that change what is measured.  Partials of one sweep merge exactly
 * (ga_measurement_merge), so the merged figures are those of one process,
 * bit for bit; partials of different sweeps are refused by name of the
 * field that differs.  The file format is in partial_file.c
 * (doc/partial-format.md). */
#ifndef GA_PARTIAL_H
#define GA_PARTIAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io_error.h"
#include "measure/sweep.h"

/* The longest text of an identity field, + 1. */
#define GA_PARTIAL_TEXT 1024

/* What makes two partials parts of one sweep.  Text as the command line and
 * the catalogue give it; the implementation's description is kept so that
 * a merge prints it without loading the kernel. */
struct ga_partial_identity {
    char program[64];                 /* "gelu-accuracy 0.1.0" */
    char format[16];
    char kernel[GA_DOMAIN_SPEC_LEN];  /* catalogue name or plugin:PATH:SYMBOL */
    char impl[GA_PARTIAL_TEXT], models[GA_PARTIAL_TEXT], formula[GA_PARTIAL_TEXT],
         computes[GA_PARTIAL_TEXT];
    enum ga_function approximates;
    bool real;
    enum ga_function reference;
    enum ga_oracle oracle;
    char domain[GA_DOMAIN_SPEC_LEN];
    uint64_t domain_size;
    uint64_t domain_digest;           /* file: domains: ga_partial_domain_digest */
    uint64_t max_failures;            /* 0: none */
    double timeout_s;                 /* plugin kernels' batch timeout; 0 for others */
};

struct ga_partial {
    struct ga_partial_identity id;
    const struct ga_format *format;
    uint32_t shard, shards;           /* shard K of N (shard.h) */
    uint64_t first, end;              /* its chunks */
    uint64_t next;                    /* chunks [first, next) are measured */
    struct ga_impl impl;              /* name and description from id, no kernel */
    /* m.stats, failure counts and spans; m.impl is &impl, so that a
     * report of m (ga_result_from_measurement) needs no kernel */
    struct ga_measurement m;
};

/* Fill id from a kernel about to be swept (strings too long for the fields
 * are refused: -1, and nothing else is reported). */
int ga_partial_identity_init(struct ga_partial_identity *id, const char *program,
                             const struct ga_format *f, const char *kernel,
                             const struct ga_measurement *m, const struct ga_domain *d,
                             enum ga_oracle oracle, uint64_t max_failures, double timeout_s);

/* FNV-1a of a file: domain's encodings (32-bit little-endian each), and of
 * the file: parts of a joined domain; 0 for the other kinds, which their
 * spec determines. */
uint64_t ga_partial_domain_digest(const struct ga_domain *d);

/* A partial of shard k of n with nothing measured yet; NULL when out of
 * memory or the format is unknown. */
struct ga_partial *ga_partial_new(const struct ga_partial_identity *id, uint32_t k, uint32_t n);
void ga_partial_free(struct ga_partial *p);

/* The fields of an identity as text, for comparing and naming them. */
#define GA_PARTIAL_FIELDS 16
struct ga_partial_field {
    const char *name;                 /* "domain", "oracle", ... */
    char text[GA_DOMAIN_SPEC_LEN];
};
void ga_partial_fields(const struct ga_partial_identity *id,
                       struct ga_partial_field out[GA_PARTIAL_FIELDS]);

/* The index of the first field in which a and b differ, or -1. */
int ga_partial_identity_differs(const struct ga_partial_identity *a,
                                const struct ga_partial_identity *b);

/* Called between slices of ga_partial_run: 0 to go on, else a status that
 * stops the run and is returned. */
typedef int (*ga_partial_save_fn)(void *ctx, const struct ga_partial *p);

#define GA_PARTIAL_SAVE_FAILED (-100)

/* Measure the rest of p's chunks with the kernel of m, merging into p.  With
 * `save`, the chunks go in slices of a fraction of a second and save is
 * called when `interval_s` seconds have passed since the last call, and once
 * at the end; without, in one sweep.  o's chunk range is ignored; its
 * max_failures counts the failed batches p holds already.  Returns a
 * GA_SWEEP_* status, or save's. */
int ga_partial_run(struct ga_partial *p, const struct ga_domain *d, struct ga_measurement *m,
                   const struct ga_sweep_options *o, ga_partial_save_fn save, void *save_ctx,
                   double interval_s, ga_bits *undecided_input);

/* Why a set of partials does not make one sweep. */
enum ga_partial_set_status {
    GA_PARTIALS_OK = 0,
    GA_PARTIALS_DIFFERENT,            /* parts[index] differs from parts[0] in `field` */
    GA_PARTIALS_SHARD_COUNT,          /* parts[index] cuts the domain in another number */
    GA_PARTIALS_INCOMPLETE,           /* parts[index] is a checkpoint of an unfinished shard */
    GA_PARTIALS_DUPLICATE,            /* parts[index] and parts[other] are one shard */
    GA_PARTIALS_MISSING,              /* shards `missing` (the first few) are absent */
    GA_PARTIALS_TOO_LARGE,            /* a region would reach 2^32 inputs */
    GA_PARTIALS_NO_MEMORY,
};

#define GA_PARTIALS_MISSING_LISTED 16
struct ga_partial_set_problem {
    enum ga_partial_set_status status;
    size_t index, other;
    int field;                        /* GA_PARTIALS_DIFFERENT: ga_partial_fields index */
    uint32_t missing[GA_PARTIALS_MISSING_LISTED];
    size_t missing_count;             /* all of them; the first listed above */
};

/* Merge n >= 1 partials that together are every shard of one sweep, once,
 * each complete, into *out (a new partial, shard 1 of 1).  On a problem,
 * *out is NULL and *why says what. */
int ga_partials_merge(struct ga_partial *const *parts, size_t n, struct ga_partial **out,
                      struct ga_partial_set_problem *why);

/* The file's bytes (partial_file.c, doc/partial-format.md), every field
 * checked on reading: GA_IO_MALFORMED for bytes that are not a partial or
 * are damaged, GA_IO_UNSUPPORTED for another version of the format; the
 * reader copies what it keeps.  Files are saved, loaded, resumed and merged
 * through the run protocol (state/partial_run.h). */
#define GA_PARTIAL_MAX_FILE_BYTES ((size_t)64 << 20)
enum ga_io_status ga_partial_encode(const struct ga_partial *p, unsigned char **data,
                                    size_t *size, struct ga_io_error *err);
enum ga_io_status ga_partial_decode(const unsigned char *data, size_t size,
                                    struct ga_partial **out, struct ga_io_error *err);

#endif
