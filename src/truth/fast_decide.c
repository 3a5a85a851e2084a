/* Whether an interval [lo, hi] around an exact value rounds to one encoding
 * of the format and lies on one side of it: the test by which the fast
 * oracles' error bounds decide the rounding (fast.c, fast_grad.c). */
#include <math.h>

#include "truth/fast_internal.h"

int ga_fast_decide(const struct ga_format *f, double lo, double hi, struct ga_truth *out)
{
    ga_bits a, b;
    double value;

    /* float32 normal range, below the largest finite */
    if (f->id == GA_FLOAT32 && fabs(lo) >= 0x1p-126 && fabs(hi) >= 0x1p-126
        && fabs(lo) < 0x1p127 && fabs(hi) < 0x1p127) {
        a = ga_fast_round_float32_normal(lo);
        b = ga_fast_round_float32_normal(hi);
    } else {
        a = ga_encode(f, lo);
        b = ga_encode(f, hi);
    }
    if (a != b)
        return 0;
    value = ga_fast_decode(f, a);
    out->rounded = a;
    out->direction = lo > value ? 1 : hi < value ? -1 : 0;
    return out->direction != 0;
}
