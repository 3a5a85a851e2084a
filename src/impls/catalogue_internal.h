/* What the catalogue table (catalogue.c) needs from the implementation files:
 * the scalar forms.  Each file states at its top the formula it computes and
 * the library it models. */
#ifndef GA_CATALOGUE_INTERNAL_H
#define GA_CATALOGUE_INTERNAL_H

#include "impls/cast.h"
#include <stdint.h>

#include "formats/format.h"

/* On the definition of a form that calls fmaf(): a second copy for x86-64
 * CPUs with FMA, chosen when the program loads, where each fmaf() is one
 * instruction instead of a call into libm.  fmaf() is correctly rounded
 * either way, and contraction stays off (fp_contract.h), so both copies
 * give the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define GA_FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define GA_FMA_CLONES
#endif

/* Float32 forms ("opmath"): computed in float; a 16-bit input is widened to
 * float and the result rounded once to its format by the batch function. */
float ga_gelu_erf_f32(float x);            /* gelu_erf.c */
float ga_gelu_erfc_f32(float x);           /* gelu_erf.c */
float ga_gelu_erf_as_f32(float x);         /* gelu_erf_as.c */
float ga_gelu_erf_dnnl_f32(float x);       /* gelu_dnnl.c */
float ga_gelu_erf_dnnl_bf16(float x);      /* gelu_dnnl.c: float32, subnormals flushed */
float ga_gelu_tanh_fma_f32(float x);       /* gelu_tanh_forms.c */
float ga_gelu_tanh_f32(float x);           /* gelu_tanh_forms.c */
float ga_gelu_tanh_factored_f32(float x);  /* gelu_tanh_forms.c */
float ga_gelu_sigmoid_f32(float x);        /* gelu_tanh_forms.c */
float ga_gelu_quick_f32(float x);          /* gelu_quick.c */

/* Native forms for the 16-bit formats: every operation and every constant
 * rounded to f (native.h).  x is a value of f; so is the result. */
float ga_gelu_erf_native(const struct ga_format *f, float x);
float ga_gelu_erf_mlx_native(const struct ga_format *f, float x);
float ga_gelu_erf_torch_bf16(const struct ga_format *f, float x);
float ga_gelu_erfc_native(const struct ga_format *f, float x);
float ga_gelu_erf_as_native(const struct ga_format *f, float x);
float ga_gelu_tanh_native(const struct ga_format *f, float x);
float ga_gelu_tanh_factored_native(const struct ga_format *f, float x);
float ga_gelu_sigmoid_native(const struct ga_format *f, float x);
float ga_gelu_quick_native(const struct ga_format *f, float x);

/* The small formats (gelu_small.c): float32 erf GELU of x, an encoding of
 * f, converted once to f (ga_gelu_erf_cast from f to f, impls/cast.h). */
ga_bits ga_gelu_erf_small(const struct ga_format *f, ga_bits x, enum ga_small_conversion how);

/* The shipped tables of lut_small (gelu_lut_small_data.c): one entry per
 * encoding of each small format, NULL for a wide format. */
const uint8_t *ga_gelu_lut_small_table(const struct ga_format *f);

/* float64 forms, computed in double with glibc (gelu_f64.c). */
double ga_gelu_erf_f64(double x);
double ga_gelu_erfc_f64(double x);
double ga_gelu_tanh_f64(double x);

/* Exact GELU in double (gelu_double.c). */
double ga_gelu_double(double x);

/* ggml's float16 table (gelu_lut_f16.c).  The table holds, for each float16
 * encoding, the table entry as a float; it is built on first use, once, safely
 * from any number of threads. */
const float *ga_gelu_lut_f16_table(void);
/* ggml's float32 path: clamp, else round to float16 and look up. */
float ga_gelu_lut_f16_f32(const float *table, float x);
/* x rounded to nearest even float16, as an encoding; the fast path the
 * float32 lookup needs (ga_encode gives the same, slower). */
uint16_t ga_f16_bits_from_float(float x);

#endif
