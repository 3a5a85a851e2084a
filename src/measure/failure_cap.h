/* The failure cap of a sweep: stop measuring a kernel at its K-th failed
 * batch in domain order, the same K batches for any thread count.
 *
 * Threads take chunks in domain order but finish them in any order, so a
 * chunk's fate waits for every chunk before it to have run: chunk c of
 * measurement j counts (its outputs join the statistics, or its failure is
 * reported) when fewer than K chunks before c failed for j.  A thread runs
 * the kernels of its chunk, reports with ga_failure_cap_ran, then asks
 * ga_failure_cap_counts, which waits for the chunks before; the wait is
 * short unless an earlier chunk is itself failing (a hang, a crash being
 * narrowed down).  Chunks known to be past the cap need not run at all. */
#ifndef GA_FAILURE_CAP_H
#define GA_FAILURE_CAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ga_failure_cap;

/* chunks chunks, count measurements, cap K >= 1.  NULL when out of memory. */
struct ga_failure_cap *ga_failure_cap_new(uint64_t chunks, size_t count, uint64_t k);
void ga_failure_cap_free(struct ga_failure_cap *cap);

/* Whether measurement j is already known to be capped before chunk c: its
 * kernel need not run there. */
bool ga_failure_cap_skips(struct ga_failure_cap *cap, size_t j, uint64_t c);

/* Chunk c has run; failed[j]: measurement j failed on it (NULL: none).  Once per chunk,
 * whatever happened (a chunk that never reports blocks every later one). */
void ga_failure_cap_ran(struct ga_failure_cap *cap, uint64_t c, const bool *failed);

/* Waits until every chunk before c has run; whether chunk c of measurement
 * j counts (fewer than K failures for j before c). */
bool ga_failure_cap_counts(struct ga_failure_cap *cap, size_t j, uint64_t c);

/* After the sweep: whether measurement j reached the cap. */
bool ga_failure_cap_reached(const struct ga_failure_cap *cap, size_t j);

#endif
