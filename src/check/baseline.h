/* Baseline files: the recorded accuracy of each kernel, in plain text that
 * reads well in a code review diff (in the spirit of glibc's libm-test-ulps).
 *
 *   # comment
 *   [name]                          one section per kernel
 *   kernel = erf                    a catalogue name,
 *   kernel = plugin:lib.so:symbol   a shared-library kernel (path relative
 *                                   to the baseline file),
 *   kernel = outputs:out.npy        or outputs computed elsewhere, with
 *   inputs = in.npy                 the inputs they answer (npy or raw)
 *   format = float32
 *   reference = gelu                (or gelu_tanh)
 *   domain = all                    (catalogue and plugin kernels)
 *   timeout = 10                    plugins: seconds per kernel call
 *   max_failures = 5                plugins: stop at the 5th failed batch
 *   snapshot = release.npy          the kernel's outputs recorded earlier over
 *                                   the same inputs (sweep --save-outputs,
 *                                   path relative to the baseline file):
 *                                   check then names the inputs whose class
 *                                   changed
 *   max_ulp = 2.5                   bounds over all inputs ...
 *   correctly_rounded = 1048000
 *   flushed_to_zero = 0
 *   nan = 0
 *   inf = 0
 *   wrong_zero_sign = 0
 *   faithful_interval = 0xc0a40000 inf
 *   zero_below = none
 *   left_tail.max_ulp = 2.5         ... and per region (region.h names)
 *
 * Read strictly (doc/baselines.md): lines as text_line.h reads them; a
 * comment runs from a '#' that starts the line or follows a blank; section
 * names are unique; each key appears at most once per section, 'format'
 * before the bounds, 'inputs' only with outputs: kernels and 'domain' only
 * without; values that do not fit their field are refused, never cut;
 * max_ulp is a number >= 0 within the double range or inf, counts are
 * decimal below 2^64, a faithful interval has LO < 0 < HI.
 *
 * A bound is exceeded when max_ulp or a count of failures grows, when
 * correctly_rounded falls, when the faithful interval shrinks, or when the
 * input below which every output is 0 moves up.
 *
 * A section whose reference is a derivative records a backward kernel, with
 * its own bounds (backward_bounds.h) and an optional 'dy'. */
#ifndef GA_BASELINE_H
#define GA_BASELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check/backward_bounds.h"
#include "domain/domain.h"
#include "grade/stats.h"
#include "grade/witness.h"

/* The bounds of one region (or all inputs). */
struct ga_bounds {
    bool present;                  /* any line for this region */
    bool has_max_ulp, has_correct, has_flushed, has_nan, has_inf, has_zero_sign;
    double max_ulp;
    uint64_t correctly_rounded, flushed_to_zero, nan, inf, wrong_zero_sign;
    bool has_interval;
    struct ga_faithful_interval faithful_interval;
    bool has_zero_below;
    bool zero_below_exists;
    ga_bits zero_below;
};

struct ga_baseline_entry {
    char name[128];
    char kernel[1024];             /* as written */
    char inputs[1024];             /* for outputs: kernels */
    const struct ga_format *format;
    enum ga_function reference;
    char domain[GA_DOMAIN_SPEC_LEN];
    double timeout_s;              /* 0: not given */
    uint64_t max_failures;         /* 0: not given */
    struct ga_bounds region[GA_REGION_COUNT + 1];  /* [GA_REGION_ALL]: all inputs */
    int line;                      /* of the section header */
    bool backward;                 /* reference is a derivative */
    char dy[64];                   /* backward: the fixed dy of an x domain ("" : 1) */
    char snapshot[1024];           /* outputs of an earlier version ("" : none) */
    struct ga_backward_bounds backward_bounds;
};

struct ga_baseline {
    struct ga_baseline_entry *entries;
    size_t count;
};

/* Parse a baseline.  Returns 0, or -1 with "FILE:LINE: what" in err. */
int ga_baseline_read(const char *path, struct ga_baseline *b, char *err, size_t errlen);
/* The same from text in memory (io/section_file.h, ga_section_file_read_text). */
int ga_baseline_read_text(const char *name, const char *text, int first_line,
                          struct ga_baseline *b, char *err, size_t errlen);
void ga_baseline_free(struct ga_baseline *b);

/* Write an entry with bounds taken from measured summaries (index
 * GA_REGION_ALL for all inputs).  max_ulp is rounded up to 4 significant
 * digits, so that the value read back bounds the measured one. */
int ga_baseline_write_entry(FILE *out, const struct ga_baseline_entry *e,
                            const struct ga_summary summary[GA_REGION_COUNT + 1]);

/* A backward entry with bounds taken from a measurement. */
int ga_baseline_write_backward_entry(FILE *out, const struct ga_baseline_entry *e,
                                     const struct ga_backward_stats *st);

/* Compare measured summaries with an entry's bounds; print one line per
 * exceeded bound to out ("name: metric old -> new, worst input ...").
 * Returns the number of exceeded bounds. */
int ga_baseline_compare(FILE *out, const struct ga_baseline_entry *e,
                        const struct ga_summary summary[GA_REGION_COUNT + 1]);

/* The inputs a count's line names (doc/baselines.md, "Which input a line
 * names"), per region (index GA_REGION_ALL: all) and kind: entered[r][w]
 * one that was not of kind w in a snapshot (old_y its output there), now
 * one of kind w (an example, when there is no snapshot or no input entered
 * the kind).  Points without .has are absent. */
struct ga_baseline_named {
    struct ga_point entered[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    ga_bits old_y[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
    struct ga_point now[GA_REGION_COUNT + 1][GA_WITNESS_COUNT];
};

/* ga_baseline_compare naming those inputs (NULL: the summary's first
 * faults, "e.g."): a line about a count names an input of that count's
 * kind, never the worst input of another figure. */
int ga_baseline_compare_named(FILE *out, const struct ga_baseline_entry *e,
                              const struct ga_summary summary[GA_REGION_COUNT + 1],
                              const struct ga_baseline_named *named);


#endif
