/* The partial file of a backward sweep ('gelu-acc sweep --backward --shard
 * K/N --partial FILE'): what makes shards parts of one sweep (program,
 * format, kernel, reference, pair domain, dy, timeout), then the shard's
 * state as a report keeps a backward section's (backward_partial.h, one
 * row).  'gelu-acc merge' of every shard prints what one sweep prints.
 * Framed as the project's binary files (io/bytes.h); described in
 * doc/partial-format.md. */
#ifndef GA_BACKWARD_SWEEP_FILE_H
#define GA_BACKWARD_SWEEP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/io_error.h"
#include "state/backward_partial.h"
#include "domain/domain.h"

struct ga_backward_sweep_id {
    char program[64];                 /* "gelu-accuracy 0.1.0" */
    char format[16];
    char kernel[GA_DOMAIN_SPEC_LEN];  /* catalogue or real name, or LIB.so:SYMBOL */
    enum ga_function reference;       /* a derivative */
    char domain[GA_DOMAIN_SPEC_LEN];  /* the pair domain as given */
    uint64_t pairs;                   /* its size */
    uint64_t dy;                      /* the fixed dy's encoding (--dy) */
    uint64_t digest;                  /* a file: x domain's (ga_partial_domain_digest), else 0 */
    double timeout_s;                 /* a plugin's batch timeout; 0 for a model */
};

struct ga_backward_sweep_file {
    struct ga_backward_sweep_id id;
    struct ga_backward_partial *part;  /* one row */
};

void ga_backward_sweep_file_free(struct ga_backward_sweep_file *file);
/* The file's bytes: *file is filled by decode (free it with
 * ga_backward_sweep_file_free, even on failure).  Files are saved, loaded
 * and merged through the run protocol (ga_backward_sweep_run_kind). */
enum ga_io_status ga_backward_sweep_file_encode(const struct ga_backward_sweep_file *file,
                                                unsigned char **data, size_t *size,
                                                struct ga_io_error *err);
enum ga_io_status ga_backward_sweep_file_decode(const unsigned char *data, size_t size,
                                                struct ga_backward_sweep_file *file,
                                                struct ga_io_error *err);
/* Whether a file starts as one does (merge tells the kinds apart). */
bool ga_backward_sweep_file_is(const unsigned char *data, size_t size);

struct ga_backward_sweep;

/* The identity of sweep s by program (its name and version): s's kernel,
 * reference and pairs, the fixed dy's encoding, a plugin's timeout or 0. */
void ga_backward_sweep_id_init(struct ga_backward_sweep_id *id, const char *program,
                               const struct ga_backward_sweep *s, uint64_t dy, double timeout_s);

/* The first field in which b differs from a: its name, and both values as
 * text; NULL when they are one sweep. */
const char *ga_backward_sweep_id_differs(const struct ga_backward_sweep_id *a,
                                         const struct ga_backward_sweep_id *b, char *a_text,
                                         char *b_text, size_t cap);

/* The run protocol (state/run.h) bound to these files. */
#define GA_BACKWARD_SWEEP_FILE_MAX_BYTES ((size_t)1 << 30)
struct ga_run_kind;
extern const struct ga_run_kind ga_backward_sweep_run_kind;

#endif
