/* Where the truth is -0 for a negative input (report/facts.h): the left
 * tail and the interval next to zero, per format and function.
 *
 * Both gelu and gelu_tanh are negative on (-inf, 0), decrease to their one
 * minimum (x0 ~ -0.752) and increase after it, so |f| below half the least
 * subnormal, where the truth rounds to -0, is a left tail and an interval
 * next to zero (doc/mathematics.md, 'Facts, checked').  The small formats
 * have at most 128 negative inputs: both ends are scanned, input by input.
 * The wide ones: the tail by report/underflow.c's bisection, the interval
 * by a scan up from the least subnormal, which stops within a few inputs
 * (gelu(x) ~ x/2 there). */
#include "report/facts.h"

#include "report/pictures.h"
#include "truth/truth.h"

/* The wide formats' scan near zero gives up after this many inputs (it
 * stops at the second one). */
#define NEAR_SCAN_LIMIT 1024

/* Whether the truth of the negative input of magnitude mag is -0: 1, 0, or
 * -1 when the oracle fails. */
static int is_negative_zero(enum ga_function fn, const struct ga_format *f, ga_bits mag)
{
    struct ga_truth t;

    if (ga_truth_mpfr(fn, f, mag | ga_sign_mask(f), &t) != GA_TRUTH_OK)
        return -1;
    return t.rounded == ga_zero(f, true);
}

/* The longest run of -0 truths from magnitude `from` on, by steps of +-1:
 * *last is its last magnitude; *whole: it reaches `to`.  0, -1 when the
 * oracle fails; *found false when `from` itself is not -0. */
static int zero_run(enum ga_function fn, const struct ga_format *f, ga_bits from, ga_bits to,
                    uint64_t limit, bool *found, ga_bits *last, bool *whole)
{
    ga_bits mag = from;

    *found = false;
    *whole = false;
    for (uint64_t n = 0; n < limit; n++) {
        int zero = is_negative_zero(fn, f, mag);
        if (zero < 0)
            return -1;
        if (!zero)
            return 0;
        *found = true;
        *last = mag;
        if (mag == to) {
            *whole = true;
            return 0;
        }
        mag = from < to ? mag + 1 : mag - 1;
    }
    *found = false;  /* the limit: not established */
    return 0;
}

static int zero_sets(struct ga_facts *out, enum ga_format_id id, enum ga_function fn)
{
    const struct ga_format *f = ga_format_get(id);
    ga_bits sign = ga_sign_mask(f), max = ga_max_finite(f, false), last;
    bool found, whole;
    bool small = ga_is_small_format(f);

    out->has_zero_from[id][fn] = out->has_zero_near[id][fn] = out->all_zero[id][fn] = false;
    if (zero_run(fn, f, 1, max, small ? max : NEAR_SCAN_LIMIT, &found, &last, &whole) != 0)
        return -1;
    if (whole) {
        out->all_zero[id][fn] = true;
        return 0;
    }
    out->has_zero_near[id][fn] = found;
    out->zero_near[id][fn] = last | sign;
    if (small) {
        if (zero_run(fn, f, max, 1, max, &found, &last, &whole) != 0)
            return -1;
        out->has_zero_from[id][fn] = found;
        out->zero_from[id][fn] = last | sign;
        return 0;
    }
    out->has_zero_from[id][fn] = ga_underflow_threshold(fn, f, &out->zero_from[id][fn]) == 0;
    return 0;
}

int ga_facts_zero_sets(struct ga_facts *out)
{
    for (int id = 0; id < GA_FORMAT_COUNT; id++)
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            if (zero_sets(out, (enum ga_format_id)id, (enum ga_function)fn) != 0)
                return -1;
    return 0;
}
