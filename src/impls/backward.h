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
/* The factor k(x) of a kernel whose dx is the float product dy * k(x),
 * rounded into f: computed once per x by a sweep that holds x fixed. */
typedef float (*ga_backward_factor_fn)(const struct ga_format *f, float x);
/* The x-only terms of a kernel whose dy enters more than one product
 * (jax's): prepare computes them once per x, pair applies one dy to them. */
struct ga_backward_state {
    float v[4];
};
typedef void (*ga_backward_prepare_fn)(const struct ga_format *f, float x,
                                       struct ga_backward_state *s);
typedef float (*ga_backward_pair_fn)(const struct ga_format *f, float dy,
                                     const struct ga_backward_state *s);

struct ga_backward_impl {
    const char *name;
    unsigned formats;                 /* GA_FORMAT_BIT of each supported format */
    enum ga_function approximates;    /* GA_GELU_GRAD or GA_GELU_TANH_GRAD */
    const char *models;               /* the source it follows */
    const char *formula;
    const char *computes;             /* intermediate precision */
    ga_backward_scalar_fn scalar;
    /* NULL, or k with RN_f(scalar(dy, x)) = RN_f(dy * k(x)) bit for bit, any
     * NaN matching any NaN (a _native scalar rounds that product into f,
     * which changes nothing rounded into f once more, but drops a NaN's
     * sign; backward_fast_sweep_test checks it). */
    ga_backward_factor_fn factor;
    /* NULL, or prepare and pair with pair(dy, prepare(x)) = scalar(dy, x)
     * bit for bit (backward_models_test checks it); for a kernel without a
     * factor. */
    ga_backward_prepare_fn prepare;
    ga_backward_pair_fn pair;
};

size_t ga_backward_catalogue_count(void);
const struct ga_backward_impl *ga_backward_catalogue_at(size_t i);
const struct ga_backward_impl *ga_backward_catalogue_find(const char *name);
int ga_backward_supports(const struct ga_backward_impl *impl, const struct ga_format *f);

/* dx[i] = RN_f(scalar(dy[i], x[i])), i < n; through factor or prepare,
 * once per run of equal x, where the kernel has one. */
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
/* jax's form prepared: e, t, de and c of x once, then dy's products. */
void ga_grad_jax_prepare(const struct ga_format *f, float x, struct ga_backward_state *s);
float ga_grad_jax_pair(const struct ga_format *f, float dy, const struct ga_backward_state *s);
/* Their factors k(x) (every form but jax's, whose dy enters two terms: it
 * has prepare and pair instead). */
float ga_grad_pytorch_factor(const struct ga_format *f, float x);
float ga_grad_pytorch_native_factor(const struct ga_format *f, float x);
float ga_grad_pytorch_tanh_factor(const struct ga_format *f, float x);
float ga_grad_pytorch_tanh_native_factor(const struct ga_format *f, float x);
float ga_grad_megatron_factor(const struct ga_format *f, float x);
float ga_grad_megatron_native_factor(const struct ga_format *f, float x);
float ga_grad_llmc_factor(const struct ga_format *f, float x);
float ga_grad_quick_factor(const struct ga_format *f, float x);
float ga_grad_quick_native_factor(const struct ga_format *f, float x);

#endif
