/* The backward sweep engine.  Pairs go in fixed chunks of GA_BACKWARD_CHUNK;
 * each chunk's statistics are kept apart and merged in chunk order, so the
 * sums and the worst pair are the same for any thread count.  Rows swept
 * together (a report's) share each chunk's pairs and each reference's
 * truths, computed once per block of GA_BACKWARD_RUN pairs.  For a 16-bit
 * format swept over many pairs, d(x) and the inverse ulp of every encoding
 * are tabled first (d(x) by ga_grad_value, MPFR), and the truths of the
 * pairs that share an x come from one rounding decision per dy significand
 * (backward_memo.h); a kernel with a factor k(x), or with prepare, computes
 * its terms of x once per x (ga_backward_run).  Pairs whose dy are all 1
 * take the derivative's own truths from the fast oracle; otherwise d(x) is
 * computed once per x and the product rounded per pair. */
#include "measure/backward_sweep.h"
#include "measure/kernel_clock.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <omp.h>

#include "truth/backward.h"
#include "truth/backward_memo.h"
#include "truth/fast.h"

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

/* Whether every dy is 1: the truth of dx = dy d(x) is then d(x) rounded. */
static bool all_one(const struct ga_format *f, const ga_bits *dy, size_t n)
{
    const ga_bits one = ga_encode(f, 1.0);
    ga_bits differ = 0;

    for (size_t i = 0; i < n; i++)
        differ |= dy[i] ^ one;
    return differ == 0;
}

/* A row's reference as an index: 0 gelu', 1 the tanh form's derivative. */
static inline int ref_of(enum ga_function fn)
{
    return fn == GA_GELU_TANH_GRAD;
}

static const enum ga_function references[2] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

/* What the rows of a sweep share, read by every thread. */
struct shared {
    const struct ga_backward_sweep *rows;
    size_t n_rows;
    struct ga_format_layout layout;
    bool fast[2];                 /* the fast oracle covers it in the format */
    struct encoding_tables tab[2];  /* per reference; values in tab[0] or tab[1] */
    const struct ga_backward_tables *lookup;  /* the value tables, or NULL */
};

/* What one thread keeps from chunk to chunk. */
struct worker {
    ga_bits *x, *dy;              /* the chunk's pairs */
    ga_bits *dx;                  /* row r's outputs at dx + r * GA_BACKWARD_CHUNK */
    bool *measured;               /* per row: its dx is there (not a failed plugin batch) */
    struct ga_backward_memo memo[2];
    bool have_memo[2];
    struct ga_grad_value own[2];  /* d at the last x, per reference, without a table */
    struct ga_backward_heat **heat;  /* per row: this thread's map, or NULL */
    struct ga_truth *truth;       /* observed sweeps: the chunk's truths (rows[0]'s reference) */
};

/* A row's outputs for a chunk: 1, or 0 when a plugin's batch failed (the
 * failure recorded in st), or -1 when a dx file could not be read. */
static int outputs(const struct ga_backward_sweep *s, const struct ga_format *f, uint64_t start,
                   size_t n, const ga_bits *x, const ga_bits *dy, ga_bits *dx,
                   struct ga_backward_stats *st)
{
    struct ga_run_failure fail;

    if (s->impl != NULL) {
        uint64_t clock = ga_kernel_clock_now();
        ga_backward_run(s->impl, f, dy, x, dx, n);
        ga_kernel_clock_add(clock);
        return 1;
    }
    if (s->plugin == NULL)
        return s->dx.read(s->dx.ctx, start, n, dx) == 0 ? 1 : -1;
    if (ga_plugin_run_backward(s->plugin, dy, x, dx, n, &fail) == 0)
        return 1;
    st->failed_pairs = n;
    st->failed_batches = 1;
    st->failure = (struct ga_backward_failure){ start + fail.first, start + fail.last,
                                                x[fail.first], dy[fail.first], "" };
    snprintf(st->failure.what, sizeof st->failure.what, "%s", fail.what);
    return 0;
}

