/* A backward section's shard (backward_partial.h): its file form and the
 * merge of every shard into the figures of one process. */
#include "state/backward_partial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/backward_sweep.h"
#include "state/shard.h"
#include "state/state_header.h"

struct ga_backward_partial *ga_backward_partial_new(const struct ga_format *f, const char *domain,
                                                    uint64_t pairs, uint32_t k, uint32_t n,
                                                    size_t n_rows)
{
    struct ga_backward_partial *p;

    if (n_rows > GA_BACKWARD_PARTIAL_ROWS || !(p = calloc(1, sizeof *p)))
        return NULL;
    p->format = f;
    snprintf(p->domain, sizeof p->domain, "%s", domain);
    p->pairs = pairs;
    p->shard = k;
    p->shards = n;
    p->chunks = ga_backward_sweep_chunks(pairs);
    ga_shard_chunks(p->chunks, k, n, &p->first, &p->end);
    p->next = p->end;
    p->n_rows = n_rows;
    for (size_t r = 0; r < n_rows; r++)
        ga_backward_stats_init(&p->row[r].stats);
    p->sums = calloc((size_t)(p->end - p->first) * n_rows + 1, sizeof *p->sums);
    if (!p->sums) {
        free(p);
        return NULL;
    }
    return p;
}

void ga_backward_partial_free(struct ga_backward_partial *p)
{
    if (!p)
        return;
    for (size_t r = 0; r < p->n_rows; r++)
        free(p->row[r].heat);
    free(p->sums);
    free(p);
}

/* --- the file form --- */

static void put_region(struct ga_byte_writer *w, const struct ga_backward_region *g)
{
    const uint64_t counts[] = { g->count, g->correct, g->faithful, g->sign_errors,
                                g->nan_outputs, g->not_nan, g->inf_outputs, g->flushed,
                                g->zero_sign, g->ulp_count, g->dy_ulp_count };

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        ga_bytes_put_u64(w, counts[i]);
    ga_bytes_put_f64(w, g->max_ulp);
    ga_bytes_put_f64(w, g->sum_ulp);
    ga_bytes_put_f64(w, g->max_dy_ulp);
    ga_bytes_put_f64(w, g->sum_dy_ulp);
    ga_bytes_put_u64(w, g->worst.index);
    ga_bytes_put_u64(w, g->worst.x);
    ga_bytes_put_u64(w, g->worst.dy);
    ga_bytes_put_u64(w, g->worst.dx);
    ga_bytes_put_u64(w, g->worst.truth);
    ga_bytes_put_f64(w, g->worst.ulp);
}

static void get_region(struct ga_byte_reader *r, struct ga_backward_region *g)
{
    uint64_t *counts[] = { &g->count, &g->correct, &g->faithful, &g->sign_errors,
                           &g->nan_outputs, &g->not_nan, &g->inf_outputs, &g->flushed,
                           &g->zero_sign, &g->ulp_count, &g->dy_ulp_count };

    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        *counts[i] = ga_bytes_get_u64(r);
    g->max_ulp = ga_bytes_get_f64(r);
    g->sum_ulp = ga_bytes_get_f64(r);
    g->max_dy_ulp = ga_bytes_get_f64(r);
    g->sum_dy_ulp = ga_bytes_get_f64(r);
    g->worst.index = ga_bytes_get_u64(r);
    g->worst.x = ga_bytes_get_u64(r);
    g->worst.dy = ga_bytes_get_u64(r);
    g->worst.dx = ga_bytes_get_u64(r);
    g->worst.truth = ga_bytes_get_u64(r);
    g->worst.ulp = ga_bytes_get_f64(r);
    ga_bytes_need(r, g->correct <= g->faithful && g->faithful <= g->count
                     && g->ulp_count <= g->count && g->dy_ulp_count <= g->ulp_count,
                  "backward counts that do not add up");
}

