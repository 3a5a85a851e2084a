/* The partial state of a backward section's shard: the rows swept together
 * over shard K of N of one pair domain's chunks (backward_sweep.h,
 * ga_backward_sweep_share), kept in a report shard's file
 * (report_partial.h) so that the shards merge into the section one process
 * measures, bit for bit.
 *
 * Each row keeps its statistics over the shard's chunks, merged in order,
 * and its heat map (counts and maxima: merged in any order).  Every other
 * figure merges exactly shard after shard; the sums are the exception
 * (backward_stats.h), so the shard also keeps each chunk's sums per row,
 * and the merge replays them in chunk order. */
#ifndef GA_BACKWARD_PARTIAL_H
#define GA_BACKWARD_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "io/bytes.h"
#include "measure/backward_heat.h"
#include "grade/backward_stats.h"
#include "domain/domain.h"
#include "truth/function.h"

#define GA_BACKWARD_PARTIAL_ROWS 32
#define GA_BACKWARD_PARTIAL_NAME 64

struct ga_backward_partial_row {
    char impl[GA_BACKWARD_PARTIAL_NAME];  /* the backward model's name */
    enum ga_function reference;           /* GA_GELU_GRAD or GA_GELU_TANH_GRAD */
    struct ga_backward_stats stats;       /* the shard's chunks, merged in order */
    struct ga_backward_heat *heat;        /* NULL: the row has no map */
};

struct ga_backward_partial {
    const struct ga_format *format;
    char domain[GA_DOMAIN_SPEC_LEN];      /* the pair domain as given */
    uint64_t pairs;                       /* its size */
    uint32_t shard, shards;               /* shard K of N (shard.h) */
    uint64_t chunks;                      /* the domain's (ga_backward_sweep_chunks) */
    uint64_t first, end;                  /* the shard's chunks */
    uint64_t next;                        /* [first, next) are measured: end unless a
                                             checkpoint stopped before */
    size_t n_rows;
    struct ga_backward_partial_row row[GA_BACKWARD_PARTIAL_ROWS];
    /* (end - first) * n_rows: chunk first + k's sums for row r at
     * [k * n_rows + r]; NULL once merged (the stats then hold the sums of
     * the whole domain) */
    struct ga_backward_sums *sums;
};

/* An empty partial of shard k of n of a domain of `pairs` pairs, room for
 * n_rows rows and their sums, next = end (for a checkpoint, set next =
 * first); NULL when out of memory or n_rows is too large.  Free with
 * ga_backward_partial_free. */
struct ga_backward_partial *ga_backward_partial_new(const struct ga_format *f, const char *domain,
                                                    uint64_t pairs, uint32_t k, uint32_t n,
                                                    size_t n_rows);
void ga_backward_partial_free(struct ga_backward_partial *p);

/* Into and out of a report partial file (doc/partial-format.md).  get
 * returns NULL after marking r failed. */
void ga_backward_partial_put(struct ga_byte_writer *w, const struct ga_backward_partial *p);
struct ga_backward_partial *ga_backward_partial_get(struct ga_byte_reader *r,
                                                    const struct ga_format *f);

/* The n shards parts[0..n) of one section (any order: the same domain and
 * rows, each shard of N once, finished) merged into *out, shard 1 of 1 with no
 * sums: what one process measures.  0, or -1 with *why (a few words) and
 * *index (the part that does not fit), *out NULL. */
int ga_backward_partials_merge(struct ga_backward_partial *const *parts, size_t n,
                               struct ga_backward_partial **out, const char **why,
                               size_t *index);

#endif
