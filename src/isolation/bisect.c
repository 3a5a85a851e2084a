/* Bisection for failing inputs (see bisect.h). */
#include "isolation/bisect.h"

bool ga_bisect_first(ga_probe_fn *probe, void *ctx, size_t n, size_t *first)
{
    size_t lo = 0, hi = n;
    bool seen = true;   /* [lo, hi) was itself seen failing, not inferred */

    /* Invariant: [lo, hi) holds the first failing input. */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        switch (probe(ctx, lo, mid - lo)) {
        case GA_PROBE_FAIL:
            hi = mid;
            seen = true;
            break;
        case GA_PROBE_PASS:   /* then [mid, hi) fails, if the kernel has no state */
            lo = mid;
            seen = false;
            break;
        default:
            return false;
        }
    }
    if (n == 0 || (!seen && probe(ctx, lo, 1) != GA_PROBE_FAIL))
        return false;
    *first = lo;
    return true;
}

bool ga_bisect_last(ga_probe_fn *probe, void *ctx, size_t first, size_t n, size_t *last)
{
    size_t lo = first, hi = n;

    /* Invariant: [lo, hi) holds a failing input, and none after it fails. */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        switch (probe(ctx, mid, hi - mid)) {
        case GA_PROBE_FAIL:
            lo = mid;
            break;
        case GA_PROBE_PASS:
            hi = mid;
            break;
        default:
            return false;
        }
    }
    *last = lo;
    return true;
}
