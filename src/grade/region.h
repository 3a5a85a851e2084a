/* Input regions: a sweep's statistics are kept per region, and "all" is their
 * union.  Every input falls in exactly one region, decided from the input
 * encoding and, in the left tail, from whether the truth rounds to zero. */
#ifndef GA_REGION_H
#define GA_REGION_H

#include "formats/format.h"

/* Listed left to right along the real line, specials last. */
enum ga_region {
    GA_REGION_FAR_LEFT,   /* x < -3, correctly rounded result +-0 (the truth underflows) */
    GA_REGION_LEFT_TAIL,  /* x < -3, correctly rounded result nonzero */
    GA_REGION_CORE,       /* 2^-10 <= |x| <= 3 */
    GA_REGION_TINY,       /* 0 < |x| < 2^-10 */
    GA_REGION_RIGHT,      /* x > 3 */
    GA_REGION_SPECIAL,    /* NaN, +-inf, +-0 */
    GA_REGION_COUNT,
    GA_REGION_ALL = GA_REGION_COUNT  /* every input: the union of the above */
};

/* |x| = 3: where the left tail starts to cancel (doc/mathematics.md,
 * 'Cancellation in the usual formulas') and the end of the range PyTorch's
 * OpInfo samples. */
#define GA_REGION_TAIL_BOUND 3.0
/* |x| < 2^-10: gelu(x) = (x/2)(1 + 0.798 x + O(x^3)) is x/2 to within 0.08 %,
 * so this region shows how the smallest inputs and subnormals are treated. */
#define GA_REGION_TINY_EXP (-10)

/* The region bounds of one format as magnitudes of encodings (magnitudes are
 * ordered like values), so that classifying an input is a few compares. */
struct ga_region_bounds {
    ga_bits sign_mask;
    ga_bits tiny;      /* magnitude of 2^-10: tiny below it */
    ga_bits tail;      /* magnitude of 3: core up to it, included */
    ga_bits inf;       /* first magnitude that is not finite (infinity's): special from it up */
    ga_bits nan;       /* first NaN magnitude (inf + 1 in the IEEE layout) */
};

void ga_region_bounds_init(struct ga_region_bounds *b, const struct ga_format *f);

/* The region of input x whose correctly rounded result is `rounded`. */
static inline enum ga_region ga_region_of(const struct ga_region_bounds *b, ga_bits x,
                                          ga_bits rounded)
{
    ga_bits mag = x & ~b->sign_mask;
    if (mag == 0 || mag >= b->inf)
        return GA_REGION_SPECIAL;
    if (mag < b->tiny)
        return GA_REGION_TINY;
    if (mag <= b->tail)
        return GA_REGION_CORE;
    if (!(x & b->sign_mask))
        return GA_REGION_RIGHT;
    return (rounded & ~b->sign_mask) == 0 ? GA_REGION_FAR_LEFT : GA_REGION_LEFT_TAIL;
}

/* "far_left", ..., "all"; NULL outside the enum. */
const char *ga_region_name(enum ga_region r);
/* One line for reports. */
const char *ga_region_description(enum ga_region r);
/* Returns 0 and sets *r, or -1 for an unknown name. */
int ga_region_by_name(const char *name, enum ga_region *r);

#endif
