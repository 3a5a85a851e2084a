/* The inputs a check line names (gelu-acc check, doc/baselines.md "Which
 * input a line names"), kept as the sweep of the kernel runs
 * (ga_sweep_options.observe):
 * - without a snapshot, for each region and each kind of grade/witness.h,
 *   the first input of the domain (in domain order) whose output is of that
 *   kind: an input a count's line can name, "e.g.", since a baseline holds
 *   counts, not which inputs they counted;
 * - with a snapshot (the kernel's outputs recorded earlier over the same
 *   inputs, sweep --save-outputs), the first input that entered each kind,
 *   and the inputs whose class (the rows of grade/bucket.h) changed: their
 *   count, how many of them got worse (grade/better.h's rule), and the
 *   first few in domain order.  The snapshot's and the kernel's outputs
 *   also go to the compare engine's tally (measure/compare_tally.h).
 * Deterministic: the first inputs are minima of domain indices, whatever
 * the thread count and the order the chunks come in. */
#ifndef GA_CLASS_WITNESS_H
#define GA_CLASS_WITNESS_H

#include "grade/witness.h"
#include "measure/compare_tally.h"
#include "io/io_error.h"

#define GA_CLASS_CHANGES 8

struct ga_class_point {
    bool has;
    uint64_t index;                   /* in the domain */
    ga_bits x, old_y, y;              /* old_y: the snapshot's output (with one) */
    enum ga_bucket old_class, class;
    bool worse;                       /* with a snapshot: y is worse than old_y */
};

struct ga_class_witness {
    const struct ga_format *format;
    struct ga_format_layout layout;
    struct ga_region_bounds bounds;
    ga_bits *snapshot;                /* NULL: none */
    uint64_t size;                    /* inputs of the domain */
    struct ga_compare_tally tally;    /* with a snapshot: A the snapshot, B the kernel */
    /* [r][w]: the first input of region r (or all) whose output is of kind w,
     * and, with a snapshot, the first that was not before */
    struct ga_class_point now[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    struct ga_class_point entered[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    uint64_t changed, changed_worse;  /* with a snapshot */
    size_t change_count;
    struct ga_class_point changes[GA_CLASS_CHANGES];  /* the first, in domain order */
};

/* A witness for a domain of `size` inputs of f.  snapshot_path (NULL: none)
 * names the recorded outputs, .npy or raw, of exactly `size` elements.
 * GA_IO_OK, or a status with a message naming the file. */
enum ga_io_status ga_class_witness_init(struct ga_class_witness *w, const struct ga_format *f,
                                        enum ga_function reference, uint64_t size,
                                        const char *snapshot_path, struct ga_io_error *err);

/* The observer (ctx: the witness); the kernel's outputs are the view's first. */
void ga_class_witness_observe(void *ctx, const struct ga_sweep_chunk_view *v);

/* After the sweep: the tally finished (with a snapshot).  0, or -1 when a
 * chunk was never observed or MPFR could not decide a listed input. */
int ga_class_witness_finish(struct ga_class_witness *w);

void ga_class_witness_free(struct ga_class_witness *w);

#endif
