/* A measured result, as report writers see it: the summaries of every region
 * of one (implementation, format, reference), with what was measured. */
#ifndef GA_RESULT_H
#define GA_RESULT_H

#include <stdio.h>

#include "measure/sweep.h"
#include "report/model_proof.h"

/* Failing inputs, merged over the batches they run across, in domain order. */
#define GA_RESULT_SPANS 16

struct ga_failure_span {
    ga_bits first, last;             /* encodings: the first and last failing input */
    uint64_t batches;                /* failed batches the span runs over */
    char what[160];
};

/* Where a real library's row was measured and how it was called: the JSON
 * and CSV rows carry it, since its figures depend on the CPU's vector
 * dispatch.  cpu is NULL for the catalogue's rows, which do not. */
struct ga_result_machine {
    const char *cpu;       /* the CPU's model, as the system names it */
    const char *isa;       /* the extensions the libraries dispatch on ("avx2 fma ...") */
    const char *library, *version;
    const char *call;      /* the entry point and call style (contiguous, strided, ...) */
    const char *path;      /* the code path, as the library reports it */
    const char *lengths;   /* a long-tensor row: what one element and the remainder
                              length gave, against it (NULL: not checked) */
    const struct ga_model_proof *proof;  /* the model claimed to equal its kernel, as the
                                            page checked it (NULL: none claimed) */
};

struct ga_result {
    const char *impl, *models, *formula, *computes;
    const struct ga_format *format;
    enum ga_function approximates, reference;
    bool real;                       /* a real library, not a model (real/real.h) */
    char domain[GA_DOMAIN_SPEC_LEN];
    enum ga_oracle oracle;
    struct ga_summary region[GA_REGION_COUNT + 1];  /* [GA_REGION_ALL]: every input */
    bool failed;
    uint64_t failed_inputs, failed_batches;
    uint64_t skipped_inputs;         /* after the max_failures-th failed batch */
    size_t span_count;
    struct ga_failure_span spans[GA_RESULT_SPANS];
    uint64_t unlisted_spans;         /* spans (as batches reported them) after the last listed */
    const struct ga_profile *profile;     /* the measurement's, when it kept one */
    bool has_shape;                  /* the measurement kept a shape (measure/shape.h) */
    struct ga_shape shape;
    struct ga_result_machine machine;  /* real rows: set after ga_result_from_measurement */
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

/* The real libraries' part of a page (real/real.h): their results, the
 * machine they ran on, and what could not be measured.  Pages mark it
 * between <!-- machine --> ... <!-- /machine --> (a header line) and
 * <!-- real libraries --> ... <!-- /real libraries --> (the section), so
 * that a comparison on another machine can leave it out. */
struct ga_real_section {
    const struct ga_result *r;
    size_t n;
    const char *machine;        /* one line: CPU, ISA, library versions */
    const char *not_measured;   /* lines "name: why", or "" */
};

/* Whether row i of a real section is the first of its domain (rows graded
 * from files have their own): the pages name each domain once, with the
 * rows measured on it after the first. */
bool ga_real_section_new_domain(const struct ga_real_section *rs, size_t i);

/* Whether a row of the section says what its other tensor lengths gave
 * (engine/report_lengths.h): the pages then have a table of them. */
bool ga_real_section_has_lengths(const struct ga_real_section *rs);

/* Whether a row of the section records the check of the model claimed to
 * equal its kernel (engine/report_proofs.h): the pages then list them. */
bool ga_real_section_has_proofs(const struct ga_real_section *rs);

/* ga_write_markdown with the real libraries' section (rs NULL: none). */
int ga_write_markdown_page(FILE *out, const struct ga_format *f, const struct ga_result *r,
                           size_t n, const char *how_generated,
                           const struct ga_real_section *rs);

#endif
