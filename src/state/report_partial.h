/* The partial state of a report shard ('gelu-acc report --shard K/N
 * --partial FILE', and each rank under mpirun): for every format of the
 * report, the partial of each measurement of its plan (partial.h, complete
 * for shard K of N of that measurement's domain) and its error profile
 * (profile.h), its backward section's shard (backward_partial.h), with the
 * options that shape the report.  The shards of one report merge
 * measurement by measurement, exactly (ga_partials_merge, ga_profile_merge,
 * ga_backward_partials_merge), into the figures and plots of one process.
 * The file: magic, version, options, then the formats; described in
 * doc/partial-format.md. */
#ifndef GA_REPORT_PARTIAL_H
#define GA_REPORT_PARTIAL_H

#include "formats/format.h"
#include "state/backward_partial.h"
#include "state/partial.h"
#include "measure/profile.h"

struct ga_report_partial_format {
    const struct ga_format *format;
    size_t count;
    struct ga_partial **parts;       /* count entries */
    struct ga_profile **profiles;    /* count entries, NULL: no profile */
    struct ga_backward_partial *backward;  /* the backward section's shard, or NULL */
    /* The last `graded` of the parts are rows graded from the files of
     * --real-outputs manifests; what the page says of those manifests: */
    size_t graded;
    char graded_libraries[512];      /* "onnxruntime-node 1.30.0, ...", or "" */
    char graded_not_measured[4096];  /* their unsupported sections, one line each */
    /* where and how each graded section ran, as its manifest says: a line
     * "name\tcpu\tisa\tlibrary\tversion\tcall\tpath" each (report/plan.h) */
    char graded_machine[16384];
};

struct ga_report_partial {
    char program[64];
    char formats[256];
    char float32_domain[GA_DOMAIN_SPEC_LEN], real_float32_domain[GA_DOMAIN_SPEC_LEN];
    char float64_domain[GA_DOMAIN_SPEC_LEN];
    /* The backward sections' options: none, or the domains of bfloat16,
     * float16 and float32 ("" for the default). */
    bool no_backward;
    char backward_domain[3][GA_DOMAIN_SPEC_LEN];
    enum ga_oracle oracle;
    uint32_t shard, shards;
    size_t nformats;
    struct ga_report_partial_format format[GA_FORMAT_COUNT];
};

/* Room for count measurements of format f at the next format entry (none
 * of them graded from files until the caller says so): 0, or -1 when out
 * of memory or every entry is taken. */
int ga_report_partial_add_format(struct ga_report_partial *rp, const struct ga_format *f,
                                 size_t count);
void ga_report_partial_free(struct ga_report_partial *rp);

enum ga_io_status ga_report_partial_encode(const struct ga_report_partial *rp,
                                           unsigned char **data, size_t *size,
                                           struct ga_io_error *err);
/* *rp is filled (free it with ga_report_partial_free, even on failure). */
enum ga_io_status ga_report_partial_decode(const unsigned char *data, size_t size,
                                           struct ga_report_partial *rp,
                                           struct ga_io_error *err);
/* Why the shards of ga_report_partials_merge are not one report. */
struct ga_report_merge_problem {
    bool no_memory;
    size_t index;          /* the part that does not fit */
    const char *impl;      /* the measurement that does not merge, or NULL */
    const char *format;
    const char *what;      /* a few words */
    bool missing;          /* shards are missing: which in `detail` */
    char detail[160];      /* "shard 2/3 is missing (1 of 3)" */
};

/* Merge n shards of one report (same program, formats, domains, oracle,
 * plan; every shard once, finished) into *out, shard 1 of 1, measurement by
 * measurement; free *out with ga_report_partial_free in every case.  0, or
 * -1 and *why. */
int ga_report_partials_merge(struct ga_report_partial *parts, size_t n,
                             struct ga_report_partial *out, struct ga_report_merge_problem *why);

/* Whether data starts as a report partial does (merge tells them apart). */
bool ga_report_partial_is(const unsigned char *data, size_t size);

/* The run protocol (state/run.h) bound to report partials: saved, loaded
 * and merged with the words 'report' and 'merge' print. */
#define GA_REPORT_PARTIAL_MAX_BYTES ((size_t)1 << 30)
struct ga_run_kind;
extern const struct ga_run_kind ga_report_run_kind;

#endif
