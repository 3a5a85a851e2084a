/* The truth of blocks of inputs, for the public library: from a table for a
 * format of at most 16 bits (every encoding's truth, computed on first use
 * by the same fast oracle as every sweep, once per function and format and
 * then shared by all threads), from the fast oracle otherwise (with MPFR
 * where its bound does not decide; MPFR alone for float64's derivatives). */
#ifndef GA_API_TRUTH_BLOCK_H
#define GA_API_TRUTH_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "truth/truth.h"

/* Whether f's truths come from a table. */
static inline int ga_api_tabled(const struct ga_format *f)
{
    return f->bits <= 16;
}

/* The table of fn's truth for every encoding of f (ga_api_tabled), and the
 * same correctly rounded encodings alone (the golden's lookup: 128 KiB for
 * a 16-bit format) into *out: GELU_ACC_OK, or a status with the message
 * (out of memory, or an input the oracle could not decide). */
struct ga_api_table {
    const struct ga_truth *truth;
    const uint16_t *rounded;
};
int ga_api_table(enum ga_function fn, const struct ga_format *f, const struct ga_api_table **out);

/* t[i] = the truth of x[i], i < n.  GELU_ACC_OK, or a status with the
 * message (GELU_ACC_E_UNDECIDED names the input). */
int ga_api_truths(enum ga_function fn, const struct ga_format *f, const ga_bits *x,
                  struct ga_truth *t, size_t n);

/* t[i] = the backward truth RN(dy[i] d(x[i])), d the derivative of forward
 * (GA_GELU or GA_GELU_TANH), i < n; d(x) computed once for a run of equal
 * x.  GELU_ACC_OK, or GELU_ACC_E_UNDECIDED with the message. */
int ga_api_backward_truths(enum ga_function forward, const struct ga_format *f, const ga_bits *x,
                           const ga_bits *dy, struct ga_truth *t, size_t n);

/* MPFR's caches are per thread: a public call that may have used MPFR frees
 * its thread's before returning, so that a thread of the caller's that
 * ends loses nothing. */
void ga_api_call_done(void);

#endif
