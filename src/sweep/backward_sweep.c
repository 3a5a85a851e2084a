/* The backward sweep engine.  Pairs go in fixed chunks of GA_BACKWARD_CHUNK;
 * each chunk's statistics are kept apart and merged in chunk order, so the
 * sums and the worst pair are the same for any thread count.  For a 16-bit
 * format swept over many pairs, d(x) and the inverse ulp of every encoding
 * are tabled first (d(x) by ga_grad_value, MPFR), and the truths of the
 * pairs that share an x come from one rounding decision per dy significand
 * (backward_memo.h); a kernel with a factor k(x), or with prepare, computes
 * its terms of x once per x (ga_backward_run).  Otherwise d(x) is computed
 * once per pair. */
#include "sweep/backward_sweep.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "truth/backward.h"
#include "truth/backward_memo.h"
#include "truth/fast.h"

#define GA_BACKWARD_CHUNK 65536
#define GA_BACKWARD_RUN 512     /* truths computed ahead of their statistics */

/* What a sweep of a format of 16 bits or fewer looks up per encoding
 * instead of computing per pair: d(x), and the values (ga_decode's own
 * table where it has one, else values) and inverse ulps. */
struct encoding_tables {
    const struct ga_grad_value *grad;   /* the caller's (s->grad_table) or own_grad */
    struct ga_grad_value *own_grad;
    double *values, *ulp_inverse;
    struct ga_backward_tables lookup;
};

static void tables_free(struct encoding_tables *t)
{
    free(t->own_grad);
    free(t->values);
    free(t->ulp_inverse);
    *t = (struct encoding_tables){ NULL, NULL, NULL, NULL, { NULL, NULL } };
}

struct ga_grad_value *ga_backward_grad_table(enum ga_function fn, const struct ga_format *f)
{
    size_t n = (size_t)ga_encoding_count(f);
    struct ga_grad_value *table = malloc(n * sizeof *table);
    int failed = 0;

    if (table == NULL)
        return NULL;
    #pragma omp parallel reduction(|:failed)
    {
        #pragma omp for schedule(dynamic, 256)
        for (size_t i = 0; i < n; i++)
            failed |= ga_grad_value(fn, ga_decode(f, (ga_bits)i), &table[i]) != GA_TRUTH_OK;
        ga_truth_thread_done();
    }
    if (failed) {
        free(table);
        return NULL;
    }
    return table;
}

/* The values and inverse ulps of every encoding; 0, or -1 out of memory. */
static int value_tables(const struct ga_format *f, struct encoding_tables *t)
{
    size_t n = (size_t)ga_encoding_count(f);
    const double *value = ga_decode_table(f);

    if (value == NULL) {
        if ((t->values = malloc(n * sizeof *t->values)) == NULL)
            return -1;
        for (size_t i = 0; i < n; i++)
            t->values[i] = ga_decode(f, (ga_bits)i);
        value = t->values;
    }
    t->ulp_inverse = malloc(n * sizeof *t->ulp_inverse);
    if (t->ulp_inverse == NULL)
        return -1;
    for (size_t i = 0; i < n; i++)
        t->ulp_inverse[i] = isfinite(value[i]) ? 1 / ga_ulp(f, value[i]) : NAN;
    t->lookup = (struct ga_backward_tables){ value, t->ulp_inverse };
    return 0;
}

/* The truths and statistics of a chunk from the tables, in runs of pairs
 * with one x (a whole chunk of pairs:all; one pair of pairs:random); memo
 * NULL when f has none (every truth by ga_backward_truth). */
static int measure_tabled(const struct ga_backward_sweep *s, const struct ga_format_layout *c,
                          const struct encoding_tables *tab, struct ga_backward_memo *memo,
                          uint64_t start, size_t n, struct ga_backward_stats *st,
                          struct ga_backward_heat *heat, const ga_bits *x, const ga_bits *dy,
                          const ga_bits *dx)
{
    struct ga_truth t[GA_BACKWARD_RUN];
    struct ga_error e[GA_BACKWARD_RUN];   /* the statistics' errors, for the heat map */

    for (size_t i = 0, m; i < n; i += m) {
        const struct ga_grad_value *g = &tab->grad[x[i]];
        if (memo != NULL && (i == 0 || x[i] != x[i - 1]))
            ga_backward_memo_set_x(memo, x[i], g);
        for (m = 0; i + m < n && m < GA_BACKWARD_RUN && x[i + m] == x[i]; m++) {
            int status = memo ? ga_backward_memo_truth(memo, dy[i + m], &t[m])
                              : ga_backward_truth(s->reference, c->format, g, x[i], dy[i + m], &t[m]);
            if (status != GA_TRUTH_OK)
                return -1;
        }
        ga_backward_stats_add_pairs(st, c, start + i, m, x + i, dy + i, dx + i, t, &tab->lookup,
                                    heat ? e : NULL);
        for (size_t j = 0; heat != NULL && j < m; j++)
            ga_backward_heat_add(heat, x[i], dy[i + j], &e[j]);
    }
    return 0;
}

/* Whether every dy is 1: the truth of dx = dy d(x) is then d(x) rounded. */
static bool all_one(const struct ga_format *f, const ga_bits *dy, size_t n)
{
    const ga_bits one = ga_encode(f, 1.0);
    ga_bits differ = 0;

    for (size_t i = 0; i < n; i++)
        differ |= dy[i] ^ one;
    return differ == 0;
}