/* The truths of pairs i .. i + m - 1 of a chunk for reference r, pairs
 * before i already done (the memo and own follow x through the chunk):
 * from the tables (one decision per dy significand where there is a memo),
 * from the fast oracle when every dy of the chunk is 1, else d(x) once per
 * x and the product per pair.  0, or -1 when one is not decided. */
static int truths(const struct shared *sh, struct worker *w, int r, bool dy_one, size_t i,
                  size_t m, struct ga_truth *t)
{
    const struct ga_format *f = sh->layout.format;
    const struct ga_grad_value *table = sh->tab[r].grad;
    enum ga_function fn = references[r];
    const ga_bits *x = w->x, *dy = w->dy;

    if (table == NULL && dy_one && sh->fast[r])
        return ga_truth_fast_batch(fn, f, x + i, t, m) == 0 ? 0 : -1;
    for (size_t j = i; j < i + m; j++) {
        bool new_x = j == 0 || x[j] != x[j - 1];
        int status;
        if (table != NULL && w->have_memo[r]) {
            if (new_x)
                ga_backward_memo_set_x(&w->memo[r], x[j], &table[x[j]]);
            status = ga_backward_memo_truth(&w->memo[r], dy[j], &t[j - i]);
        } else if (table != NULL) {
            status = ga_backward_truth(fn, f, &table[x[j]], x[j], dy[j], &t[j - i]);
        } else {
            if (new_x && ga_grad_value(fn, ga_decode(f, x[j]), &w->own[r]) != GA_TRUTH_OK)
                return -1;
            status = ga_backward_truth(fn, f, &w->own[r], x[j], dy[j], &t[j - i]);
        }
        if (status != GA_TRUTH_OK)
            return -1;
    }
    return 0;
}

/* The chunk's pairs, truths and outputs to the observer, when every row
 * observed has its outputs. */
static void chunk_observe(const struct shared *sh, const struct worker *w, uint64_t start,
                          size_t n)
{
    struct ga_sweep_chunk_view v = { .start = start, .n = n, .x = w->x, .dy = w->dy,
                                     .truth = w->truth };

    v.count = sh->n_rows < GA_SWEEP_OBSERVED ? sh->n_rows : GA_SWEEP_OBSERVED;
    for (size_t r = 0; r < v.count; r++) {
        if (!w->measured[r])
            return;
        v.y[r] = w->dx + r * GA_BACKWARD_CHUNK;
    }
    sh->rows[0].observe(sh->rows[0].observe_ctx, &v);
}

/* One chunk for every row: the pairs filled once, each row's outputs, then
 * block by block each reference's truths once and every row's statistics
 * (st[r], in pair order).  0, or -1. */
static int run_chunk(const struct shared *sh, struct worker *w, uint64_t start, size_t n,
                     struct ga_backward_stats *st)
{
    const struct ga_format *f = sh->layout.format;
    struct ga_truth t[2][GA_BACKWARD_RUN];
    struct ga_error e[GA_BACKWARD_RUN];   /* the statistics' errors, for the heat maps */
    bool needed[2] = { false, false }, dy_one;

