/* The edges of chunks waiting for their neighbours: a sweep's threads take
 * chunks in any order, so the pair that straddles two chunks is judged when
 * the second of them is done.  Chunks are handed out in increasing order, so
 * few edges wait at a time (about two per thread). */
#ifndef GA_SHAPE_LEDGER_H
#define GA_SHAPE_LEDGER_H

#include "measure/shape.h"

struct ga_shape_ledger;

struct ga_shape_ledger *ga_shape_ledger_new(void);
void ga_shape_ledger_free(struct ga_shape_ledger *l);

/* Chunk c's first and last inputs: each pair they complete with a
 * neighbouring chunk's edge is judged into s; the others wait.  0, or -1 out
 * of memory. */
int ga_shape_ledger_offer(struct ga_shape_ledger *l, struct ga_shape *s, uint64_t c,
                          const struct ga_shape_edge *first, const struct ga_shape_edge *last);

/* After chunks [first, end) of a domain of `size` inputs were all offered:
 * s's head and tail become the first input of chunk `first` and the last of
 * chunk end - 1 (what joins them to the runs beside, ga_shape_merge). */
void ga_shape_ledger_finish(struct ga_shape_ledger *l, struct ga_shape *s, uint64_t first,
                            uint64_t end, uint64_t size);

#endif
