#include "grade/better.h"

double ga_better_distance(const struct ga_format *f, ga_bits y, const struct ga_error *e,
                          const struct ga_truth *t)
{
    if (ga_is_nan(f, t->rounded))
        return ga_is_nan(f, y) ? 0.0 : INFINITY;
    if (ga_is_nan(f, y) || (e->flags & GA_ERR_INF))
        return INFINITY;
    return e->ulp;
}

/* Whether y is a zero whose sign is the exact value's (the correctly
 * rounded result keeps that sign, zero or not). */
static bool zero_of_exact_sign(const struct ga_format *f, ga_bits y, const struct ga_truth *t)
{
    return (y & ~ga_sign_mask(f)) == 0 && ga_sign(f, y) == ga_sign(f, t->rounded);
}

enum ga_verdict ga_better_verdict(const struct ga_format *f, ga_bits a, const struct ga_error *ea,
                                  ga_bits b, const struct ga_error *eb, const struct ga_truth *t)
{
    double da, db;

    if (ga_same_encoding(f, a, b))
        return GA_VERDICT_SAME;
    da = ga_better_distance(f, a, ea, t);
    db = ga_better_distance(f, b, eb, t);
    if (db < da)
        return GA_VERDICT_BETTER;
    if (da < db)
        return GA_VERDICT_WORSE;
    if (ga_is_nan(f, t->rounded))
        return GA_VERDICT_TIED;
    /* equal distance: two zeros (+0 and -0), or outputs either side of f */
    if (zero_of_exact_sign(f, b, t) && (a & ~ga_sign_mask(f)) == 0)
        return GA_VERDICT_BETTER;
    if (zero_of_exact_sign(f, a, t) && (b & ~ga_sign_mask(f)) == 0)
        return GA_VERDICT_WORSE;
    return GA_VERDICT_TIED;
}
