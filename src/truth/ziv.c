#include "truth/ziv.h"

#include <math.h>

#include "formats/round_mpfr.h"

int ga_ziv_decide(const struct ga_format *f, mpfr_srcptr v, long k, double lower, double upper,
                  struct ga_truth *out)
{
    return ga_ziv_decide_overflow(f, ga_default_overflow(f), v, k, lower, upper, out);
}

int ga_ziv_decide_overflow(const struct ga_format *f, enum ga_overflow o, mpfr_srcptr v, long k,
                           double lower, double upper, struct ga_truth *out)
{
    mpfr_prec_t prec = mpfr_get_prec(v) + 2;
    mpfr_t radius, lo, hi;
    ga_bits a, b;
    int direction = 0;

    if (mpfr_zero_p(v) || !mpfr_number_p(v))
        return 0;
    mpfr_inits2(prec, radius, lo, hi, (mpfr_ptr)0);
    mpfr_mul_2si(radius, v, -k, MPFR_RNDN);  /* exact */
    mpfr_abs(radius, radius, MPFR_RNDN);
    mpfr_sub(lo, v, radius, MPFR_RNDD);      /* outward: lo <= v - r */
    mpfr_add(hi, v, radius, MPFR_RNDU);      /* hi >= v + r */
    /* The true value lies strictly inside (lower, upper): where the interval
     * reaches a bound, its end moves one unit (at prec > p + 2 bits) inside
     * it.  No rounding boundary of f lies strictly between the bound and that
     * neighbour, so the reals between them round as the neighbour does.  This
     * decides values just below a tie that rounds up, such as gelu(464) in
     * float8_e4m3fn, where 464 itself would overflow to NaN. */
    if (mpfr_cmp_d(hi, upper) >= 0) {
        mpfr_set_d(hi, upper, MPFR_RNDN);    /* exact: prec >= 53 */
        mpfr_nextbelow(hi);
    }
    if (mpfr_cmp_d(lo, lower) <= 0) {
        mpfr_set_d(lo, lower, MPFR_RNDN);
        mpfr_nextabove(lo);
    }
    a = ga_round_mpfr_overflow(f, lo, o);
    b = ga_round_mpfr_overflow(f, hi, o);
    if (a == b && ga_is_nan(f, a)) {  /* both ends overflow to NaN: beyond the largest */
        direction = mpfr_sgn(v) > 0 ? -1 : 1;
    } else if (a == b) {
        double value = ga_decode(f, a);  /* exact; +-inf beyond the format */
        direction = mpfr_cmp_d(lo, value) > 0 || value <= lower ? 1
                  : mpfr_cmp_d(hi, value) < 0 || value >= upper ? -1 : 0;
    }
    mpfr_clears(radius, lo, hi, (mpfr_ptr)0);
    if (direction == 0)
        return 0;
    out->rounded = a;
    out->direction = (int8_t)direction;
    return 1;
}

int ga_ziv_decide_within(const struct ga_format *f, mpfr_srcptr v, mpfr_srcptr err,
                         double lower, double upper, struct ga_truth *out)
{
    long k;

    if (!mpfr_regular_p(v) || !mpfr_regular_p(err))
        return 0;
    k = (long)mpfr_get_exp(v) - 1 - (long)mpfr_get_exp(err);
    if (k > (long)mpfr_get_prec(v))
        k = (long)mpfr_get_prec(v);  /* a smaller k only widens the interval */
    return k >= ga_ziv_exact_bits(f) && ga_ziv_decide(f, v, k, lower, upper, out);
}

void ga_truth_bounds(double x, double *lower, double *upper)
{
    double half = x / 2;

    *lower = half * 2 == x ? half : x < 0 ? x : 0.0;
    *upper = x > 0 ? x : 0.0;
}

struct ga_exact ga_exact_from_mpfr(mpfr_srcptr v)
{
    struct ga_exact x;

    if (!mpfr_regular_p(v)) {
        x.mant = mpfr_get_d(v, MPFR_RNDN);
        x.exp = 0;
        return x;
    }
    x.mant = mpfr_get_d_2exp(&x.exp, v, MPFR_RNDN);
    if (x.mant == 1.0 || x.mant == -1.0) {  /* rounding carried into the next binade */
        x.mant /= 2;
        x.exp += 1;
    }
    if (x.exp < GA_EXACT_EXP_MIN) {
        x.mant = x.mant < 0 ? -0.5 : 0.5;
        x.exp = GA_EXACT_EXP_MIN;
    }
    return x;
}

