/* Graders: the statistics of 'gelu-acc grade' accumulated in-process. */
#include "api/grader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_array.h"
#include "api/api_status.h"
#include "api/truth_block.h"

/* The public regions are numbered from "all"; the statistics keep "all"
 * after the others. */
static const enum ga_region regions[GELU_ACC_REGION_COUNT] = {
    [GELU_ACC_REGION_ALL] = GA_REGION_ALL,
    [GELU_ACC_REGION_FAR_LEFT] = GA_REGION_FAR_LEFT,
    [GELU_ACC_REGION_LEFT_TAIL] = GA_REGION_LEFT_TAIL,
    [GELU_ACC_REGION_CORE] = GA_REGION_CORE,
    [GELU_ACC_REGION_TINY] = GA_REGION_TINY,
    [GELU_ACC_REGION_RIGHT] = GA_REGION_RIGHT,
    [GELU_ACC_REGION_SPECIAL] = GA_REGION_SPECIAL,
};

GELU_ACC_API const char *gelu_acc_region_name(gelu_acc_region region)
{
    return (unsigned)region < GELU_ACC_REGION_COUNT ? ga_region_name(regions[region]) : NULL;
}

GELU_ACC_API int gelu_acc_grader_new(gelu_acc_function fn, gelu_acc_format format,
                                     gelu_acc_grader **grader)
{
    const struct ga_format *f;
    enum ga_function reference;
    gelu_acc_grader *g;

    ga_api_clear();
    if (!grader)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_grader_new: grader is NULL");
    *grader = NULL;
    if (!(f = ga_api_format(format))
        || ga_api_forward_function(fn, "gelu_acc_grader_new", &reference) != 0)
        return GELU_ACC_E_ARGUMENT;
    if (!(g = malloc(sizeof *g)) || !(g->stats = ga_stats_new(f))) {
        free(g);
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for a grader");
    }
    g->reference = reference;
    *grader = g;
    return GELU_ACC_OK;
}

GELU_ACC_API void gelu_acc_grader_free(gelu_acc_grader *grader)
{
    if (grader) {
        ga_stats_free(grader->stats);
        free(grader);
    }
}

static int too_large(void)
{
    return ga_api_fail(GELU_ACC_E_TOO_LARGE, "a region of the grader would reach 2^32 inputs: "
                       "grade fewer outputs per grader");
}

GELU_ACC_API int gelu_acc_grader_add(gelu_acc_grader *grader, const void *x, const void *y,
                                     size_t n)
{
    ga_bits in[GA_API_BLOCK], out[GA_API_BLOCK];
    struct ga_truth t[GA_API_BLOCK];
    const struct ga_format *f;
    int status;

    ga_api_clear();
    if (!grader)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_grader_add: grader is NULL");
    if ((status = ga_api_check_array(x, n, "x")) != GELU_ACC_OK
        || (status = ga_api_check_array(y, n, "y")) != GELU_ACC_OK)
        return status;
    f = grader->stats->format;
    for (size_t first = 0; first < n && status == GELU_ACC_OK; first += GA_API_BLOCK) {
        size_t m = n - first < GA_API_BLOCK ? n - first : GA_API_BLOCK;
        if ((status = ga_api_load(f, x, first, m, in, "x")) == GELU_ACC_OK
            && (status = ga_api_load(f, y, first, m, out, "y")) == GELU_ACC_OK
            && (status = ga_api_truths(grader->reference, f, in, t, m)) == GELU_ACC_OK
            && ga_stats_add_batch(grader->stats, in, out, t, m) != GA_STATS_OK)
            status = too_large();
    }
    ga_api_call_done();
    return status;
}

GELU_ACC_API int gelu_acc_grader_merge(gelu_acc_grader *into, const gelu_acc_grader *from)
{
    ga_api_clear();
    if (!into || !from)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_grader_merge: a NULL grader");
    if (into->reference != from->reference || into->stats->format != from->stats->format)
        return ga_api_fail(GELU_ACC_E_MISMATCH, "gelu_acc_grader_merge: graders of %s in %s and "
                           "of %s in %s", ga_function_name(into->reference),
                           into->stats->format->name, ga_function_name(from->reference),
                           from->stats->format->name);
    if (ga_stats_merge(into->stats, from->stats) != GA_STATS_OK)
        return too_large();
    return GELU_ACC_OK;
}

static struct gelu_acc_point public_point(const struct ga_point *p, const struct ga_format *f,
                                          enum ga_function reference)
{
    struct gelu_acc_point q = { 0 };
    struct ga_truth t;

    if (!p->has)
        return q;
    q.has = 1;
    q.error = p->error;
    q.x = p->x;
    q.y = p->y;
    q.exact_mant = p->exact.mant;
    q.exact_exp = p->exact.exp;
    q.expected = ga_truth_mpfr(reference, f, p->x, &t) == GA_TRUTH_OK ? t.rounded
                                                                       : ga_quiet_nan(f);
    return q;
}

int ga_api_grader_summaries(const gelu_acc_grader *g, struct ga_summary all[GA_REGION_COUNT + 1])
{
    for (int r = 0; r <= GA_REGION_COUNT; r++)
        if (ga_stats_summary(g->stats, g->reference, (enum ga_region)r, &all[r]) != GA_STATS_OK)
            return ga_api_fail(GELU_ACC_E_UNDECIDED, "the MPFR oracle could not certify a worst "
                               "point of the %s region", ga_region_name((enum ga_region)r));
    return GELU_ACC_OK;
}

GELU_ACC_API int gelu_acc_grader_summary(const gelu_acc_grader *grader, gelu_acc_region region,
                                         struct gelu_acc_summary *out, size_t out_size)
{
    struct gelu_acc_summary p;
    struct ga_summary s;
    const struct ga_format *f;

    ga_api_clear();
    if (!grader || !out)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_grader_summary: a NULL argument");
    if ((unsigned)region >= GELU_ACC_REGION_COUNT)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "region %d is not a gelu_acc_region (0 to %d)",
                           (int)region, GELU_ACC_REGION_COUNT - 1);
    f = grader->stats->format;
    if (ga_stats_summary(grader->stats, grader->reference, regions[region], &s) != GA_STATS_OK)
        return ga_api_fail(GELU_ACC_E_UNDECIDED, "the MPFR oracle could not certify a worst "
                           "point of the %s region", gelu_acc_region_name(region));
    p = (struct gelu_acc_summary){
        .count = s.count, .correctly_rounded = s.correctly_rounded, .faithful = s.faithful,
        .measured = s.measured, .flushed_to_zero = s.flushed_to_zero, .nan = s.nan,
        .inf = s.inf, .wrong_zero_sign = s.wrong_zero_sign, .not_nan = s.not_nan,
        .max_ulp = public_point(&s.max_ulp, f, grader->reference),
        .mean_ulp = s.mean_ulp, .p50 = s.p50, .p95 = s.p95, .p99 = s.p99,
        .first_flushed = public_point(&s.first_fault[GA_FAULT_FLUSHED], f, grader->reference),
        .first_nan = public_point(&s.first_fault[GA_FAULT_NAN], f, grader->reference),
        .first_inf = public_point(&s.first_fault[GA_FAULT_INF], f, grader->reference),
        .first_zero_sign = public_point(&s.first_fault[GA_FAULT_ZERO_SIGN], f, grader->reference),
        .first_not_nan = public_point(&s.first_fault[GA_FAULT_NOT_NAN], f, grader->reference),
    };
    memcpy(out, &p, out_size < sizeof p ? out_size : sizeof p);
    ga_api_call_done();
    return GELU_ACC_OK;
}
