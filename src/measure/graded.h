/* Graded outputs: an inputs file and an outputs file that pair up element by
 * element, read a chunk at a time as a sweep asks for them, so that files of
 * any length (2^32 float32 elements: 16 GiB each) grade in little memory.
 * Shared by 'gelu-acc grade' and the outputs: entries of 'gelu-acc check'.
 * Graded backward outputs add a third file, dy: x are the inputs, dx the
 * outputs. */
#ifndef GA_SWEEP_GRADED_H
#define GA_SWEEP_GRADED_H

#include <stdbool.h>

#include "io/array_file.h"
#include "io/io_error.h"
#include "domain/pairs.h"
#include "measure/sweep.h"

struct ga_graded {
    struct ga_array_reader inputs, outputs;
    struct ga_array_reader dy;   /* backward only */
    bool failed;                 /* a read failed during the sweep */
    struct ga_io_error error;    /* the first such failure */
};

/* Open both files (magic bytes decide .npy or raw) and check that they have
 * the same length.  On failure *err says what and where, nothing stays open,
 * and ga_graded_close is harmless. */
enum ga_io_status ga_graded_open(struct ga_graded *g, const char *inputs_path,
                                 const char *outputs_path, const struct ga_format *f,
                                 struct ga_io_error *err);

/* Point d (its inputs, named description in reports) and m (its outputs) at
 * the files.  g must outlive the sweep. */
void ga_graded_attach(struct ga_graded *g, const char *description, struct ga_domain *d,
                      struct ga_measurement *m);

/* Backward: x, dy and dx files of one length. */
enum ga_io_status ga_graded_open_backward(struct ga_graded *g, const char *x_path,
                                          const char *dy_path, const char *dx_path,
                                          const struct ga_format *f, struct ga_io_error *err);

/* Point pairs (x and dy, named description) and dx at the files. */
void ga_graded_attach_backward(struct ga_graded *g, const char *description,
                               struct ga_pairs *pairs, struct ga_source *dx);

/* The first read that failed during a sweep, or NULL. */
const char *ga_graded_error(const struct ga_graded *g);

void ga_graded_close(struct ga_graded *g);

#endif
