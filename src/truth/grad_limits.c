#include "truth/grad_limits.h"

#include <math.h>

int ga_grad_special(const struct ga_format *f, ga_bits x, struct ga_truth *out)
{
    double xd = ga_decode(f, x);

    if (!(isnan(xd) || isinf(xd) || xd == 0))
        return 0;
    out->direction = 0;  /* each result is exact (the limit, for +-inf) */
    out->exact.exp = 0;
    out->tail = 0.0f;
    if (isnan(xd)) {
        out->rounded = ga_quiet_nan(f);
        out->exact.mant = NAN;
    } else if (xd < 0 && isinf(xd)) {  /* d(-inf) = -0 */
        out->rounded = ga_zero(f, true);
        out->exact.mant = -0.0;
    } else if (isinf(xd)) {            /* d(+inf) = 1 */
        out->rounded = ga_encode(f, 1.0);
        out->exact.mant = 0.5;
        out->exact.exp = 1;
    } else {                           /* d(+-0) = Phi(0) = 1/2 */
        out->rounded = ga_encode(f, 0.5);
        out->exact.mant = 0.5;
    }
    return 1;
}

void ga_grad_one_from_above(const struct ga_format *f, struct ga_truth *out)
{
    out->rounded = ga_encode(f, 1.0);
    out->direction = 1;
    out->exact.mant = 0.5;
    out->exact.exp = 1;
    out->tail = 0.0f;  /* f - 1 is below 2^GA_EXACT_EXP_MIN */
}

void ga_grad_bounds(double x, double *lower, double *upper)
{
    *lower = x >= 1 ? 1.0 : -INFINITY;  /* d(x) > 1 */
    *upper = x <= -1 ? 0.0 : INFINITY;  /* d(x) < 0 */
}
