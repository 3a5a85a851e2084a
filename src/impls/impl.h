/* An implementation under test: a batch function over encodings of one
 * format, with what it models.  The catalogue (catalogue.c) is one table of
 * these; plugins and graded output files are wrapped in the same struct. */
#ifndef GA_IMPL_H
#define GA_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/format.h"
#include "truth/function.h"

#define GA_FORMAT_BIT(id) (1u << (id))

/* Spans of failing inputs a failed batch reports at most. */
#define GA_RUN_SPANS 8

/* Why a batch failed (a plugin that crashed or hung): what happened, and
 * where, as indices into the batch: [first, last] from the first failing
 * input to the last, and within it span_count runs of failing inputs in
 * order (0: the one span [first, last]). */
struct ga_run_failure {
    size_t first, last;
    size_t span_count;
    struct { size_t first, last; } span[GA_RUN_SPANS];
    char what[160];
};

struct ga_impl;

/* Computes out[i] for in[i], i < n, all encodings of f.  Returns 0, or -1
 * with *failure filled in. */
typedef int (*ga_batch_fn)(const struct ga_impl *impl, const struct ga_format *f,
                           const ga_bits *in, ga_bits *out, size_t n,
                           struct ga_run_failure *failure);

struct ga_impl {
    const char *name;        /* stable: reports and users' scripts refer to it */
    unsigned formats;        /* GA_FORMAT_BIT of each format it supports */
    enum ga_function approximates;
    const char *models;      /* the library it models, e.g. "PyTorch exact GELU (CUDA/CPU)" */
    const char *formula;     /* the formula as computed, e.g. "x*0.5*(1 + erf(x*M_SQRT1_2))" */
    const char *computes;    /* intermediate precision, e.g. "float32 with erff, rounded once" */
    ga_batch_fn run;
    const void *data;        /* the entry's own: a scalar function, a plugin handle... */
    bool real;               /* a real library (real/real.h), not a model of one */
};

static inline int ga_impl_supports(const struct ga_impl *impl, const struct ga_format *f)
{
    return (impl->formats & GA_FORMAT_BIT(f->id)) != 0;
}

/* The built-in catalogue, in a fixed order. */
size_t ga_catalogue_count(void);
const struct ga_impl *ga_catalogue_at(size_t i);
/* NULL when no entry has that name. */
const struct ga_impl *ga_catalogue_find(const char *name);

#endif
