/* The bounds of a backward kernel in a baseline file.  A section whose
 * 'reference' is a derivative (gelu_grad, gelu_tanh_grad) records a backward
 * kernel ('kernel' a backward catalogue name or plugin:lib.so:symbol,
 * 'domain' a pair domain, 'dy' the fixed dy of an x domain), with these
 * bounds, each also as root.KEY for the root region x in [-1, -0.5]:
 *
 *   max_ulp = 0.5            max_dy_ulp = 0.5     (grow: exceeded)
 *   sign_errors = 0          nan = 0              wrong_zero_sign = 0
 *   correctly_rounded = 1000 faithful = 1000      (fall: exceeded)
 *
 * nan counts NaN outputs where the truth is not, and the reverse. */
#ifndef GA_BACKWARD_BOUNDS_H
#define GA_BACKWARD_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grade/backward_stats.h"

enum ga_backward_key {
    GA_BW_MAX_ULP, GA_BW_MAX_DY_ULP,                   /* numbers */
    GA_BW_SIGN_ERRORS, GA_BW_NAN, GA_BW_ZERO_SIGN,     /* counts that must not grow */
    GA_BW_CORRECT, GA_BW_FAITHFUL,                     /* counts that must not fall */
    GA_BW_KEY_COUNT
};

/* [0]: all pairs, [1]: the root region. */
struct ga_backward_bounds {
    bool has[2][GA_BW_KEY_COUNT];
    double ulp[2][2];                   /* GA_BW_MAX_ULP, GA_BW_MAX_DY_ULP */
    uint64_t count[2][GA_BW_KEY_COUNT];
};

/* "KEY" or "root.KEY": sets *region and *key and returns 0, or -1 when key
 * is no backward bound. */
int ga_backward_bound_key(const char *key, int *region, enum ga_backward_key *k);

/* The value of a bound.  0, or -1 with a message in why. */
int ga_backward_bound_parse(struct ga_backward_bounds *b, int region, enum ga_backward_key k,
                            const char *value, char *why, size_t why_size);

/* Every bound, as measured (max_ulp rounded up to 4 digits). */
void ga_backward_bounds_write(FILE *out, const struct ga_format *f,
                              const struct ga_backward_stats *st);

/* One line per exceeded bound ("name: root.faithful 1000 -> 990; worst
 * pair ..."); returns their number. */
int ga_backward_bounds_compare(FILE *out, const char *name, const struct ga_format *f,
                               const struct ga_backward_bounds *b,
                               const struct ga_backward_stats *st);

#endif
