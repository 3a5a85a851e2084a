/* The backward sweep engine.  Pairs go in fixed chunks of GA_BACKWARD_CHUNK;
 * each chunk's statistics are kept apart and merged in chunk order, so the
 * sums and the worst pair are the same for any thread count.  For a 16-bit
 * format swept over many pairs, d(x) is computed once for each of the 2^16
 * encodings first (ga_grad_value, MPFR); otherwise once per pair. */
#include "sweep/backward_sweep.h"

#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "truth/backward.h"

#define GA_BACKWARD_CHUNK 65536

struct ga_grad_value *ga_backward_grad_table(enum ga_function fn, const struct ga_format *f)
{
    size_t n = (size_t)ga_encoding_count(f);
    struct ga_grad_value *table = malloc(n * sizeof *table);
    int failed = 0;

    if (table == NULL)
        return NULL;
    #pragma omp parallel for schedule(dynamic, 256) reduction(|:failed)
    for (size_t i = 0; i < n; i++)
        failed |= ga_grad_value(fn, ga_decode(f, (ga_bits)i), &table[i]) != GA_TRUTH_OK;
    if (failed) {
        free(table);
        return NULL;
    }
    return table;
}

static int run_chunk(const struct ga_backward_sweep *s, const struct ga_format_layout *c,
                     const struct ga_grad_value *table, uint64_t start, size_t n,
                     struct ga_backward_stats *st, struct ga_backward_heat *heat, ga_bits *x,
                     ga_bits *dy, ga_bits *dx)
{
    const struct ga_format *f = c->format;
    struct ga_grad_value own = { GA_GRAD_NAN, 0, 0, 0, 0 };  /* d at the last x, without a table */

    ga_backward_stats_init(st);
    if (ga_pairs_fill(s->pairs, start, n, x, dy) != 0)
        return -1;
    if (s->impl != NULL)
        ga_backward_run(s->impl, f, dy, x, dx, n);
    else if (s->plugin == NULL && s->dx.read(s->dx.ctx, start, n, dx) != 0)
        return -1;
    else if (s->plugin != NULL) {
        struct ga_run_failure fail;
        if (ga_plugin_run_backward(s->plugin, dy, x, dx, n, &fail) != 0) {
            st->failed_pairs = n;
            st->failed_batches = 1;
            st->failure = (struct ga_backward_failure){ start + fail.first, start + fail.last,
                                                        x[fail.first], dy[fail.first], "" };
            snprintf(st->failure.what, sizeof st->failure.what, "%s", fail.what);
            return 0;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const struct ga_grad_value *g = table ? &table[x[i]] : &own;
        struct ga_truth t;
        if (table == NULL && (i == 0 || x[i] != x[i - 1])
            && ga_grad_value(s->reference, ga_decode(f, x[i]), &own) != GA_TRUTH_OK)
            return -1;
        if (ga_backward_truth(s->reference, f, g, x[i], dy[i], &t) != GA_TRUTH_OK)
            return -1;
        ga_backward_stats_add(st, c, start + i, x[i], dy[i], dx[i], &t);
        if (heat != NULL) {
            struct ga_error e;
            ga_error_compute(c, dx[i], &t, &e);
            ga_backward_heat_add(heat, x[i], dy[i], &e);
        }
    }
    return 0;
}

int ga_backward_sweep_run(const struct ga_backward_sweep *s, struct ga_backward_stats *out,
                          char *err, size_t errlen)
{
    const struct ga_format *f = s->pairs->format;
    uint64_t size = s->pairs->size;
    size_t chunks = (size_t)((size + GA_BACKWARD_CHUNK - 1) / GA_BACKWARD_CHUNK);
    struct ga_backward_stats *per = calloc(chunks ? chunks : 1, sizeof *per);
    struct ga_grad_value *own_table = NULL;
    const struct ga_grad_value *table = s->grad_table;
    struct ga_format_layout c;
    int failed = 0;

    if (per == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (s->threads > 0)
        omp_set_num_threads(s->threads);
    ga_format_layout_init(&c, f);
    if (table == NULL && f->bits <= 16 && size >= ((uint64_t)1 << 20)) {
        table = own_table = ga_backward_grad_table(s->reference, f);
        if (table == NULL) {
            free(per);
            snprintf(err, errlen, "the derivative was not decided for some %s input", f->name);
            return -1;
        }
    }
    #pragma omp parallel reduction(|:failed)
    {
        ga_bits *x = malloc(3 * GA_BACKWARD_CHUNK * sizeof *x);
        /* this thread's map, added to s->heat at the end: counts and maxima, so in any order */
        struct ga_backward_heat *heat = s->heat ? ga_backward_heat_new(f) : NULL;
        if (x == NULL || (s->heat != NULL && heat == NULL))
            failed = 1;
        #pragma omp for schedule(dynamic, 1)
        for (size_t k = 0; k < chunks; k++) {
            uint64_t start = (uint64_t)k * GA_BACKWARD_CHUNK;
            size_t n = (size_t)(size - start < GA_BACKWARD_CHUNK ? size - start : GA_BACKWARD_CHUNK);
            if (x != NULL && !failed)
                failed |= run_chunk(s, &c, table, start, n, &per[k], heat, x,
                                    x + GA_BACKWARD_CHUNK, x + 2 * GA_BACKWARD_CHUNK) != 0;
        }
        if (heat != NULL) {
            #pragma omp critical(ga_backward_heat)
            ga_backward_heat_merge(s->heat, heat);
        }
        free(heat);
        free(x);
    }
    ga_backward_stats_init(out);
    for (size_t k = 0; k < chunks && !failed; k++)
        ga_backward_stats_merge(out, &per[k]);
    free(per);
    free(own_table);
    if (failed)
        snprintf(err, errlen, "a truth was not decided, or the domain could not be read");
    return failed ? -1 : 0;
}