    if (ga_pairs_fill(sh->rows[0].pairs, start, n, w->x, w->dy) != 0)
        return -1;
    for (size_t r = 0; r < sh->n_rows; r++) {
        int got;
        ga_backward_stats_init(&st[r]);
        got = outputs(&sh->rows[r], f, start, n, w->x, w->dy, w->dx + r * GA_BACKWARD_CHUNK,
                      &st[r]);
        if (got < 0)
            return -1;
        w->measured[r] = got == 1;
        needed[ref_of(sh->rows[r].reference)] |= w->measured[r];
    }
    dy_one = all_one(f, w->dy, n);
    for (size_t i = 0, m; i < n; i += m) {
        struct ga_truth *block[2] = { t[0], t[1] };
        m = n - i < GA_BACKWARD_RUN ? n - i : GA_BACKWARD_RUN;
        if (w->truth)  /* observed: rows[0]'s truths kept for the whole chunk */
            block[ref_of(sh->rows[0].reference)] = w->truth + i;
        for (int k = 0; k < 2; k++)
            if (needed[k] && truths(sh, w, k, dy_one, i, m, block[k]) != 0)
                return -1;
        for (size_t r = 0; r < sh->n_rows; r++) {
            struct ga_backward_heat *heat = w->heat[r];
            const ga_bits *dx = w->dx + r * GA_BACKWARD_CHUNK;
            if (!w->measured[r])
                continue;
            ga_backward_stats_add_pairs(&st[r], &sh->layout, start + i, m, w->x + i, w->dy + i,
                                        dx + i, block[ref_of(sh->rows[r].reference)],
                                        sh->lookup, heat ? e : NULL);
            for (size_t j = 0; heat != NULL && j < m; j++)
                ga_backward_heat_add(heat, w->x[i + j], w->dy[i + j], &e[j]);
        }
    }
    if (w->truth)
        chunk_observe(sh, w, start, n);
    return 0;
}

/* Which references the rows use and which the fast oracle covers; each
 * reference's d(x) table (the rows' own, or computed here when the domain
 * is large), and the value tables, for a format of 16 bits or fewer.  0,
 * or -1. */
static int shared_tables(struct shared *sh, const struct ga_format *f, uint64_t size)
{
    bool wanted[2] = { false, false };  /* some row has this reference */
    for (size_t i = 0; i < sh->n_rows; i++)
        wanted[ref_of(sh->rows[i].reference)] = true;
    for (int r = 0; r < 2; r++)
        sh->fast[r] = ga_truth_fast_covers(references[r], f);
    if (f->bits > 16)
        return 0;
    for (int r = 0; r < 2; r++) {
        const struct ga_grad_value *given = NULL;
        for (size_t i = 0; i < sh->n_rows && given == NULL; i++)
            if (ref_of(sh->rows[i].reference) == r)
                given = sh->rows[i].grad_table;
        if (!wanted[r] || (given == NULL && size < ((uint64_t)1 << 20)))
            continue;
        sh->tab[r].grad = given ? given
                                : (sh->tab[r].own_grad = ga_backward_grad_table(references[r], f));
        if (sh->tab[r].grad == NULL)
            return -1;
        if (sh->lookup == NULL) {
            if (value_tables(f, &sh->tab[r]) != 0)
                return -1;
            sh->lookup = &sh->tab[r].lookup;
        }
    }
    return 0;
}

static void worker_free(struct worker *w, size_t n_rows)
{
    for (size_t r = 0; w->heat != NULL && r < n_rows; r++)
        free(w->heat[r]);
    free(w->heat);
    free(w->x);
    free(w->dx);
    free(w->measured);
    free(w->truth);
    ga_backward_memo_free(&w->memo[0]);
    ga_backward_memo_free(&w->memo[1]);
}

/* 0, or -1 out of memory. */
static int worker_init(struct worker *w, const struct shared *sh)
{
    const struct ga_format *f = sh->layout.format;

    *w = (struct worker){ .memo = { { .entries = NULL }, { .entries = NULL } } };
    for (int r = 0; r < 2; r++) {
        w->own[r] = (struct ga_grad_value){ GA_GRAD_NAN, 0, 0, 0, 0 };
        w->have_memo[r] = sh->tab[r].grad != NULL
                          && ga_backward_memo_init(&w->memo[r], references[r], f) == 0;
    }
    if ((w->x = malloc(2 * GA_BACKWARD_CHUNK * sizeof *w->x)) != NULL)
        w->dy = w->x + GA_BACKWARD_CHUNK;
    w->dx = malloc(sh->n_rows * GA_BACKWARD_CHUNK * sizeof *w->dx);
    w->measured = malloc(sh->n_rows * sizeof *w->measured);
    w->heat = calloc(sh->n_rows, sizeof *w->heat);
    if (w->x == NULL || w->dx == NULL || w->measured == NULL || w->heat == NULL)
        return -1;
    if (sh->rows[0].observe != NULL
        && (w->truth = malloc(GA_BACKWARD_CHUNK * sizeof *w->truth)) == NULL)
        return -1;
    for (size_t r = 0; r < sh->n_rows; r++)
        if (sh->rows[r].heat != NULL && (w->heat[r] = ga_backward_heat_new(f)) == NULL)
            return -1;
    return 0;
}

