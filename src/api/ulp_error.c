/* Each output's certified error: gelu_acc_ulp_error and its backward twin. */
#include <math.h>

#include "api/api_array.h"
#include "api/api_status.h"
#include "api/truth_block.h"
#include "grade/error.h"

/* The public flags are the per-input flags of the statistics (error.h), bit
 * for bit, and one about the truth. */
_Static_assert(GELU_ACC_CORRECTLY_ROUNDED == GA_ERR_CORRECT && GELU_ACC_FAITHFUL == GA_ERR_FAITHFUL
               && GELU_ACC_NAN == GA_ERR_NAN && GELU_ACC_INF == GA_ERR_INF
               && GELU_ACC_FLUSHED == GA_ERR_FLUSHED && GELU_ACC_ZERO_SIGN == GA_ERR_ZERO_SIGN
               && GELU_ACC_NOT_NAN == GA_ERR_NOT_NAN, "public flags are error.h's");

/* |f| below the smallest normal 2^emin: |f| lies in [2^(exp-1), 2^exp). */
static int tiny_truth(const struct ga_format *f, const struct ga_truth *t)
{
    return t->exact.mant != 0 && isfinite(t->exact.mant) && t->exact.exp <= f->emin;
}

/* Where the outputs of one call go. */
struct errors_out {
    double *ulp;
    uint32_t *flags;
};

static void measure_block(const struct ga_format_layout *c, const ga_bits *y,
                          const struct ga_truth *t, size_t first, size_t m, struct errors_out o)
{
    struct ga_error e;

    for (size_t i = 0; i < m; i++) {
        ga_error_compute(c, y[i], &t[i], &e);
        if (o.ulp)
            o.ulp[first + i] = e.ulp;
        if (o.flags)
            o.flags[first + i] = e.flags | (tiny_truth(c->format, &t[i]) ? GELU_ACC_TINY : 0);
    }
}

/* The arguments both functions take; NULL x_dy_dx entries are not there. */
static int check_arrays(const void *const arrays[3], const char *const names[3], size_t n,
                        struct errors_out o)
{
    int status = GELU_ACC_OK;

    for (int k = 0; k < 3 && status == GELU_ACC_OK; k++)
        if (names[k])
            status = ga_api_check_array(arrays[k], n, names[k]);
    if (status == GELU_ACC_OK && !o.ulp && !o.flags && n > 0)
        status = ga_api_fail(GELU_ACC_E_ARGUMENT, "both ulp and flags are NULL: nothing to fill");
    return status;
}

GELU_ACC_API int gelu_acc_ulp_error(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                    const void *y, size_t n, double *ulp, uint32_t *flags)
{
    const void *const arrays[3] = { x, y, NULL };
    const char *const names[3] = { "x", "y", NULL };
    struct errors_out o = { ulp, flags };
    ga_bits in[GA_API_BLOCK], out[GA_API_BLOCK];
    struct ga_truth t[GA_API_BLOCK];
    struct ga_format_layout c;
    const struct ga_format *f;
    enum ga_function id;
    int status;

    ga_api_clear();
    if (!(f = ga_api_format(format)) || ga_api_function(fn, &id) != 0)
        return GELU_ACC_E_ARGUMENT;
    if ((status = check_arrays(arrays, names, n, o)) != GELU_ACC_OK)
        return status;
    ga_format_layout_init(&c, f);
    for (size_t first = 0; first < n && status == GELU_ACC_OK; first += GA_API_BLOCK) {
        size_t m = n - first < GA_API_BLOCK ? n - first : GA_API_BLOCK;
        if ((status = ga_api_load(f, x, first, m, in, "x")) == GELU_ACC_OK
            && (status = ga_api_load(f, y, first, m, out, "y")) == GELU_ACC_OK
            && (status = ga_api_truths(id, f, in, t, m)) == GELU_ACC_OK)
            measure_block(&c, out, t, first, m, o);
    }
    ga_api_call_done();
    return status;
}

GELU_ACC_API int gelu_acc_backward_ulp_error(gelu_acc_function fn, gelu_acc_format format,
                                             const void *x, const void *dy, const void *dx,
                                             size_t n, double *ulp, uint32_t *flags)
{
    const void *const arrays[3] = { x, dy, dx };
    const char *const names[3] = { "x", "dy", "dx" };
    struct errors_out o = { ulp, flags };
    ga_bits in[GA_API_BLOCK], din[GA_API_BLOCK], out[GA_API_BLOCK];
    struct ga_truth t[GA_API_BLOCK];
    struct ga_format_layout c;
    const struct ga_format *f;
    enum ga_function forward;
    int status;

    ga_api_clear();
    if (!(f = ga_api_format(format))
        || ga_api_forward_function(fn, "gelu_acc_backward_ulp_error", &forward) != 0)
        return GELU_ACC_E_ARGUMENT;
    if ((status = check_arrays(arrays, names, n, o)) != GELU_ACC_OK)
        return status;
    if ((status = ga_api_backward_format(f)) != GELU_ACC_OK)
        return status;
    ga_format_layout_init(&c, f);
    for (size_t first = 0; first < n && status == GELU_ACC_OK; first += GA_API_BLOCK) {
        size_t m = n - first < GA_API_BLOCK ? n - first : GA_API_BLOCK;
        if ((status = ga_api_load(f, x, first, m, in, "x")) == GELU_ACC_OK
            && (status = ga_api_load(f, dy, first, m, din, "dy")) == GELU_ACC_OK
            && (status = ga_api_load(f, dx, first, m, out, "dx")) == GELU_ACC_OK
            && (status = ga_api_backward_truths(forward, f, in, din, t, m)) == GELU_ACC_OK)
            measure_block(&c, out, t, first, m, o);
    }
    ga_api_call_done();
    return status;
}
