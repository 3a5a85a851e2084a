/* Steps between encodings: next values, ulp, ordinal distance. */
#include "formats/format.h"

#include <math.h>
#include <string.h>

ga_bits ga_next_up(const struct ga_format *f, ga_bits x)
{
    switch (ga_classify(f, x)) {
    case GA_NAN:
        return x;
    case GA_ZERO:
        return ga_min_subnormal(f, false);
    case GA_INFINITE:
        return ga_sign(f, x) ? ga_max_finite(f, true) : x;
    default:
        /* Magnitudes are ordered like their encodings; without an
         * infinity the largest finite has nothing above it. */
        if (!ga_sign(f, x))
            return x + 1 == ga_finite_end(f) && !ga_has_infinity(f) ? x : x + 1;
        return x == ga_min_subnormal(f, true) ? ga_zero(f, true) : x - 1;
    }
}

ga_bits ga_next_down(const struct ga_format *f, ga_bits x)
{
    if (ga_is_nan(f, x))
        return x;
    return ga_negate(f, ga_next_up(f, ga_negate(f, x)));
}

int ga_ulp_exponent(const struct ga_format *f, int e)
{
    return (e < f->emin ? f->emin : e) - f->precision + 1;
}

double ga_ulp(const struct ga_format *f, double v)
{
    double a = fabs(v), power;
    int e = (a == 0.0 || isinf(a) || isnan(a)) ? f->emin : ilogb(a);
    if (isinf(a))
        e = f->emax;
    int k = ga_ulp_exponent(f, e);
    uint64_t bits = (uint64_t)(k + 1023) << 52;  /* 2^k from its bits where normal (sweeps) */

    if (k < -1022 || k > 1023)
        return ldexp(1.0, k);
    memcpy(&power, &bits, sizeof power);
    return power;
}

int64_t ga_ordinal(const struct ga_format *f, ga_bits x)
{
    int64_t magnitude = (int64_t)(x & ~ga_sign_mask(f));
    return ga_sign(f, x) ? -magnitude : magnitude;
}

uint64_t ga_distance(const struct ga_format *f, ga_bits a, ga_bits b)
{
    int64_t oa = ga_ordinal(f, a), ob = ga_ordinal(f, b);  /* float64: up to 2^63 apart */
    return oa >= ob ? (uint64_t)oa - (uint64_t)ob : (uint64_t)ob - (uint64_t)oa;
}