/* The statistics of pairs whose dy is 1 (an x domain with the default
 * --dy): the truths are the derivative's own, from the fast oracle, in runs
 * of GA_BACKWARD_RUN. */
static int measure_dy_one(const struct ga_backward_sweep *s, const struct ga_format_layout *c,
                          uint64_t start, size_t n, struct ga_backward_stats *st,
                          struct ga_backward_heat *heat, const ga_bits *x, const ga_bits *dy,
                          const ga_bits *dx)
{
    struct ga_truth t[GA_BACKWARD_RUN];
    struct ga_error e[GA_BACKWARD_RUN];   /* the statistics' errors, for the heat map */

    for (size_t i = 0, m; i < n; i += m) {
        m = n - i < GA_BACKWARD_RUN ? n - i : GA_BACKWARD_RUN;
        if (ga_truth_fast_batch(s->reference, c->format, x + i, t, m) != 0)
            return -1;
        ga_backward_stats_add_pairs(st, c, start + i, m, x + i, dy + i, dx + i, t, NULL,
                                    heat ? e : NULL);
        for (size_t j = 0; heat != NULL && j < m; j++)
            ga_backward_heat_add(heat, x[i + j], dy[i + j], &e[j]);
    }
    return 0;
}

static int run_chunk(const struct ga_backward_sweep *s, const struct ga_format_layout *c,
                     const struct encoding_tables *tab, struct ga_backward_memo *memo,
                     uint64_t start, size_t n, struct ga_backward_stats *st,
                     struct ga_backward_heat *heat, ga_bits *x, ga_bits *dy, ga_bits *dx)
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
    if (tab->grad != NULL)
        return measure_tabled(s, c, tab, memo, start, n, st, heat, x, dy, dx);
    if (all_one(f, dy, n) && ga_truth_fast_covers(s->reference, f))
        return measure_dy_one(s, c, start, n, st, heat, x, dy, dx);
    for (size_t i = 0; i < n; i++) {
        struct ga_truth t;
        struct ga_error e;
        if ((i == 0 || x[i] != x[i - 1])
            && ga_grad_value(s->reference, ga_decode(f, x[i]), &own) != GA_TRUTH_OK)
            return -1;
        if (ga_backward_truth(s->reference, f, &own, x[i], dy[i], &t) != GA_TRUTH_OK)
            return -1;
        ga_backward_stats_add(st, c, start + i, x[i], dy[i], dx[i], &t, heat ? &e : NULL);
        if (heat != NULL)
            ga_backward_heat_add(heat, x[i], dy[i], &e);
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
    struct encoding_tables tab = { NULL, NULL, NULL, NULL, { NULL, NULL } };
    struct ga_format_layout c;
    int failed = 0;

    if (per == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (s->threads > 0)
        omp_set_num_threads(s->threads);
    ga_format_layout_init(&c, f);
    if (f->bits <= 16 && (s->grad_table != NULL || size >= ((uint64_t)1 << 20))) {
        tab.grad = s->grad_table ? s->grad_table
                                 : (tab.own_grad = ga_backward_grad_table(s->reference, f));
        if (tab.grad == NULL || value_tables(f, &tab) != 0) {
            free(per);
            tables_free(&tab);
            snprintf(err, errlen, "the derivative was not decided for some %s input, "
                     "or out of memory", f->name);
            return -1;
        }
    }
    #pragma omp parallel reduction(|:failed)
    {
        ga_bits *x = malloc(3 * GA_BACKWARD_CHUNK * sizeof *x);
        struct ga_backward_memo memo = { .entries = NULL };  /* freed whether used or not */
        int have_memo = tab.grad != NULL && ga_backward_memo_init(&memo, s->reference, f) == 0;
        /* this thread's map, added to s->heat at the end: counts and maxima, so in any order */
        struct ga_backward_heat *heat = s->heat ? ga_backward_heat_new(f) : NULL;
        if (x == NULL || (s->heat != NULL && heat == NULL))
            failed = 1;
        #pragma omp for schedule(dynamic, 1)
        for (size_t k = 0; k < chunks; k++) {
            uint64_t start = (uint64_t)k * GA_BACKWARD_CHUNK;
            size_t n = (size_t)(size - start < GA_BACKWARD_CHUNK ? size - start : GA_BACKWARD_CHUNK);
            if (x != NULL && !failed)
                failed |= run_chunk(s, &c, &tab, have_memo ? &memo : NULL, start, n, &per[k],
                                    heat, x,
                                    x + GA_BACKWARD_CHUNK, x + 2 * GA_BACKWARD_CHUNK) != 0;
        }
        if (heat != NULL) {
            #pragma omp critical(ga_backward_heat)
            ga_backward_heat_merge(s->heat, heat);
        }
        free(heat);
        free(x);
        ga_backward_memo_free(&memo);
        ga_truth_thread_done();
    }
    ga_backward_stats_init(out);
    for (size_t k = 0; k < chunks && !failed; k++)
        ga_backward_stats_merge(out, &per[k]);
    free(per);
    tables_free(&tab);
    if (failed)
        snprintf(err, errlen, "a truth was not decided, or the domain could not be read");
    return failed ? -1 : 0;
}
