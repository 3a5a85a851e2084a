/* Shards: a deterministic share of a sweep's domain, for one process of
 * many.  Shard K of N (1 <= K <= N, numbered from 1 as Slurm's
 * --array=1-N numbers its tasks) is a run of whole chunks (sweep.h):
 * chunks [floor((K-1) C / N), floor(K C / N)) of the domain's C chunks.  The
 * N shards cover every chunk once, so their statistics merge into exactly
 * those of one sweep (stats.h: merging is exact).  A shard may hold no
 * chunk when N > C. */
#ifndef GA_SHARD_H
#define GA_SHARD_H

#include <stdint.h>

/* The most shards a domain is cut into: more than the chunks of any sweep
 * (2^32 inputs / 4096 = 2^20). */
#define GA_SHARD_MAX ((uint32_t)1 << 20)

/* "K/N" as users write it: decimal digits, 1 <= K <= N <= GA_SHARD_MAX.  0,
 * or -1. */
int ga_shard_parse(const char *text, uint32_t *k, uint32_t *n);

/* The chunks [*first, *end) of shard k of n over `chunks` chunks. */
void ga_shard_chunks(uint64_t chunks, uint32_t k, uint32_t n, uint64_t *first, uint64_t *end);

#endif
