/* Finding the inputs that make a kernel fail, by bisection.
 *
 * probe(ctx, first, count) runs the kernel on inputs [first, first + count)
 * and says whether that fails.  A kernel without state fails on a range
 * exactly when some input in it fails on its own; under that assumption the
 * searches below return inputs that fail on their own, with one probe per
 * halving. */
#ifndef GA_BISECT_H
#define GA_BISECT_H

#include <stdbool.h>
#include <stddef.h>

enum ga_probe_result { GA_PROBE_PASS, GA_PROBE_FAIL, GA_PROBE_ERROR };

typedef enum ga_probe_result ga_probe_fn(void *ctx, size_t first, size_t count);

/* [0, n) is known to fail.  Sets *first to its first failing input and
 * returns true, or returns false when a probe errs or the failure does not
 * reproduce on smaller ranges.  At most ceil(log2 n) + 1 probes. */
bool ga_bisect_first(ga_probe_fn *probe, void *ctx, size_t n, size_t *first);

/* Input first fails; [first, n) holds the last failing input.  Sets *last
 * and returns true, or false when a probe errs.  At most ceil(log2(n -
 * first)) probes. */
bool ga_bisect_last(ga_probe_fn *probe, void *ctx, size_t first, size_t n, size_t *last);

#endif
