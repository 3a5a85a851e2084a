/* Region names, descriptions and bounds. */
#include "grade/region.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *name;
    const char *description;
} regions[GA_REGION_COUNT + 1] = {
    [GA_REGION_FAR_LEFT] = { "far_left", "x < -3 where the correctly rounded result is zero (the truth underflows)" },
    [GA_REGION_LEFT_TAIL] = { "left_tail", "x < -3 where the correctly rounded result is nonzero" },
    [GA_REGION_CORE] = { "core", "2^-10 <= |x| <= 3" },
    [GA_REGION_TINY] = { "tiny", "0 < |x| < 2^-10, where gelu(x) is x/2 to within 0.08 %" },
    [GA_REGION_RIGHT] = { "right", "x > 3" },
    [GA_REGION_SPECIAL] = { "special", "NaN, +-inf and +-0" },
    [GA_REGION_ALL] = { "all", "every input" },
};

void ga_region_bounds_init(struct ga_region_bounds *b, const struct ga_format *f)
{
    b->sign_mask = ga_sign_mask(f);
    /* Both bounds are representable in the wide formats.  Where 2^-10 is
     * not (below the smallest subnormal of float8_e4m3fn and the float6 and
     * float4 formats), the tiny bound is the least value above it, so that
     * the tiny region is still |x| < 2^-10 (empty there), never the zeros. */
    b->tiny = ga_encode(f, ldexp(1.0, GA_REGION_TINY_EXP));
    if (ga_decode(f, b->tiny) < ldexp(1.0, GA_REGION_TINY_EXP))
        b->tiny = ga_next_up(f, b->tiny) & ~b->sign_mask;
    b->tail = ga_encode(f, GA_REGION_TAIL_BOUND);
    b->inf = ga_finite_end(f);
    b->nan = ga_nan_from(f);
}

const char *ga_region_name(enum ga_region r)
{
    return (unsigned)r <= GA_REGION_ALL ? regions[r].name : NULL;
}

const char *ga_region_description(enum ga_region r)
{
    return (unsigned)r <= GA_REGION_ALL ? regions[r].description : NULL;
}

int ga_region_by_name(const char *name, enum ga_region *r)
{
    for (int i = 0; i <= GA_REGION_ALL; i++)
        if (strcmp(regions[i].name, name) == 0) {
            *r = (enum ga_region)i;
            return 0;
        }
    return -1;
}