static void put_stats(struct ga_byte_writer *w, const struct ga_backward_stats *s)
{
    put_region(w, &s->all);
    put_region(w, &s->root);
    ga_bytes_put_u64(w, s->failed_pairs);
    ga_bytes_put_u64(w, s->failed_batches);
    ga_bytes_put_u64(w, s->failure.first);
    ga_bytes_put_u64(w, s->failure.last);
    ga_bytes_put_u64(w, s->failure.x);
    ga_bytes_put_u64(w, s->failure.dy);
    ga_bytes_put_str(w, s->failed_batches > 0 ? s->failure.what : "");
    ga_bytes_put_f64(w, s->unfaithful_lo);
    ga_bytes_put_f64(w, s->unfaithful_hi);
}

static void get_stats(struct ga_byte_reader *r, struct ga_backward_stats *s)
{
    get_region(r, &s->all);
    get_region(r, &s->root);
    ga_bytes_need(r, s->root.count <= s->all.count, "a root region larger than the domain");
    s->failed_pairs = ga_bytes_get_u64(r);
    s->failed_batches = ga_bytes_get_u64(r);
    s->failure.first = ga_bytes_get_u64(r);
    s->failure.last = ga_bytes_get_u64(r);
    s->failure.x = ga_bytes_get_u64(r);
    s->failure.dy = ga_bytes_get_u64(r);
    ga_bytes_get_str(r, s->failure.what, sizeof s->failure.what);
    ga_bytes_need(r, s->failed_batches > 0 || s->failure.what[0] == '\0',
                  "a failure described where no batch failed");
    s->unfaithful_lo = ga_bytes_get_f64(r);
    s->unfaithful_hi = ga_bytes_get_f64(r);
}

/* The cells that counted pairs, sparse. */
static void put_heat(struct ga_byte_writer *w, const struct ga_backward_heat *h)
{
    uint32_t cells = 0;

    ga_bytes_put_u32(w, (uint32_t)h->rows);
    ga_bytes_put_u64(w, h->nan_x);
    for (int i = 0; i < h->rows; i++)
        for (int j = 0; j < GA_HEAT_COLUMNS; j++)
            cells += h->cell[i][j].count > 0;
    ga_bytes_put_u32(w, cells);
    for (int i = 0; i < h->rows; i++)
        for (int j = 0; j < GA_HEAT_COLUMNS; j++) {
            const struct ga_heat_cell *c = &h->cell[i][j];
            if (c->count == 0)
                continue;
            ga_bytes_put_u32(w, (uint32_t)(i * GA_HEAT_COLUMNS + j));
            ga_bytes_put_u64(w, c->count);
            ga_bytes_put_u64(w, c->incorrect);
            ga_bytes_put_u64(w, c->unfaithful);
            ga_bytes_put_f64(w, c->max_ulp);
        }
}

static struct ga_backward_heat *get_heat(struct ga_byte_reader *r, const struct ga_format *f)
{
    struct ga_backward_heat *h = ga_backward_heat_new(f);
    uint32_t rows, cells, next = 0;

    if (!h) {
        ga_bytes_fail(r, "out of memory, or a heat map of a format with no map");
        return NULL;
    }
    rows = ga_bytes_get_u32(r);
    ga_bytes_need(r, rows == (uint32_t)h->rows, "a heat map of another format");
    h->nan_x = ga_bytes_get_u64(r);
    cells = ga_bytes_get_u32(r);
    ga_bytes_need(r, cells <= rows * GA_HEAT_COLUMNS, "more heat map cells than there are");
    for (uint32_t k = 0; k < cells && !r->failure; k++) {
        uint32_t at = ga_bytes_get_u32(r);
        struct ga_heat_cell *c;
        ga_bytes_need(r, at >= next && at < rows * GA_HEAT_COLUMNS, "heat map cells out of order");
        if (r->failure)
            break;
        next = at + 1;
        c = &h->cell[at / GA_HEAT_COLUMNS][at % GA_HEAT_COLUMNS];
        c->count = ga_bytes_get_u64(r);
        c->incorrect = ga_bytes_get_u64(r);
        c->unfaithful = ga_bytes_get_u64(r);
        c->max_ulp = ga_bytes_get_f64(r);
        ga_bytes_need(r, c->count > 0 && c->incorrect <= c->count && c->unfaithful <= c->incorrect,
                      "a heat map cell that does not add up");
    }
    if (r->failure) {
        free(h);
        return NULL;
    }
    return h;
}

