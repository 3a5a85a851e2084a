/* The tensor lengths a real kernel is called at, so that each input takes
 * one chosen code path of a vectorized library (compiled into the modules).
 *
 * A library's elementwise loop is several pieces of code: a vector body
 * over whole vectors (often two or four at a time), a remainder loop or a
 * masked tail for the last elements, and often a separate route for tiny
 * tensors (ATen skips oneDNN for one element).  Users reach all of them, and
 * they need not compute the same bits.  Each length below puts every input
 * in one of them:
 *
 *   long    the batch padded to a multiple of GA_REAL_BODY with copies of
 *           its last input: every input in the vector body;
 *   one     a call of one element per input;
 *   tail    calls of GA_REAL_BODY + GA_REAL_TAIL_INPUTS elements, the body
 *           filled with copies of the group's first input and three inputs
 *           in the last positions: the remainder after a full vector body.
 *
 * GA_REAL_BODY is a multiple of every vector loop step of the libraries
 * wrapped (at most two vectors of 32 bfloat16 lanes, AVX-512).  In every
 * length out[i] depends on in[i] alone, as the kernel ABI requires. */
#ifndef GA_REAL_CALL_LENGTH_H
#define GA_REAL_CALL_LENGTH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum ga_real_length { GA_REAL_LONG, GA_REAL_ONE, GA_REAL_TAIL };

enum { GA_REAL_BODY = 64, GA_REAL_TAIL_INPUTS = 3 };

/* The library's call on exactly n elements: operand a of the kernel in
 * in[a] (x; or dy then x for a backward kernel), the result into out. */
typedef void ga_real_body(void *ctx, const void *const *in, void *out, size_t n);

/* body on in[0..operands)[0..n) laid out at length, results into out[0..n).
 * Aborts when out of memory (the kernel runs in a worker process, which
 * reports it as a crash of that call). */
void ga_real_call_length(enum ga_real_length length, ga_real_body *body, void *ctx,
                         int operands, const void *const *in, void *out, size_t n,
                         size_t element_size);

#ifdef __cplusplus
}
#endif

#endif
