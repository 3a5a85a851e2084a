/* Exact conversion between encodings and doubles, and correct rounding of a
 * double into a format (round to nearest, ties to even). */
#include "formats/format.h"

#include <math.h>

static int exponent_bias(const struct ga_format *f)
{
    return f->emax;
}

double ga_decode(const struct ga_format *f, ga_bits x)
{
    int mbits = ga_mantissa_bits(f);
    ga_bits magnitude = x & ~ga_sign_mask(f);
    ga_bits exponent = magnitude >> mbits;
    ga_bits mantissa = magnitude & (((ga_bits)1 << mbits) - 1);
    double v;

    switch (ga_classify(f, x)) {
    case GA_NAN:
        v = NAN;
        break;
    case GA_INFINITE:
        v = INFINITY;
        break;
    case GA_ZERO:
    case GA_SUBNORMAL:
        v = ldexp((double)mantissa, f->emin - mbits);
        break;
    default:
        v = ldexp((double)(mantissa | ((ga_bits)1 << mbits)),
                  (int)exponent - exponent_bias(f) - mbits);
        break;
    }
    return ga_sign(f, x) ? -v : v;
}

/* Encode a non-negative value that is already representable in f. */
static ga_bits encode_exact(const struct ga_format *f, double r)
{
    int mbits = ga_mantissa_bits(f);
    int e;

    if (r < ldexp(1.0, f->emin))  /* zero or subnormal: fixed grid */
        return (ga_bits)ldexp(r, mbits - f->emin);
    e = ilogb(r);
    return (ga_bits)(e + exponent_bias(f)) << mbits
         | ((ga_bits)ldexp(r, mbits - e) & (((ga_bits)1 << mbits) - 1));
}

ga_bits ga_encode(const struct ga_format *f, double v)
{
    bool negative = signbit(v) != 0;
    double a = fabs(v);
    int e, q;
    double rounded;

    if (isnan(v))
        return ga_quiet_nan(f) | (negative ? ga_sign_mask(f) : 0);
    if (a == 0.0 || isinf(a))
        return a == 0.0 ? ga_zero(f, negative) : ga_infinity(f, negative);
    e = ilogb(a);
    if (e > f->emax)
        return ga_infinity(f, negative);
    /* q: exponent of the ulp of the binade of a (subnormal ulp below emin).
     * a * 2^-q is exact in double; rint rounds it to nearest even. */
    q = (e < f->emin ? f->emin : e) - f->precision + 1;
    rounded = ldexp(rint(ldexp(a, -q)), q);
    if (rounded > ga_decode(f, ga_max_finite(f, false)))
        return ga_infinity(f, negative);
    return encode_exact(f, rounded) | (negative ? ga_sign_mask(f) : 0);
}

double ga_round(const struct ga_format *f, double v)
{
    return ga_decode(f, ga_encode(f, v));
}
