/* gelu-acc report and merge --out as library calls: the catalogue and the
 * real libraries measured over each format, one page of tables per format
 * with its plots, the facts and the index written into a directory; or a
 * shard's share (--shard K/N --partial FILE, or a rank of mpirun) stored in
 * its partial; or the partials of the shards merged into the directory one
 * run writes, byte for byte.  The command line parses the options into a
 * job and prints what went wrong. */
#ifndef GA_ENGINE_RUN_REPORT_H
#define GA_ENGINE_RUN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/report_cost.h"
#include "measure/sweep.h"
#include "report/backward_section.h"
#include "report/real_outputs.h"

/* The float64 report's sample: 10^7 random encodings (random sign, exponent
 * and fraction, seed 1), then 10^7 of [-40, 10] on a fixed stride in value
 * order (about every 925 000th encoding). */
#define GA_REPORT_FLOAT64_DOMAIN "random:10000000:1,range:-40:10:10000000"

struct ga_report_job {
    const char *dir;                  /* --out DIR: the pages (NULL for a shard) */
    const char *partial;              /* --partial FILE: a shard's state (NULL: pages) */
    const char *formats;              /* names, comma-separated, each known and given once */
    const char *float32_domain;       /* float32's domain */
    const char *real_float32_domain;  /* the real libraries' in float32 (NULL: the same) */
    const char *float64_domain;       /* float64's domain */
    const struct ga_real_outputs *outputs;  /* --real-outputs manifests, read */
    size_t noutputs;
    struct ga_sweep_options options;  /* oracle, threads */
    bool force;                       /* write into a directory gelu-acc did not write */
    uint32_t shard, shards;           /* --shard K/N (1/1: the whole) */
    struct ga_backward_domains backward;  /* the backward sections' domains */
    /* called before each sweep with its options and a label: a progress
     * line (NULL: none) */
    void (*progress)(struct ga_sweep_options *so, const char *label);
    /* called after each format with what it cost (NULL: not wanted) */
    void (*cost)(const struct ga_format *f, const struct ga_report_cost *c, bool shard);
};

/* The job's --formats (each known, given once) and the backward domains of
 * those formats, checked before anything is measured: 0, or -1 with the
 * message. */
int ga_report_check_formats(const struct ga_report_job *job, char *why, size_t len);

/* Run the job.  A GA_ENGINE_* status; when not OK, why holds the message
 * ("report: ..."), or nothing when there is none to say. */
int ga_run_report(const struct ga_report_job *job, char *why, size_t len);

/* Merge the report partials names[0..n) into dir, as one run of the report
 * they share writes it (force as in the job).  A GA_ENGINE_* status, with
 * why as ga_run_report's ("merge: ..." when the files do not fit). */
int ga_run_report_merge(char **names, size_t n, const char *dir, bool force, char *why,
                        size_t len);

#endif
