/* The vectorized fast oracle for float32 gelu, gelu_tanh and their derivatives: the correctly
 * rounded result and its direction for arrays of float32 encodings, the same as ga_truth_fast's
 * `rounded` and `direction` for every input (doc/oracle.md, 'The vector
 * paths').  Only the certified facts: no `exact` value, so the sweeps, whose
 * error figures come from the scalar path's exact values, keep using it.
 *
 * Paths: scalar (ga_truth_fast on each input), portable (plain C over
 * arrays) and avx2 (AVX2 and FMA intrinsics).  The default is avx2 where the
 * CPU has AVX2 and FMA, portable otherwise; the environment variable
 * GELU_ACC_ORACLE_PATH=scalar|portable|avx2 forces one (avx2 on a CPU
 * without it, or any other value, gives scalar: never an untested guess).
 * Every path sends an input whose rounding its error bound cannot decide,
 * and every input outside the evaluated range that the thresholds do not
 * answer (zeros, infinities, NaNs, tiny |x|), to ga_truth_fast, and so to
 * MPFR where that one cannot decide.  Covers GA_GELU, GA_GELU_TANH,
 * GA_GELU_GRAD and GA_GELU_TANH_GRAD (every function there is). */
#ifndef GA_TRUTH_FAST_VEC_H
#define GA_TRUTH_FAST_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "truth/truth.h"

enum ga_vec_path { GA_VEC_SCALAR, GA_VEC_PORTABLE, GA_VEC_AVX2, GA_VEC_PATH_COUNT };

/* Whether the vector paths cover fn (the others take the scalar path). */
bool ga_vec_covers(enum ga_function fn);

/* "scalar", "portable", "avx2". */
const char *ga_vec_path_name(enum ga_vec_path p);

/* Whether this CPU can run p (scalar and portable: always). */
bool ga_vec_path_available(enum ga_vec_path p);

/* The path GELU_ACC_ORACLE_PATH or the CPU chooses (read once). */
enum ga_vec_path ga_vec_path_default(void);

/* rounded[i] and direction[i] of fn at the float32 encoding x[i], i < n, by
 * path p (scalar where p is not available or fn not covered).  Returns the
 * number of inputs left undecided by MPFR's precision cap: those hold a quiet
 * NaN and direction 0.  Thread-safe and deterministic. */
size_t ga_truth_f32_rounded(enum ga_function fn, enum ga_vec_path p, const ga_bits *x,
                            ga_bits *rounded, int8_t *direction, size_t n);

/* The backward truth RN(dy d(x)) of float32 pairs (x[i], dy[i]), i < n, d
 * the derivative fn (GA_GELU_GRAD, GA_GELU_TANH_GRAD): rounded[i] and
 * direction[i] as ga_backward_truth gives them, by path p
 * (fast_vec_backward.c).  Returns the number of pairs left undecided by
 * MPFR's precision cap (a quiet NaN, direction 0).  Thread-safe. */
size_t ga_backward_f32_rounded(enum ga_function fn, enum ga_vec_path p, const ga_bits *x,
                               const ga_bits *dy, ga_bits *rounded, int8_t *direction,
                               size_t n);

#endif
