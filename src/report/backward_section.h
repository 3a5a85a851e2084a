/* The backward section of a report page: every backward catalogue model
 * that supports the format, against the derivative it approximates and,
 * for the tanh forms, against exact gelu' too (as the forward tables), on
 * one pair domain (domain/pairs.h).  The bfloat16 rows against their own
 * derivative also fill a heat map (measure/backward_heat.h).
 *
 * Written as a Markdown and an HTML section of FORMAT.md and FORMAT.html,
 * and as FORMAT-backward.csv and .json of their own, so that the forward
 * files stay as they are. */
#ifndef GA_BACKWARD_SECTION_H
#define GA_BACKWARD_SECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "impls/backward.h"
#include "io/io_error.h"
#include "measure/backward_heat.h"
#include "state/backward_partial.h"
#include "grade/backward_stats.h"
#include "domain/domain.h"
#include "domain/pairs.h"
#include "isolation/plugin.h"
#include "real/real.h"

/* The domains of a report's backward sections, by format; NULL: the
 * default.  none: no backward section at all. */
struct ga_backward_domains {
    bool none;
    const char *bfloat16, *float16, *float32;
};

/* The default report's: a fixed sample of 2^20 pairs (seed 1), and for
 * float32 every 65536th x with dy = 1.  A 16-bit section computes d(x) of
 * every x once per derivative (ga_backward_grad_table), shared by its rows. */
#define GA_BACKWARD_DOMAIN_16 "pairs:random:1048576:1"
#define GA_BACKWARD_DOMAIN_32 "stride:65536"

/* The domain of f's section, or NULL where f has none (no backward model, or
 * d->none). */
const char *ga_backward_domain_for(const struct ga_backward_domains *d, const struct ga_format *f);
/* The report option that sets it ("--bfloat16-backward-domain"), NULL where none. */
const char *ga_backward_domain_option(const struct ga_format *f);

#define GA_BACKWARD_ROWS_MAX 32

struct ga_backward_row {
    const struct ga_backward_impl *impl;
    enum ga_function reference;
    struct ga_backward_stats stats;
    struct ga_backward_heat *heat;   /* NULL: none drawn */
};

/* A real library's backward kernel (real/real.h), against the derivative
 * it approximates: swept in the same pass as the models, over the same
 * pairs, in worker processes. */
#define GA_BACKWARD_REAL_MAX 32

#define GA_BACKWARD_LENGTHS_NOTE 384

struct ga_backward_real_row {
    const struct ga_real_desc *desc;
    /* GA_REAL_LONG, but for a row of another length (backward_lengths.c),
     * measured over s->length_pairs: its name is desc's with the length's
     * suffix ("torch_erf_backward_len1") */
    enum ga_real_length length;
    char name[96];
    char lengths[GA_BACKWARD_LENGTHS_NOTE];  /* a long row: its other lengths ("": none) */
    struct ga_plugin *plugin;          /* open while measuring, else NULL */
    struct gelu_acc_real_info about;   /* version and code path, as the module says */
    struct ga_backward_stats stats;
};

struct ga_backward_section {
    const struct ga_format *format;
    char domain[GA_DOMAIN_SPEC_LEN];
    struct ga_pairs pairs;               /* the domain, parsed */
    char how[GA_DOMAIN_SPEC_LEN + 96];   /* the command that writes it */
    size_t n;
    struct ga_backward_row rows[GA_BACKWARD_ROWS_MAX];
    /* the real libraries' rows, after the models' in every sweep and shard */
    size_t n_real;
    struct ga_backward_real_row real[GA_BACKWARD_REAL_MAX];
    /* the pairs the other tensor lengths ran on: the section's or, where
     * fewer, the format's default (backward_lengths.c) */
    bool has_length_pairs;
    struct ga_pairs length_pairs;
    char machine[512];          /* CPU, ISA, the libraries' versions */
    char not_measured[2048];    /* lines "name: why": modules not built, refusals */
};

/* Measures s's rows for f over domain (dy = 1 for an x domain) with threads
 * (0: OpenMP's default).  Returns 0, or -1 with a message in err (a bad
 * domain, out of memory, a truth undecided). */
int ga_backward_section_measure(struct ga_backward_section *s, const struct ga_format *f,
                                const char *domain, int threads, char *err, size_t errlen);
/* Shard k of n of that section ('report --shard', a rank under mpirun):
 * *part receives the shard's state (state/backward_partial.h).  0, or -1
 * with a message. */
int ga_backward_section_measure_share(const struct ga_format *f, const char *domain,
                                      int threads, uint32_t k, uint32_t n,
                                      struct ga_backward_partial **part, char *err,
                                      size_t errlen);
/* The section of f from its shards merged (ga_backward_partials_merge),
 * whose rows must be the ones planned here; merged's heat maps move into
 * s.  0, or -1 with a message. */
int ga_backward_section_from_partial(struct ga_backward_section *s, const struct ga_format *f,
                                     struct ga_backward_partial *merged, char *err,
                                     size_t errlen);
/* The tensor lengths of s's real rows (real/call_length.h), after they are
 * measured: each kernel whose module has lengths runs at one element per
 * call and at length 67 over every x of a 16-bit format, or float32's
 * default x, with dy = 1 (the section's pairs where fewer), beside its
 * long-tensor kernel, and the outputs are
 * compared bit for bit (any NaN matching any NaN).  A length that differs
 * on some pair becomes a row of its own; each long row's note says what its
 * lengths gave.  0, or -1 with a message (backward_lengths.c). */
int ga_backward_section_lengths(struct ga_backward_section *s, int threads, char *err,
                                size_t errlen);

void ga_backward_section_free(struct ga_backward_section *s);

/* The section (a "## Backward" heading, explanation, tables; last, the
 * real libraries' rows between <!-- real libraries --> markers as the
 * forward section's, since they depend on the machine), 0 or -1. */
int ga_write_backward_markdown(FILE *out, const struct ga_backward_section *s);
int ga_write_backward_html(FILE *out, const struct ga_backward_section *s);
/* FORMAT-backward-real.csv and .json: the real libraries' rows alone, as
 * the models', with the library, its version, code path and the machine
 * (the models' files do not depend on the machine). */
int ga_write_backward_real_csv(FILE *out, const struct ga_backward_section *s);
int ga_write_backward_real_json(FILE *out, const struct ga_backward_section *s);

/* One row per (model, reference, region all/root). */
int ga_write_backward_csv(FILE *out, const struct ga_backward_section *s);
/* An array of objects, each as 'gelu-acc sweep --backward --json' writes one. */
int ga_write_backward_json(FILE *out, const struct ga_backward_section *s);

/* DIR/plots/FORMAT-backward-heat-MODEL.svg for each row with a heat map. */
enum ga_io_status ga_write_backward_heatmaps(const char *dir, const struct ga_backward_section *s,
                                             struct ga_io_error *err);
/* That file's name under DIR ("plots/..."), into buf of GA_HEAT_PATH_LEN. */
#define GA_HEAT_PATH_LEN 160
const char *ga_backward_heat_path(const struct ga_backward_section *s, size_t row,
                                  char buf[GA_HEAT_PATH_LEN]);

#endif
