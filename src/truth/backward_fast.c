/* RN_F(dy * d) from d = gm 2^ge known to 2^-52 relatively (grad_value.c),
 * in double arithmetic, for dy finite and not 0 (the rest is special).
 *
 * dy = dm 2^de with 0.5 <= |dm| < 1 (frexp, exact); pm = RN(dm gm) with
 * 0.25 <= |pm| < 1 and T = dy d the exact product:
 *   |pm 2^e - T| <= ((1 + 2^-52)(1 + 2^-53) - 1) |T| < 2^-51 |T|,  e = de + ge,
 * so |v - T| <= 2^-51 (1 + 2^-50) |v| for v = pm 2^e.
 * Far below F: e <= emin - p - 1 gives |T| < 2^(emin-p-1) (1 + 2^-50), less
 * than half the smallest subnormal 2^(emin-p+1): a zero of T's sign.
 * Far above: e >= emax + 3 gives |T| >= 2^(emax+1) (1 - 2^-50), beyond the
 * overflow threshold 2^(emax+1) (1 - 2^-(p+1)): infinity.
 * Between, v = ldexp(pm, e) is an exact normal double (|v| >= 2^-154), and
 *   a = RN(v - m), b = RN(v + m),  m = |v| 2^-49 (exact),
 * enclose T: |a - (v - m)| <= 2^-53 |v| (1 + 2^-49), and
 * 2^-49 - 2^-52.9 > 2^-51 (1 + 2^-50), so a < T < b.  Rounding is monotone:
 * when a and b round to the same r, so does T, and T lies on the side of r
 * that [a, b] lies on once r is outside it.  Otherwise the product is within
 * about 2^-48 relatively of a rounding boundary or of r itself: the caller
 * asks MPFR (for bfloat16, about one pair in 2^40).
 *
 * That happens for every dy where d is within 2^-48 of 1/2 (tiny x) or 1
 * (x beyond 5): dy d is next to dy/2 or dy.  There d = base + delta
 * (grad_value.c) and T = t + dy delta with t = dy base exact in double;
 * e = RN(dy delta) is within 2^-51 of dy delta relatively.  When
 * |e| (1 + 2^-50) < ulp(t)/4, T lies closer to t than any midpoint around
 * it (a midpoint is at least half the smaller gap, ulp(t)/4 below a power
 * of 2, away), so: t representable gives RN(T) = t on the side of e; t not
 * representable is a midpoint itself (an odd subnormal halved), and T
 * rounds to the neighbour on e's side. */
#include <math.h>

#include "truth/backward.h"

static struct ga_exact normalized(double pm, long e)
{
    struct ga_exact x = { pm, e };

    if (fabs(pm) < 0.5) {  /* 0.25 <= |pm| < 0.5 */
        x.mant = pm * 2;
        x.exp = e - 1;
    }
    if (x.exp < GA_EXACT_EXP_MIN) {
        x.mant = pm < 0 ? -0.5 : 0.5;
        x.exp = GA_EXACT_EXP_MIN;
    }
    return x;
}

/* The case above; 0 when e is too large for it (the general path decides). */
static int near_base(const struct ga_format *f, const struct ga_grad_value *g, double dyd,
                     struct ga_truth *out)
{
    double t = dyd * g->base, e = dyd * g->delta, rt;
    int de;
    ga_bits r;

    if (!(fabs(e) * (1 + 0x1p-50) < ga_ulp(f, t) / 4))
        return 0;
    r = ga_encode(f, t);
    rt = ga_decode(f, r);
    if (rt == t) {
        out->direction = (int8_t)(e > 0 ? 1 : -1);
    } else {        /* a midpoint: the neighbour on e's side, T beyond t from it */
        ga_bits below = ga_encode_toward_zero(f, t);
        bool away = (e > 0) == (t > 0);  /* T farther from 0 than t */
        r = away ? (t > 0 ? ga_next_up(f, below) : ga_next_down(f, below)) : below;
        rt = ga_decode(f, r);
        out->direction = (int8_t)(rt > t ? -1 : 1);
    }
    out->rounded = r;
    rt = frexp(dyd, &de) * g->mant;
    out->exact = normalized(rt, g->exp + de);
    return 1;
}

int ga_backward_fast(const struct ga_format *f, const struct ga_grad_value *g, ga_bits dy,
                     struct ga_truth *out)
{
    double dyd = ga_decode(f, dy), pm, v, m, a, b, r;
    int de;
    long e;
    ga_bits ra;

    if (g->kind != GA_GRAD_APPROX || !isfinite(dyd) || dyd == 0)
        return 0;
    if (g->base != 0 && near_base(f, g, dyd, out))
        return 1;
    pm = frexp(dyd, &de) * g->mant;
    e = g->exp + de;
    if (e <= f->emin - f->precision - 1) {       /* rounds to a zero */
        out->rounded = ga_zero(f, pm < 0);
        out->direction = (int8_t)(pm < 0 ? -1 : 1);
        out->exact = normalized(pm, e);
        return 1;
    }
    if (e >= f->emax + 3) {                      /* overflows */
        out->rounded = ga_infinity(f, pm < 0);
        out->direction = (int8_t)(pm < 0 ? 1 : -1);
        out->exact = normalized(pm, e);
        return 1;
    }
    v = ldexp(pm, (int)e);
    m = fabs(v) * 0x1p-49;
    a = v - m;
    b = v + m;
    ra = ga_encode(f, a);
    if (ra != ga_encode(f, b))
        return 0;
    r = ga_decode(f, ra);                        /* +-inf on overflow */
    if (r < a)
        out->direction = 1;
    else if (r > b)
        out->direction = -1;
    else
        return 0;
    out->rounded = ra;
    out->exact = normalized(pm, e);
    return 1;
}
