/* Calls at a chosen tensor length (call_length.h). */
#include "real/call_length.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_OPERANDS = 2 };

/* dst[0..count) = copies of the element at src. */
static void fill(unsigned char *dst, const unsigned char *src, size_t count, size_t size)
{
    for (size_t i = 0; i < count; i++)
        memcpy(dst + i * size, src, size);
}

/* Every input in the vector body: one call, padded to a multiple of
 * GA_REAL_BODY with copies of the last input. */
static void call_long(ga_real_body *body, void *ctx, int operands, const void *const *in,
                      void *out, size_t n, size_t size)
{
    size_t padded = (n + GA_REAL_BODY - 1) / GA_REAL_BODY * GA_REAL_BODY;
    unsigned char *buf = malloc((size_t)(operands + 1) * padded * size);
    const void *args[MAX_OPERANDS];

    if (buf == NULL)
        abort();
    for (int a = 0; a < operands; a++) {
        unsigned char *to = buf + (size_t)a * padded * size;
        memcpy(to, in[a], n * size);
        fill(to + n * size, (const unsigned char *)in[a] + (n - 1) * size, padded - n, size);
        args[a] = to;
    }
    body(ctx, args, buf + (size_t)operands * padded * size, padded);
    memcpy(out, buf + (size_t)operands * padded * size, n * size);
    free(buf);
}

/* One call per input, of one element. */
static void call_one(ga_real_body *body, void *ctx, int operands, const void *const *in,
                     void *out, size_t n, size_t size)
{
    const void *args[MAX_OPERANDS];

    for (size_t i = 0; i < n; i++) {
        for (int a = 0; a < operands; a++)
            args[a] = (const unsigned char *)in[a] + i * size;
        body(ctx, args, (unsigned char *)out + i * size, 1);
    }
}

/* Inputs three by three in the remainder after a full vector body. */
static void call_tail(ga_real_body *body, void *ctx, int operands, const void *const *in,
                      void *out, size_t n, size_t size)
{
    enum { LENGTH = GA_REAL_BODY + GA_REAL_TAIL_INPUTS };
    unsigned char buf[(MAX_OPERANDS + 1) * LENGTH * 8];  /* elements of at most 8 bytes */
    unsigned char *result = buf + (size_t)operands * LENGTH * size;
    const void *args[MAX_OPERANDS];

    if (size > 8)
        abort();
    for (size_t i = 0; i < n; i += GA_REAL_TAIL_INPUTS) {
        size_t k = n - i < GA_REAL_TAIL_INPUTS ? n - i : GA_REAL_TAIL_INPUTS;
        for (int a = 0; a < operands; a++) {
            const unsigned char *group = (const unsigned char *)in[a] + i * size;
            unsigned char *to = buf + (size_t)a * LENGTH * size;
            fill(to, group, GA_REAL_BODY, size);
            memcpy(to + GA_REAL_BODY * size, group, k * size);
            fill(to + (GA_REAL_BODY + k) * size, group + (k - 1) * size,
                 GA_REAL_TAIL_INPUTS - k, size);
            args[a] = to;
        }
        body(ctx, args, result, LENGTH);
        memcpy((unsigned char *)out + i * size, result + GA_REAL_BODY * size, k * size);
    }
}

void ga_real_call_length(enum ga_real_length length, ga_real_body *body, void *ctx,
                         int operands, const void *const *in, void *out, size_t n,
                         size_t element_size)
{
    if (n == 0)
        return;
    if (operands < 1 || operands > MAX_OPERANDS)
        abort();
    if (length == GA_REAL_ONE)
        call_one(body, ctx, operands, in, out, n, element_size);
    else if (length == GA_REAL_TAIL)
        call_tail(body, ctx, operands, in, out, n, element_size);
    else
        call_long(body, ctx, operands, in, out, n, element_size);
}
