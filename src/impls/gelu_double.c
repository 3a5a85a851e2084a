/* Exact GELU evaluated in double and rounded once to the format:
 * 0.5*x*erfc(-x/sqrt2) with the C library's erfc.
 *
 * Models no library: it shows what an implementation a little wider than
 * its format achieves.  Its error before the final rounding is a few double
 * ulps, amplified by erfc's condition number (about 2z^2, z = -x/sqrt2) in the
 * left tail: at most ~400 double ulps before float32 underflows (x ~ -14.2),
 * still about 2^-44 relative, so nearly every result is correctly rounded. */
#include "formats/fp_contract.h"

#include <math.h>

#include "impls/catalogue_internal.h"

/* NaN -> NaN; +inf -> inf*erfc(-inf) = inf*2 = +inf;
 * -inf -> (-inf)*erfc(+inf) = -inf*(+0) = NaN (the formula, unrepaired);
 * -0 -> -0*erfc(+0) = -0; +0 -> +0. */
double ga_gelu_double(double x)
{
    double half_x = 0.5 * x;
    return half_x * erfc(-x / M_SQRT2);
}
