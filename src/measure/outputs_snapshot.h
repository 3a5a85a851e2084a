/* A kernel's outputs over its domain, kept as a sweep runs it
 * (ga_sweep_options.observe) and written in domain order as a .npy or raw
 * file (sweep --save-outputs, doc/compare.md "Snapshots"): with the
 * domain's inputs ('gelu-acc inputs') it is an outputs: side that 'compare'
 * and 'check' read.  Held in memory, so domains are bounded: every input of
 * a format of 16 bits or fewer, float32 domains up to 2^26 inputs. */
#ifndef GA_OUTPUTS_SNAPSHOT_H
#define GA_OUTPUTS_SNAPSHOT_H

#include <stdint.h>

#include "io/io_error.h"
#include "measure/sweep.h"

#define GA_SNAPSHOT_MAX_INPUTS ((uint64_t)1 << 26)

struct ga_outputs_snapshot {
    const struct ga_format *format;
    uint64_t size, filled;       /* inputs of the domain, outputs received */
    ga_bits *y;
};

/* 0; or -1, with a message, for a domain above GA_SNAPSHOT_MAX_INPUTS or
 * out of memory. */
int ga_outputs_snapshot_init(struct ga_outputs_snapshot *s, const struct ga_format *f,
                             uint64_t size, char *why, size_t len);

/* The observer of the sweep of the kernel (ctx: the snapshot); the
 * kernel's outputs are the view's first. */
void ga_outputs_snapshot_observe(void *ctx, const struct ga_sweep_chunk_view *v);

/* Write the file (.npy when its name ends so, else raw), atomically; an
 * existing file is replaced.  GA_IO_BAD_SPEC when some chunk's outputs
 * never came (its batch failed). */
enum ga_io_status ga_outputs_snapshot_write(const struct ga_outputs_snapshot *s, const char *path,
                                            struct ga_io_error *err);

void ga_outputs_snapshot_free(struct ga_outputs_snapshot *s);

/* A backward sweep's snapshot (sweep --backward --save-outputs): its pairs
 * and its dx, in pair order, as three files that compare --backward reads
 * as outputs:FILE --inputs X --dy-inputs DY.  Fed by the backward sweep's
 * observer (ga_backward_sweep.observe). */
struct ga_pairs_snapshot {
    struct ga_outputs_snapshot x, dy, dx;
};

int ga_pairs_snapshot_init(struct ga_pairs_snapshot *s, const struct ga_format *f, uint64_t size,
                           char *why, size_t len);
void ga_pairs_snapshot_observe(void *ctx, const struct ga_sweep_chunk_view *v);

/* The files of x and dy beside the dx file `path`: STEM.x.npy and
 * STEM.dy.npy for STEM.npy, else PATH.x and PATH.dy.  0, or -1 when they
 * do not fit in len characters. */
int ga_pairs_snapshot_paths(const char *path, char *x, char *dy, size_t len);

/* x, dy, then dx at path, each atomically. */
enum ga_io_status ga_pairs_snapshot_write(const struct ga_pairs_snapshot *s, const char *path,
                                          struct ga_io_error *err);
void ga_pairs_snapshot_free(struct ga_pairs_snapshot *s);

#endif
