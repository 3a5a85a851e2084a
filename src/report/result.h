/* A measured result, as report writers see it: the summaries of every region
 * of one (implementation, format, reference), with what was measured. */
#ifndef GA_RESULT_H
#define GA_RESULT_H

#include <stdio.h>

#include "sweep/sweep.h"

struct ga_result {
    const char *impl, *models, *formula, *computes;
    const struct ga_format *format;
    enum ga_function approximates, reference;
    char domain[GA_DOMAIN_SPEC_LEN];
    enum ga_oracle oracle;
    struct ga_summary region[GA_REGION_COUNT + 1];  /* [GA_REGION_ALL]: every input */
    bool failed;
    uint64_t failed_inputs, failed_batches;
    struct ga_run_failure failure;   /* the first failure (domain indices) */
    /* the first failing input of the first failed batch, the last of the last */
    ga_bits failure_first, failure_last;
    const struct ga_profile *profile;     /* the measurement's, when it kept one */
};

/* Summarize a measurement.  A NULL impl (graded outputs) takes `name`. */
int ga_result_from_measurement(struct ga_result *r, const struct ga_measurement *m,
                               const struct ga_domain *d, enum ga_oracle oracle,
                               const char *name);

/* Writers; each returns 0, or -1 on a write error. */
int ga_write_text(FILE *out, const struct ga_result *r);
int ga_write_json(FILE *out, const struct ga_result *r, size_t n);
int ga_write_csv(FILE *out, const struct ga_result *r, size_t n);
/* A Markdown page of error tables for one format. */
int ga_write_markdown(FILE *out, const struct ga_format *f, const struct ga_result *r,
                      size_t n, const char *how_generated);

#endif