void ga_backward_partial_put(struct ga_byte_writer *w, const struct ga_backward_partial *p)
{
    size_t n_sums = (size_t)(p->next - p->first) * p->n_rows;

    ga_bytes_put_str(w, p->domain);
    ga_bytes_put_u64(w, p->pairs);
    ga_bytes_put_u32(w, p->shard);
    ga_bytes_put_u32(w, p->shards);
    ga_bytes_put_u64(w, p->next);
    ga_bytes_put_u32(w, (uint32_t)p->n_rows);
    for (size_t r = 0; r < p->n_rows; r++) {
        const struct ga_backward_partial_row *row = &p->row[r];
        ga_bytes_put_str(w, row->impl);
        ga_header_put_function(w, row->reference);
        put_stats(w, &row->stats);
        ga_bytes_put_u8(w, row->heat != NULL);
        if (row->heat)
            put_heat(w, row->heat);
    }
    for (size_t i = 0; i < n_sums; i++) {
        ga_bytes_put_f64(w, p->sums[i].ulp);
        ga_bytes_put_f64(w, p->sums[i].dy_ulp);
        ga_bytes_put_f64(w, p->sums[i].root_ulp);
        ga_bytes_put_f64(w, p->sums[i].root_dy_ulp);
    }
}

struct ga_backward_partial *ga_backward_partial_get(struct ga_byte_reader *r,
                                                    const struct ga_format *f)
{
    char domain[GA_DOMAIN_SPEC_LEN], name[64];
    uint64_t pairs, next;
    uint32_t k, n, n_rows;
    struct ga_backward_partial *p;
    size_t n_sums;

    ga_bytes_get_str(r, domain, sizeof domain);
    pairs = ga_bytes_get_u64(r);
    ga_bytes_need(r, pairs >= 1 && pairs <= ((uint64_t)1 << 32),
                  "a backward domain of no pairs, or more than 2^32");
    k = ga_bytes_get_u32(r);
    n = ga_bytes_get_u32(r);
    ga_bytes_need(r, k >= 1 && k <= n && n <= GA_SHARD_MAX,
                  "a backward shard outside 1 <= K <= N <= 2^20");
    next = ga_bytes_get_u64(r);
    n_rows = ga_bytes_get_u32(r);
    ga_bytes_need(r, n_rows >= 1 && n_rows <= GA_BACKWARD_PARTIAL_ROWS,
                  "a backward row count out of range");
    if (r->failure)
        return NULL;
    if (!(p = ga_backward_partial_new(f, domain, pairs, k, n, n_rows))) {
        ga_bytes_fail(r, "out of memory");
        return NULL;
    }
    ga_bytes_need(r, next >= p->first && next <= p->end,
                  "a backward shard measured past its chunks");
    p->next = next;
    for (size_t i = 0; i < p->n_rows && !r->failure; i++) {
        struct ga_backward_partial_row *row = &p->row[i];
        ga_bytes_get_str(r, row->impl, sizeof row->impl);
        ga_bytes_get_str(r, name, sizeof name);
        ga_bytes_need(r, ga_oracle_function_by_name(name, &row->reference) == 0
                         && !ga_function_is_forward(row->reference),
                      "a backward row against no derivative");
        get_stats(r, &row->stats);
        if (ga_bytes_get_u8(r) && !r->failure)
            row->heat = get_heat(r, f);
    }
    n_sums = (size_t)(p->next - p->first) * p->n_rows;
    ga_bytes_need(r, n_sums <= (r->size - r->at) / 32, "backward sums longer than the file");
    for (size_t i = 0; i < n_sums && !r->failure; i++) {
        p->sums[i].ulp = ga_bytes_get_f64(r);
        p->sums[i].dy_ulp = ga_bytes_get_f64(r);
        p->sums[i].root_ulp = ga_bytes_get_f64(r);
        p->sums[i].root_dy_ulp = ga_bytes_get_f64(r);
    }
    if (r->failure) {
        ga_backward_partial_free(p);
        return NULL;
    }
    return p;
}

