/* Backward kernels under test: dx = dy * d(x) as libraries compute it, for x
 * and dy encodings of one format.  The catalogue (backward_catalogue.c) is
 * one table; each entry names the derivative it approximates and the source
 * it follows, and is one scalar function (grad_*.c). */
#ifndef GA_BACKWARD_IMPL_H
#define GA_BACKWARD_IMPL_H

#include <stddef.h>

#include "formats/format.h"
#include "truth/function.h"

/* dx for one pair, as a float: the result is rounded into f once more by
 * the batch (exact for the _native forms, which round every operation). */
typedef float (*ga_backward_scalar_fn)(const struct ga_format *f, float dy, float x);

struct ga_backward_impl {
    const char *name;
    unsigned formats;                 /* GA_FORMAT_BIT of each supported format */
    enum ga_function approximates;    /* GA_GELU_GRAD or GA_GELU_TANH_GRAD */
    const char *models;               /* the source it follows */
    const char *formula;
    const char *computes;             /* intermediate precision */
    ga_backward_scalar_fn scalar;
};

size_t ga_backward_catalogue_count(void);
const struct ga_backward_impl *ga_backward_catalogue_at(size_t i);
const struct ga_backward_impl *ga_backward_catalogue_find(const char *name);
int ga_backward_supports(const struct ga_backward_impl *impl, const struct ga_format *f);

/* dx[i] = RN_f(scalar(dy[i], x[i])), i < n. */
void ga_backward_run(const struct ga_backward_impl *impl, const struct ga_format *f,
                     const ga_bits *dy, const ga_bits *x, ga_bits *dx, size_t n);

/* The scalar forms (grad_erf.c, grad_tanh.c, grad_quick.c). */
float ga_grad_pytorch(const struct ga_format *f, float dy, float x);
float ga_grad_pytorch_native(const struct ga_format *f, float dy, float x);
float ga_grad_jax(const struct ga_format *f, float dy, float x);
float ga_grad_pytorch_tanh(const struct ga_format *f, float dy, float x);
float ga_grad_pytorch_tanh_native(const struct ga_format *f, float dy, float x);
float ga_grad_megatron(const struct ga_format *f, float dy, float x);
float ga_grad_megatron_native(const struct ga_format *f, float dy, float x);
float ga_grad_llmc(const struct ga_format *f, float dy, float x);
float ga_grad_quick(const struct ga_format *f, float dy, float x);
float ga_grad_quick_native(const struct ga_format *f, float dy, float x);

#endif