void ga_truth_set_exact(const struct ga_format *f, mpfr_srcptr v, struct ga_truth *out)
{
    mpfr_t rest;

    out->exact = ga_exact_from_mpfr(v);
    out->tail = 0.0f;
    if (ga_ziv_exact_bits(f) <= 53 || !mpfr_regular_p(v)
        || mpfr_get_exp(v) <= GA_EXACT_EXP_MIN + 1)
        return;  /* a double is enough; special, or clamped */
    mpfr_init2(rest, mpfr_get_prec(v) > 64 ? mpfr_get_prec(v) : 64);
    mpfr_set_d(rest, out->exact.mant, MPFR_RNDN);          /* exact */
    mpfr_mul_2si(rest, rest, out->exact.exp, MPFR_RNDN);   /* exact */
    /* exact: v and its rounding to 53 bits are multiples of v's last bit,
     * and their difference is below half of a 53-bit ulp of v */
    mpfr_sub(rest, v, rest, MPFR_RNDN);
    mpfr_mul_2si(rest, rest, -out->exact.exp, MPFR_RNDN);  /* exact */
    out->tail = mpfr_get_flt(rest, MPFR_RNDN);
    mpfr_clear(rest);
}

int ga_truth_special(const struct ga_format *f, ga_bits x, struct ga_truth *out)
{
    return ga_truth_special_cast(f, x, f, ga_default_overflow(f), out);
}

int ga_truth_special_cast(const struct ga_format *in, ga_bits x, const struct ga_format *out_f,
                          enum ga_overflow o, struct ga_truth *out)
{
    double xd = ga_decode(in, x);

    if (!(isnan(xd) || isinf(xd) || xd == 0))
        return 0;
    out->rounded = isnan(xd) ? ga_quiet_nan(out_f)
                 : isinf(xd) ? (xd > 0 ? ga_encode_overflow(out_f, xd, o) : ga_zero(out_f, true))
                 : ga_zero(out_f, signbit(xd) != 0);
    out->exact.mant = isinf(xd) && xd < 0 ? -0.0 : xd;
    out->exact.exp = 0;
    out->tail = 0.0f;
    out->direction = 0;  /* each result is exact (the limit, for -inf) */
    return 1;
}

int ga_truth_identity(const struct ga_format *f, ga_bits x, struct ga_truth *out)
{
    double xd = ga_decode(f, x);
    int e;

    double from = f->precision + 21 <= 62 ? GA_TRUTH_IDENTITY_FROM : GA_TRUTH_IDENTITY_WIDE_FROM;

    if (!(xd >= from) || isinf(xd) || f->precision > 53)
        return 0;
    out->rounded = x;
    out->direction = -1;  /* f(x) < x */
    out->exact.mant = frexp(xd, &e);
    out->exact.exp = e;
    out->tail = 0.0f;  /* x Q is below 2^-(p + 21) |x| */
    return 1;
}

void ga_truth_vanishing(const struct ga_format *f, bool negative, struct ga_truth *out)
{
    out->rounded = ga_zero(f, negative);
    out->direction = negative ? -1 : 1;  /* f is nonzero, of that sign */
    out->exact.mant = negative ? -0.5 : 0.5;
    out->exact.exp = GA_EXACT_EXP_MIN;
    out->tail = 0.0f;
}

struct ga_mpfr_range ga_mpfr_widen_range(void)
{
    struct ga_mpfr_range saved = { mpfr_get_emin(), mpfr_get_emax() };
    mpfr_set_emin(mpfr_get_emin_min());
    mpfr_set_emax(mpfr_get_emax_max());
    return saved;
}

void ga_mpfr_restore_range(struct ga_mpfr_range saved)
{
    mpfr_set_emin(saved.emin);
    mpfr_set_emax(saved.emax);
}

long ga_ceil_log2(double v)
{
    int e;
    double m;

    if (!(v < INFINITY))
        return 4096;
    m = frexp(v, &e);  /* v = m * 2^e, m in [0.5, 1) */
    return m == 0.5 ? e - 1 : e;
}
