/* The correctly rounded results: gelu_acc_truth and gelu_acc_backward. */
#include <stdint.h>
#include <string.h>

#include "api/api_array.h"
#include "api/api_status.h"
#include "api/truth_block.h"
#include "truth/backward.h"
#include "truth/fast_vec.h"

/* A format of at most 16 bits: one lookup per element. */
static int tabled_truth(enum ga_function fn, const struct ga_format *f, const void *x, void *out,
                        size_t n)
{
    const struct ga_api_table *table;
    int status = ga_api_table(fn, f, &table);

    if (status != GELU_ACC_OK)
        return status;
    if (f->bits == 16) {
        const uint16_t *in = x;
        uint16_t *o = out;
        for (size_t i = 0; i < n; i++)
            o[i] = table->rounded[in[i]];
        return GELU_ACC_OK;
    }
    for (size_t i = 0; i < n; i++) {
        uint8_t e = ((const uint8_t *)x)[i];
        if (!ga_fits(f, e))
            return ga_api_fail(GELU_ACC_E_ENCODING, "x[%zu] = 0x%02x is not an encoding of %s "
                               "(bits above its %d)", i, (unsigned)e, f->name, f->bits);
        ((uint8_t *)out)[i] = (uint8_t)table->rounded[e];
    }
    return GELU_ACC_OK;
}

/* The rounded encodings of one block: by the vector paths for the float32
 * functions they cover (truth/fast_vec.h: gelu, gelu_tanh, gelu'; the path
 * GELU_ACC_ORACLE_PATH or the CPU chooses), from the full truths otherwise. */
static int block_rounded(enum ga_function fn, const struct ga_format *f, ga_bits *in, size_t m)
{
    struct ga_truth t[GA_API_BLOCK];
    int8_t direction[GA_API_BLOCK];
    ga_bits rounded[GA_API_BLOCK];
    int status;

    if (f->id == GA_FLOAT32 && ga_vec_covers(fn)) {
        if (ga_truth_f32_rounded(fn, ga_vec_path_default(), in, rounded, direction, m) != 0)
            for (size_t i = 0; i < m; i++)
                if (direction[i] == 0 && rounded[i] == ga_quiet_nan(f) && !ga_is_nan(f, in[i]))
                    return ga_api_truths(fn, f, &in[i], t, 1);  /* names the input */
        memcpy(in, rounded, m * sizeof *in);
        return GELU_ACC_OK;
    }
    if ((status = ga_api_truths(fn, f, in, t, m)) == GELU_ACC_OK)
        for (size_t i = 0; i < m; i++)
            in[i] = t[i].rounded;
    return status;
}

static int computed_truth(enum ga_function fn, const struct ga_format *f, const void *x,
                          void *out, size_t n)
{
    ga_bits in[GA_API_BLOCK];
    int status = GELU_ACC_OK;

    for (size_t first = 0; first < n && status == GELU_ACC_OK; first += GA_API_BLOCK) {
        size_t m = n - first < GA_API_BLOCK ? n - first : GA_API_BLOCK;
        if ((status = ga_api_load(f, x, first, m, in, "x")) == GELU_ACC_OK
            && (status = block_rounded(fn, f, in, m)) == GELU_ACC_OK)
            ga_api_store(f, out, first, m, in);
    }
    return status;
}

GELU_ACC_API int gelu_acc_truth(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                void *out, size_t n)
{
    const struct ga_format *f;
    enum ga_function id;
    int status;

    ga_api_clear();
    if (!(f = ga_api_format(format)))
        return GELU_ACC_E_ARGUMENT;
    if (ga_api_function(fn, &id) != 0)
        return GELU_ACC_E_ARGUMENT;
    if ((status = ga_api_check_array(x, n, "x")) != GELU_ACC_OK
        || (status = ga_api_check_array(out, n, "out")) != GELU_ACC_OK)
        return status;
    status = ga_api_tabled(f) ? tabled_truth(id, f, x, out, n) : computed_truth(id, f, x, out, n);
    ga_api_call_done();
    return status;
}

/* The rounded backward truths of one block: by the vector paths in float32
 * (truth/fast_vec.h), from the full truths otherwise. */
static int block_backward(enum ga_function forward, const struct ga_format *f, ga_bits *in,
                          const ga_bits *din, size_t m)
{
    enum ga_function d = forward == GA_GELU ? GA_GELU_GRAD : GA_GELU_TANH_GRAD;
    struct ga_truth t[GA_API_BLOCK];
    int8_t direction[GA_API_BLOCK];
    ga_bits rounded[GA_API_BLOCK];
    int status;

    if (f->id == GA_FLOAT32) {
        /* an undecided pair (a NaN, direction 0, as -inf times inf also
         * gives) is asked again to name it in the error */
        if (ga_backward_f32_rounded(d, ga_vec_path_default(), in, din, rounded, direction, m)
            != 0)
            for (size_t i = 0; i < m; i++)
                if (direction[i] == 0 && ga_is_nan(f, rounded[i])
                    && (status = ga_api_backward_truths(forward, f, &in[i], &din[i], t, 1))
                           != GELU_ACC_OK)
                    return status;
        memcpy(in, rounded, m * sizeof *in);
        return GELU_ACC_OK;
    }
    if ((status = ga_api_backward_truths(forward, f, in, din, t, m)) == GELU_ACC_OK)
        for (size_t i = 0; i < m; i++)
            in[i] = t[i].rounded;
    return status;
}

static int blocks_backward(enum ga_function forward, const struct ga_format *f, const void *x,
                           const void *dy, void *dx, size_t n)
{
    ga_bits in[GA_API_BLOCK], din[GA_API_BLOCK];
    int status = GELU_ACC_OK;

    for (size_t first = 0; first < n && status == GELU_ACC_OK; first += GA_API_BLOCK) {
        size_t m = n - first < GA_API_BLOCK ? n - first : GA_API_BLOCK;
        if ((status = ga_api_load(f, x, first, m, in, "x")) == GELU_ACC_OK
            && (status = ga_api_load(f, dy, first, m, din, "dy")) == GELU_ACC_OK
            && (status = block_backward(forward, f, in, din, m)) == GELU_ACC_OK)
            ga_api_store(f, dx, first, m, in);
    }
    return status;
}

GELU_ACC_API int gelu_acc_backward(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                   const void *dy, void *dx, size_t n)
{
    const struct ga_format *f;
    enum ga_function forward;
    int status;

    ga_api_clear();
    if (!(f = ga_api_format(format)))
        return GELU_ACC_E_ARGUMENT;
    if (ga_api_forward_function(fn, "gelu_acc_backward", &forward) != 0)
        return GELU_ACC_E_ARGUMENT;
    if ((status = ga_api_check_array(x, n, "x")) != GELU_ACC_OK
        || (status = ga_api_check_array(dy, n, "dy")) != GELU_ACC_OK
        || (status = ga_api_check_array(dx, n, "dx")) != GELU_ACC_OK
        || (status = ga_api_backward_format(f)) != GELU_ACC_OK)
        return status;
    status = blocks_backward(forward, f, x, dy, dx, n);
    ga_api_call_done();
    return status;
}
