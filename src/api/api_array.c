/* The public enums and arrays, in the suite's terms (api_array.h). */
#include "api/api_array.h"

#include <string.h>

#include "api/api_status.h"

/* The public enums' values are fixed (gelu-acc.h); the suite's may move. */
static const enum ga_format_id format_ids[GELU_ACC_FORMAT_COUNT] = {
    [GELU_ACC_FLOAT64] = GA_FLOAT64,
    [GELU_ACC_FLOAT32] = GA_FLOAT32,
    [GELU_ACC_FLOAT16] = GA_FLOAT16,
    [GELU_ACC_BFLOAT16] = GA_BFLOAT16,
    [GELU_ACC_FLOAT8_E4M3FN] = GA_FLOAT8_E4M3FN,
    [GELU_ACC_FLOAT8_E5M2] = GA_FLOAT8_E5M2,
    [GELU_ACC_FLOAT6_E2M3] = GA_FLOAT6_E2M3,
    [GELU_ACC_FLOAT6_E3M2] = GA_FLOAT6_E3M2,
    [GELU_ACC_FLOAT4_E2M1] = GA_FLOAT4_E2M1,
};

static const enum ga_function function_ids[GELU_ACC_FUNCTION_COUNT] = {
    [GELU_ACC_GELU] = GA_GELU,
    [GELU_ACC_GELU_TANH] = GA_GELU_TANH,
    [GELU_ACC_GELU_GRAD] = GA_GELU_GRAD,
    [GELU_ACC_GELU_TANH_GRAD] = GA_GELU_TANH_GRAD,
};

const struct ga_format *ga_api_format(gelu_acc_format format)
{
    if ((unsigned)format >= GELU_ACC_FORMAT_COUNT) {
        ga_api_fail(GELU_ACC_E_ARGUMENT, "format %d is not a gelu_acc_format (0 to %d)",
                    (int)format, GELU_ACC_FORMAT_COUNT - 1);
        return NULL;
    }
    return ga_format_get(format_ids[format]);
}

int ga_api_function(gelu_acc_function fn, enum ga_function *out)
{
    if ((unsigned)fn >= GELU_ACC_FUNCTION_COUNT)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "function %d is not a gelu_acc_function (0 to %d)",
                           (int)fn, GELU_ACC_FUNCTION_COUNT - 1), -1;
    *out = function_ids[fn];
    return 0;
}

int ga_api_forward_function(gelu_acc_function fn, const char *what, enum ga_function *out)
{
    if (ga_api_function(fn, out) != 0)
        return -1;
    if (!ga_function_is_forward(*out))
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "%s takes GELU_ACC_GELU or GELU_ACC_GELU_TANH, "
                           "not the derivative %s", what, ga_function_name(*out)), -1;
    return 0;
}

int ga_api_backward_format(const struct ga_format *f)
{
    if (f->precision > 24)
        return ga_api_fail(GELU_ACC_E_FORMAT, "the backward truth covers formats of at most 24 "
                           "significant bits, not %s", f->name);
    return GELU_ACC_OK;
}

int ga_api_check_array(const void *a, size_t n, const char *name)
{
    if (!a && n > 0)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "%s is NULL with n = %zu", name, n);
    return GELU_ACC_OK;
}

/* Elements are read and written with memcpy: the caller's float and double
 * arrays are never accessed through integer pointers (aliasing), and a
 * view into a byte buffer need not be aligned. */
#define COPY_ELEMENTS(T, a, first, n, each)                       \
    do {                                                          \
        for (size_t i = 0; i < (n); i++) {                        \
            T e_;                                                 \
            memcpy(&e_, (const char *)(a) + ((first) + i) * sizeof e_, sizeof e_); \
            each;                                                 \
        }                                                         \
    } while (0)

int ga_api_load(const struct ga_format *f, const void *a, size_t first, size_t n, ga_bits *out,
                const char *name)
{
    switch (ga_storage_bytes(f)) {
    case 8:
        COPY_ELEMENTS(uint64_t, a, first, n, out[i] = e_);
        return GELU_ACC_OK;
    case 4:
        COPY_ELEMENTS(uint32_t, a, first, n, out[i] = e_);
        return GELU_ACC_OK;
    case 2:
        COPY_ELEMENTS(uint16_t, a, first, n, out[i] = e_);
        return GELU_ACC_OK;
    default:
        for (size_t i = 0; i < n; i++) {
            out[i] = ((const uint8_t *)a)[first + i];
            if (!ga_fits(f, out[i]))
                return ga_api_fail(GELU_ACC_E_ENCODING, "%s[%zu] = 0x%02x is not an encoding of "
                                   "%s (bits above its %d)", name, first + i, (unsigned)out[i],
                                   f->name, f->bits);
        }
        return GELU_ACC_OK;
    }
}

/* One loop per element size: the switch outside, so that each loop is a
 * plain narrowing copy. */
#define STORE_ELEMENTS(T, base, n, in)                            \
    do {                                                          \
        for (size_t i = 0; i < (n); i++) {                        \
            T e_ = (T)(in)[i];                                    \
            memcpy((base) + i * sizeof e_, &e_, sizeof e_);       \
        }                                                         \
    } while (0)

void ga_api_store(const struct ga_format *f, void *a, size_t first, size_t n, const ga_bits *in)
{
    char *base = (char *)a + first * (size_t)ga_storage_bytes(f);

    switch (ga_storage_bytes(f)) {
    case 8: STORE_ELEMENTS(uint64_t, base, n, in); break;
    case 4: STORE_ELEMENTS(uint32_t, base, n, in); break;
    case 2: STORE_ELEMENTS(uint16_t, base, n, in); break;
    default: STORE_ELEMENTS(uint8_t, base, n, in);
    }
}

GELU_ACC_API int gelu_acc_format_by_name(const char *name, gelu_acc_format *format)
{
    const struct ga_format *f;

    ga_api_clear();
    if (!name || !format)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_format_by_name: a NULL argument");
    if (!(f = ga_format_by_name(name)))
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "unknown format '%s' (known: %s)", name,
                           ga_format_names());
    for (int i = 0; i < GELU_ACC_FORMAT_COUNT; i++)
        if (format_ids[i] == f->id)
            *format = (gelu_acc_format)i;
    return GELU_ACC_OK;
}

GELU_ACC_API int gelu_acc_function_by_name(const char *name, gelu_acc_function *fn)
{
    enum ga_function id;

    ga_api_clear();
    if (!name || !fn)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_function_by_name: a NULL argument");
    if (ga_oracle_function_by_name(name, &id) != 0)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "unknown function '%s' (known: gelu, gelu_tanh, "
                           "gelu_grad, gelu_tanh_grad)", name);
    for (int i = 0; i < GELU_ACC_FUNCTION_COUNT; i++)
        if (function_ids[i] == id)
            *fn = (gelu_acc_function)i;
    return GELU_ACC_OK;
}

GELU_ACC_API const char *gelu_acc_format_name(gelu_acc_format format)
{
    return (unsigned)format < GELU_ACC_FORMAT_COUNT ? ga_format_get(format_ids[format])->name : NULL;
}

GELU_ACC_API const char *gelu_acc_function_name(gelu_acc_function fn)
{
    return (unsigned)fn < GELU_ACC_FUNCTION_COUNT ? ga_function_name(function_ids[fn]) : NULL;
}

GELU_ACC_API size_t gelu_acc_format_size(gelu_acc_format format)
{
    if ((unsigned)format >= GELU_ACC_FORMAT_COUNT)
        return 0;
    return (size_t)ga_storage_bytes(ga_format_get(format_ids[format]));
}