/* --- merging --- */

/* Whether b is a shard of the section of a. */
static bool same_section(const struct ga_backward_partial *a, const struct ga_backward_partial *b)
{
    bool same = a->format == b->format && strcmp(a->domain, b->domain) == 0
                && a->pairs == b->pairs && a->n_rows == b->n_rows;

    for (size_t r = 0; same && r < a->n_rows; r++)
        same = strcmp(a->row[r].impl, b->row[r].impl) == 0
               && a->row[r].reference == b->row[r].reference
               && (a->row[r].heat == NULL) == (b->row[r].heat == NULL);
    return same;
}

int ga_backward_partials_merge(struct ga_backward_partial *const *parts, size_t n,
                               struct ga_backward_partial **out, const char **why,
                               size_t *index)
{
    const struct ga_backward_partial *a = parts[0];
    const struct ga_backward_partial **by_shard;
    struct ga_backward_partial *m;

    *out = NULL;
    *index = 0;
    for (size_t k = 0; k < n; k++)
        if (parts[k]->next != parts[k]->end) {
            *why = "an unfinished shard (a checkpoint)";
            *index = k;
            return -1;
        }
    for (size_t k = 1; k < n; k++)
        if (parts[k]->shards != a->shards) {
            *why = "another number of shards";
            *index = k;
            return -1;
        } else if (!same_section(a, parts[k])) {
            *why = "a backward section measured another way";
            *index = k;
            return -1;
        }
    if (!(by_shard = calloc(a->shards, sizeof *by_shard))) {
        *why = "out of memory";
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        if (by_shard[parts[k]->shard - 1]) {
            *why = "a shard given twice";
            *index = k;
            free(by_shard);
            return -1;
        }
        by_shard[parts[k]->shard - 1] = parts[k];
    }
    if (n != a->shards) {
        *why = "shards are missing";
        free(by_shard);
        return -1;
    }
    if (!(m = ga_backward_partial_new(a->format, a->domain, a->pairs, 1, 1, a->n_rows))) {
        *why = "out of memory";
        free(by_shard);
        return -1;
    }
    for (size_t r = 0; r < a->n_rows; r++) {
        struct ga_backward_partial_row *row = &m->row[r];
        struct ga_backward_sums sums = ga_backward_sums_of(&row->stats);
        memcpy(row->impl, a->row[r].impl, sizeof row->impl);
        row->reference = a->row[r].reference;
        if (a->row[r].heat && !(row->heat = ga_backward_heat_new(a->format))) {
            *why = "out of memory";
            ga_backward_partial_free(m);
            free(by_shard);
            return -1;
        }
        /* shards in chunk order, then each chunk's sums in that order */
        for (uint32_t s = 0; s < a->shards; s++) {
            const struct ga_backward_partial *p = by_shard[s];
            ga_backward_stats_merge(&row->stats, &p->row[r].stats);
            if (row->heat)
                ga_backward_heat_merge(row->heat, p->row[r].heat);
            for (uint64_t k = 0; k < p->end - p->first; k++)
                ga_backward_sums_add(&sums, &p->sums[k * p->n_rows + r]);
        }
        ga_backward_sums_set(&row->stats, &sums);
    }
    free(m->sums);
    m->sums = NULL;
    free(by_shard);
    *out = m;
    return 0;
}