uint64_t ga_backward_sweep_chunks(uint64_t pairs)
{
    return (pairs + GA_BACKWARD_CHUNK - 1) / GA_BACKWARD_CHUNK;
}

int ga_backward_sweep_share(const struct ga_backward_sweep *rows, size_t n_rows, uint64_t first,
                            uint64_t end, struct ga_backward_stats *out,
                            struct ga_backward_sums *sums, char *err, size_t errlen)
{
    const struct ga_format *f = rows[0].pairs->format;
    uint64_t size = rows[0].pairs->size;
    size_t chunks = (size_t)(end - first);
    struct ga_backward_stats *per = calloc((chunks ? chunks : 1) * n_rows, sizeof *per);
    struct shared sh = { .rows = rows, .n_rows = n_rows };
    int failed = 0;

    if (per == NULL) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (rows[0].threads > 0)
        omp_set_num_threads(rows[0].threads);
    ga_format_layout_init(&sh.layout, f);
    if (shared_tables(&sh, f, size) != 0) {
        free(per);
        tables_free(&sh.tab[0]);
        tables_free(&sh.tab[1]);
        snprintf(err, errlen, "the derivative was not decided for some %s input, "
                 "or out of memory", f->name);
        return -1;
    }
    #pragma omp parallel reduction(|:failed)
    {
        struct worker w;
        if (worker_init(&w, &sh) != 0)
            failed = 1;
        #pragma omp for schedule(dynamic, 1)
        for (size_t k = 0; k < chunks; k++) {
            uint64_t start = (first + k) * GA_BACKWARD_CHUNK;
            size_t n = (size_t)(size - start < GA_BACKWARD_CHUNK ? size - start
                                                                 : GA_BACKWARD_CHUNK);
            if (!failed)
                failed |= run_chunk(&sh, &w, start, n, &per[k * n_rows]) != 0;
        }
        /* the maps hold counts and maxima: added in any order */
        for (size_t r = 0; r < n_rows; r++)
            if (w.heat != NULL && w.heat[r] != NULL) {
                #pragma omp critical(ga_backward_heat)
                ga_backward_heat_merge(rows[r].heat, w.heat[r]);
            }
        worker_free(&w, n_rows);
        ga_truth_thread_done();
    }
    for (size_t r = 0; r < n_rows; r++) {
        ga_backward_stats_init(&out[r]);
        for (size_t k = 0; k < chunks && !failed; k++)
            ga_backward_stats_merge(&out[r], &per[k * n_rows + r]);
    }
    for (size_t i = 0; sums != NULL && i < chunks * n_rows && !failed; i++)
        sums[i] = ga_backward_sums_of(&per[i]);
    free(per);
    tables_free(&sh.tab[0]);
    tables_free(&sh.tab[1]);
    if (failed)
        snprintf(err, errlen, "a truth was not decided, or the domain could not be read");
    return failed ? -1 : 0;
}

int ga_backward_sweep_rows(const struct ga_backward_sweep *rows, size_t n_rows,
                           struct ga_backward_stats *out, char *err, size_t errlen)
{
    return ga_backward_sweep_share(rows, n_rows, 0,
                                   ga_backward_sweep_chunks(rows[0].pairs->size), out, NULL, err,
                                   errlen);
}

int ga_backward_sweep_run(const struct ga_backward_sweep *s, struct ga_backward_stats *out,
                          char *err, size_t errlen)
{
    return ga_backward_sweep_rows(s, 1, out, err, errlen);
}
