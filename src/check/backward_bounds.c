/* Backward bounds of a baseline (backward_bounds.h). */
#include "check/backward_bounds.h"

#include <math.h>
#include <string.h>

#include "check/baseline.h"
#include "formats/parse_value.h"
#include "grade/number_text.h"
#include "io/parse_count.h"

static const char *const names[GA_BW_KEY_COUNT] = {
    "max_ulp", "max_dy_ulp", "sign_errors", "nan", "wrong_zero_sign", "correctly_rounded",
    "faithful",
};
static const char *const prefixes[2] = { "", "root." };

int ga_backward_bound_key(const char *key, int *region, enum ga_backward_key *k)
{
    *region = strncmp(key, "root.", 5) == 0;
    for (int i = 0; i < GA_BW_KEY_COUNT; i++)
        if (strcmp(key + 5 * *region, names[i]) == 0) {
            *k = (enum ga_backward_key)i;
            return 0;
        }
    return -1;
}

int ga_backward_bound_parse(struct ga_backward_bounds *b, int region, enum ga_backward_key k,
                            const char *value, char *why, size_t why_size)
{
    b->has[region][k] = true;
    if (k <= GA_BW_MAX_DY_ULP) {
        double *v = &b->ulp[region][k];
        if (strcmp(value, "inf") == 0) {
            *v = INFINITY;
            return 0;
        }
        if (ga_parse_real(value, v) == 0 && *v >= 0)
            return 0;
        snprintf(why, why_size, "%s '%s' is not a non-negative number (or inf)", names[k], value);
        return -1;
    }
    if (ga_parse_count(value, UINT64_MAX, &b->count[region][k]) == GA_COUNT_OK)
        return 0;
    snprintf(why, why_size, "%s '%s' is not a count (decimal digits below 2^64)", names[k], value);
    return -1;
}

static double measured_ulp(const struct ga_backward_region *r, enum ga_backward_key k)
{
    return k == GA_BW_MAX_ULP ? r->max_ulp : r->max_dy_ulp;
}

static uint64_t measured_count(const struct ga_backward_region *r, enum ga_backward_key k)
{
    switch (k) {
    case GA_BW_SIGN_ERRORS: return r->sign_errors;
    case GA_BW_NAN: return r->nan_outputs + r->not_nan;
    case GA_BW_ZERO_SIGN: return r->zero_sign;
    case GA_BW_CORRECT: return r->correct;
    default: return r->faithful;
    }
}

static const struct ga_backward_region *region_of(const struct ga_backward_stats *st, int r)
{
    return r ? &st->root : &st->all;
}

void ga_backward_bounds_write(FILE *out, const struct ga_format *f,
                              const struct ga_backward_stats *st)
{
    (void)f;
    for (int r = 0; r < 2; r++) {
        const struct ga_backward_region *g = region_of(st, r);
        if (g->count == 0)
            continue;
        for (int k = 0; k < GA_BW_KEY_COUNT; k++) {
            if (k <= GA_BW_MAX_DY_ULP)
                fprintf(out, "%s%s = %.4g\n", prefixes[r], names[k],
                        ga_round_up_4(measured_ulp(g, (enum ga_backward_key)k)));
            else
                fprintf(out, "%s%s = %llu\n", prefixes[r], names[k],
                        (unsigned long long)measured_count(g, (enum ga_backward_key)k));
        }
    }
}

int ga_backward_bounds_compare(FILE *out, const char *name, const struct ga_format *f,
                               const struct ga_backward_bounds *b,
                               const struct ga_backward_stats *st)
{
    int exceeded = 0;

    for (int r = 0; r < 2; r++) {
        const struct ga_backward_region *g = region_of(st, r);
        char x[GA_BITS_TEXT_LEN], dy[GA_BITS_TEXT_LEN], dx[GA_BITS_TEXT_LEN], t[GA_BITS_TEXT_LEN];

        for (int k = 0; k < GA_BW_KEY_COUNT; k++) {
            enum ga_backward_key key = (enum ga_backward_key)k;
            if (!b->has[r][k])
                continue;
            if (k <= GA_BW_MAX_DY_ULP) {
                if (!(measured_ulp(g, key) > b->ulp[r][k]))
                    continue;
                fprintf(out, "%s: %s%s %.6g -> %.6g", name, prefixes[r], names[k], b->ulp[r][k],
                        measured_ulp(g, key));
            } else {
                uint64_t now = measured_count(g, key), old = b->count[r][k];
                if (k >= GA_BW_CORRECT ? now >= old : now <= old)
                    continue;
                fprintf(out, "%s: %s%s %llu -> %llu", name, prefixes[r], names[k],
                        (unsigned long long)old, (unsigned long long)now);
            }
            exceeded++;
            if (g->worst.index == UINT64_MAX) {
                fputc('\n', out);
                continue;
            }
            ga_format_bits(f, g->worst.x, x);
            ga_format_bits(f, g->worst.dy, dy);
            ga_format_bits(f, g->worst.dx, dx);
            ga_format_bits(f, g->worst.truth, t);
            fprintf(out, "; worst pair x = %s, dy = %s: dx = %s, true %s\n", x, dy, dx, t);
        }
    }
    return exceeded;
}
