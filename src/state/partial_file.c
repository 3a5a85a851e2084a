/* The partial file, version 3 (doc/partial-format.md is its description):
 * the magic, the version, then the identity, the share, the failure record
 * and the statistics accumulator field by field, little-endian, and an
 * FNV-1a checksum of everything before it.  The reader checks the checksum,
 * then every field: a damaged or forged file is refused with the offset and
 * the field, never trusted into an index or a count. */
#include "state/partial.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bytes.h"
#include "io/whole_file.h"
#include "state/shape_file.h"
#include "state/state_header.h"
#include "grade/stats_add.h"

#define MAGIC "gelu-acc partial"  /* 16 bytes, no NUL */
/* 2: the shape (measure/shape.h) after the statistics; 3: encodings as u64 and
 * value keys as they are, so that float64 sweeps have partial files too */
#define VERSION 3u
/* Far above any real partial (about 10 KB, at most 400 KB). */

static const struct ga_header_share_words share_words = {
    .shard = "the shard is not K/N with 1 <= K <= N",
    .chunk_size = "another chunk size",
    .chunks = "the chunks are not those of the shard",
    .next = "the chunks measured lie outside the shard",
};

/* --- writing --- */

static void put_exact(struct ga_byte_writer *w, const struct ga_exact *e)
{
    ga_bytes_put_f64(w, e->mant);
    ga_bytes_put_u64(w, (uint64_t)(int64_t)e->exp);
}

static void put_point(struct ga_byte_writer *w, const struct ga_stats_point *p)
{
    ga_bytes_put_f64(w, p->error);
    put_exact(w, &p->exact);
    ga_bytes_put_u64(w, p->x);
    ga_bytes_put_u64(w, p->y);
}

/* An array as its length, its nonzero count, then (index, value) pairs:
 * most bins of a histogram are empty. */
static void put_sparse(struct ga_byte_writer *w, const void *array, size_t n, int width)
{
    uint32_t nonzero = 0;

    for (size_t i = 0; i < n; i++)
        nonzero += width == 8 ? ((const uint64_t *)array)[i] != 0
                              : ((const uint32_t *)array)[i] != 0;
    ga_bytes_put_u32(w, (uint32_t)n);
    ga_bytes_put_u32(w, nonzero);
    for (size_t i = 0; i < n; i++) {
        uint64_t v = width == 8 ? ((const uint64_t *)array)[i] : ((const uint32_t *)array)[i];
        if (v == 0)
            continue;
        ga_bytes_put_u32(w, (uint32_t)i);
        if (width == 8)
            ga_bytes_put_u64(w, v);
        else
            ga_bytes_put_u32(w, (uint32_t)v);
    }
}

static void put_region(struct ga_byte_writer *w, const struct ga_region_stats *r)
{
    const struct ga_tally *t = &r->tally;

    ga_bytes_put_u64(w, t->correct);
    ga_bytes_put_u64(w, (uint64_t)t->nonzero_min);
    put_point(w, &t->max_ulp);
    put_point(w, &t->max_rel);
    put_point(w, &t->max_abs);
    ga_bytes_put_u64(w, t->faithful);
    ga_bytes_put_u64(w, t->flushed);
    ga_bytes_put_u64(w, t->nan);
    ga_bytes_put_u64(w, t->inf);
    ga_bytes_put_u64(w, t->wrong_zero_sign);
    ga_bytes_put_u64(w, t->not_nan);
    ga_bytes_put_u64(w, t->unfaithful_zeros);
    ga_bytes_put_u32(w, GA_DIST_BUCKETS);
    for (int i = 0; i < GA_DIST_BUCKETS; i++)
        ga_bytes_put_u64(w, t->distance[i]);
    ga_bytes_put_u64(w, t->unfaithful_neg);
    ga_bytes_put_u64(w, t->unfaithful_pos);
    ga_bytes_put_u32(w, GA_FAULT_COUNT);
    for (int i = 0; i < GA_FAULT_COUNT; i++) {
        const struct ga_fault_point *f = &t->first_fault[i];
        ga_bytes_put_u64(w, (uint64_t)f->key);
        ga_bytes_put_u64(w, f->x);
        ga_bytes_put_u64(w, f->y);
        put_exact(w, &f->exact);
    }
    put_sparse(w, r->ulp_sum, GA_ULP_SUM_BUCKETS, 8);
    put_sparse(w, r->ulp_bins, GA_ULP_BINS, 4);
}

static void put_partial(struct ga_byte_writer *w, const struct ga_partial *p)
{
    const struct ga_partial_identity *id = &p->id;
    const struct ga_measurement *m = &p->m;

    ga_bytes_put_frame_head(w, MAGIC, VERSION);
    ga_bytes_put_str(w, id->program);
    ga_bytes_put_str(w, id->format);
    ga_bytes_put_str(w, id->kernel);
    ga_bytes_put_str(w, id->impl);
    ga_bytes_put_str(w, id->models);
    ga_bytes_put_str(w, id->formula);
    ga_bytes_put_str(w, id->computes);
    ga_header_put_function(w, id->approximates);
    ga_bytes_put_u8(w, id->real);
    ga_header_put_function(w, id->reference);
    ga_header_put_oracle(w, id->oracle);
    ga_header_put_domain(w, id->domain, id->domain_size, id->domain_digest);
    ga_bytes_put_u64(w, id->max_failures);
    ga_bytes_put_f64(w, id->timeout_s);

    ga_header_put_share(w, &(struct ga_header_share){ p->shard, p->shards, p->first, p->end,
                                                      p->next }, &share_words);

    ga_bytes_put_u8(w, m->failed);
    ga_bytes_put_u64(w, m->failed_inputs);
    ga_bytes_put_u64(w, m->failed_batches);
    ga_bytes_put_u64(w, m->skipped_inputs);
    ga_bytes_put_u64(w, m->failure_spans);
    ga_bytes_put_u32(w, (uint32_t)m->failure_count);
    for (size_t i = 0; i < m->failure_count; i++) {
        ga_bytes_put_u64(w, m->failures[i].start);
        ga_bytes_put_u64(w, m->failures[i].first);
        ga_bytes_put_u64(w, m->failures[i].last);
        ga_bytes_put_str(w, m->failures[i].what);
    }

    ga_bytes_put_u64(w, (uint64_t)m->stats->extent_min);
    ga_bytes_put_u64(w, (uint64_t)m->stats->extent_max);
    ga_bytes_put_u32(w, GA_REGION_COUNT);
    for (int r = 0; r < GA_REGION_COUNT; r++)
        put_region(w, &m->stats->region[r]);
    ga_shape_put(w, m->shape);
}

enum ga_io_status ga_partial_encode(const struct ga_partial *p, unsigned char **data,
                                    size_t *size, struct ga_io_error *err)
{
    struct ga_byte_writer w = { 0 };

    put_partial(&w, p);
    return ga_bytes_close_frame(&w, data, size, err);
}

/* --- reading --- */

/* A key of stats_add.h (|x| or ~|x|, |x| below 2^(bits - 1)) of an
 * encoding of f, or `none`; every int64_t is the key of a float64. */
static bool key_ok(int64_t key, int64_t none, const struct ga_format *f)
{
    int64_t bound = f->bits < 64 ? (int64_t)1 << (f->bits - 1) : INT64_MAX;
    return key == none || f->bits >= 64 || (key >= -bound && key < bound);
}

static bool bits_ok(ga_bits x, const struct ga_format *f)
{
    return (uint64_t)x <= ga_all_ones(f);
}

static void get_exact(struct ga_byte_reader *r, struct ga_exact *e)
{
    e->mant = ga_bytes_get_f64(r);
    e->exp = (long)(int64_t)ga_bytes_get_u64(r);
}

static void get_point(struct ga_byte_reader *r, struct ga_stats_point *p,
                      const struct ga_format *f)
{
    p->error = ga_bytes_get_f64(r);
    get_exact(r, &p->exact);
    p->x = ga_bytes_get_u64(r);
    p->y = ga_bytes_get_u64(r);
    ga_bytes_need(r, p->error == -1.0 || p->error >= 0.0, "a maximum's error is neither -1 nor >= 0");
    ga_bytes_need(r, bits_ok(p->x, f) && bits_ok(p->y, f), "a maximum's input or output is not an encoding of the format");
}

static void get_sparse(struct ga_byte_reader *r, void *array, size_t n, int width,
                       const char *name)
{
    uint32_t size = ga_bytes_get_u32(r), nonzero = ga_bytes_get_u32(r);
    int64_t last = -1;

    ga_bytes_need(r, size == n, name);
    ga_bytes_need(r, nonzero <= n, name);
    for (uint32_t k = 0; k < nonzero && !r->failure; k++) {
        uint32_t i = ga_bytes_get_u32(r);
        uint64_t v = width == 8 ? ga_bytes_get_u64(r) : ga_bytes_get_u32(r);
        ga_bytes_need(r, (int64_t)i > last && i < n && v != 0, name);
        if (r->failure)
            return;
        last = i;
        if (width == 8)
            ((uint64_t *)array)[i] = v;
        else
            ((uint32_t *)array)[i] = (uint32_t)v;
    }
}

static void get_region(struct ga_byte_reader *r, struct ga_region_stats *rs,
                       const struct ga_format *f)
{
    struct ga_tally *t = &rs->tally;
    uint64_t measured = 0;

    t->correct = ga_bytes_get_u64(r);
    t->nonzero_min = (int64_t)ga_bytes_get_u64(r);
    ga_bytes_need(r, key_ok(t->nonzero_min, NO_KEY, f), "the least nonzero output's input is out of range");
    get_point(r, &t->max_ulp, f);
    get_point(r, &t->max_rel, f);
    get_point(r, &t->max_abs, f);
    t->faithful = ga_bytes_get_u64(r);
    t->flushed = ga_bytes_get_u64(r);
    t->nan = ga_bytes_get_u64(r);
    t->inf = ga_bytes_get_u64(r);
    t->wrong_zero_sign = ga_bytes_get_u64(r);
    t->not_nan = ga_bytes_get_u64(r);
    t->unfaithful_zeros = ga_bytes_get_u64(r);
    ga_bytes_need(r, ga_bytes_get_u32(r) == GA_DIST_BUCKETS, "the distance histogram has another number of buckets");
    for (int i = 0; i < GA_DIST_BUCKETS; i++)
        t->distance[i] = ga_bytes_get_u64(r);
    t->unfaithful_neg = ga_bytes_get_u64(r);
    t->unfaithful_pos = ga_bytes_get_u64(r);
    ga_bytes_need(r, (t->unfaithful_neg == NO_MAGNITUDE || bits_ok(t->unfaithful_neg, f))
            && (t->unfaithful_pos == NO_MAGNITUDE || bits_ok(t->unfaithful_pos, f)),
         "an unfaithful input is not an encoding of the format");
    ga_bytes_need(r, ga_bytes_get_u32(r) == GA_FAULT_COUNT, "another number of fault kinds");
    for (int i = 0; i < GA_FAULT_COUNT; i++) {
        struct ga_fault_point *p = &t->first_fault[i];
        p->key = (int64_t)ga_bytes_get_u64(r);
        p->x = ga_bytes_get_u64(r);
        p->y = ga_bytes_get_u64(r);
        get_exact(r, &p->exact);
        ga_bytes_need(r, key_ok(p->key, NO_KEY, f) && bits_ok(p->x, f) && bits_ok(p->y, f),
             "a first fault is not an encoding of the format");
    }
    get_sparse(r, rs->ulp_sum, GA_ULP_SUM_BUCKETS, 8, "the mean's sums are malformed");
    get_sparse(r, rs->ulp_bins, GA_ULP_BINS, 4, "the ulp histogram is malformed");
    for (int i = 0; i < GA_ULP_BINS; i++)
        measured += rs->ulp_bins[i];
    /* counts below 2^32 each, so their sums cannot wrap */
    for (int i = 0; i < GA_DIST_BUCKETS; i++)
        ga_bytes_need(r, t->distance[i] <= COUNT_LIMIT, "a count is above 2^32");
    ga_bytes_need(r, t->correct <= COUNT_LIMIT && tally_count(t) <= COUNT_LIMIT,
         "a region counts 2^32 inputs or more");
    ga_bytes_need(r, measured <= tally_count(t), "a region measured more inputs than it counts");
}

static void get_identity(struct ga_byte_reader *r, struct ga_partial_identity *id)
{
    char name[32];

    ga_bytes_get_str(r, id->program, sizeof id->program);
    ga_header_get_format(r, id->format, sizeof id->format, "unknown format");
    ga_bytes_get_str(r, id->kernel, sizeof id->kernel);
    ga_bytes_get_str(r, id->impl, sizeof id->impl);
    ga_bytes_get_str(r, id->models, sizeof id->models);
    ga_bytes_get_str(r, id->formula, sizeof id->formula);
    ga_bytes_get_str(r, id->computes, sizeof id->computes);
    ga_header_get_function(r, name, sizeof name, &id->approximates,
                           "unknown function approximated");
    id->real = ga_bytes_get_u8(r) != 0;
    ga_header_get_function(r, name, sizeof name, &id->reference, "unknown reference");
    ga_header_get_oracle(r, name, sizeof name, &id->oracle, "unknown oracle");
    ga_header_get_domain(r, id->domain, &id->domain_size, &id->domain_digest,
                         "the domain size is 0 or above 2^32");
    id->max_failures = ga_bytes_get_u64(r);
    id->timeout_s = ga_bytes_get_f64(r);
    ga_bytes_need(r, id->timeout_s >= 0 && id->timeout_s <= 86400, "the timeout is out of range");
}

static void get_share(struct ga_byte_reader *r, struct ga_partial *p)
{
    struct ga_header_share share;

    ga_header_get_share(r, p->id.domain_size, &share, &share_words);
    p->shard = share.shard;
    p->shards = share.shards;
    p->first = share.first;
    p->end = share.end;
    p->next = share.next;
}

static void get_measurement(struct ga_byte_reader *r, struct ga_partial *p)
{
    struct ga_measurement *m = &p->m;
    uint64_t size = p->id.domain_size;
    uint32_t count;

    m->failed = ga_bytes_get_u8(r) != 0;
    m->failed_inputs = ga_bytes_get_u64(r);
    m->failed_batches = ga_bytes_get_u64(r);
    m->skipped_inputs = ga_bytes_get_u64(r);
    m->failure_spans = ga_bytes_get_u64(r);
    count = ga_bytes_get_u32(r);
    ga_bytes_need(r, count <= GA_FAILURES_KEPT && count <= m->failure_spans,
         "more failing spans kept than there are, or than are kept");
    for (uint32_t i = 0; i < count && !r->failure; i++) {
        struct ga_failure_record *rec = &m->failures[i];
        rec->start = ga_bytes_get_u64(r);
        rec->first = ga_bytes_get_u64(r);
        rec->last = ga_bytes_get_u64(r);
        ga_bytes_get_str(r, rec->what, sizeof rec->what);
        ga_bytes_need(r, rec->start <= rec->first && rec->first <= rec->last && rec->last < size
                && (i == 0 || m->failures[i - 1].first <= rec->first),
             "a failing span lies outside the domain, or out of order");
        m->failure_count = i + 1;
    }
}

static void get_stats(struct ga_byte_reader *r, struct ga_partial *p)
{
    struct ga_stats *s = p->m.stats;
    uint64_t counted = p->m.failed_inputs + p->m.skipped_inputs;

    s->extent_min = (int64_t)ga_bytes_get_u64(r);
    s->extent_max = (int64_t)ga_bytes_get_u64(r);
    ga_bytes_need(r, key_ok(s->extent_min, INT64_MAX, p->format)
            && key_ok(s->extent_max, INT64_MIN, p->format), "the extent is out of range");
    ga_bytes_need(r, ga_bytes_get_u32(r) == GA_REGION_COUNT, "another number of regions");
    for (int i = 0; i < GA_REGION_COUNT && !r->failure; i++) {
        get_region(r, &s->region[i], p->format);
        counted += tally_count(&s->region[i].tally);
    }
    ga_bytes_need(r, p->m.failed_inputs <= GA_SWEEP_MAX_INPUTS && p->m.skipped_inputs <= GA_SWEEP_MAX_INPUTS
            && counted == ga_sweep_chunk_inputs(p->id.domain_size, p->first, p->next),
         "the inputs counted are not those of the chunks measured");
}

enum ga_io_status ga_partial_decode(const unsigned char *data, size_t size,
                                    struct ga_partial **out, struct ga_io_error *err)
{
    struct ga_byte_reader r;
    struct ga_partial_identity *id;
    struct ga_partial *p;
    enum ga_io_status s = ga_bytes_open_frame(data, size, MAGIC, VERSION, "partial file", &r,
                                              err);

    *out = NULL;
    if (s != GA_IO_OK)
        return s;
    if (!(id = calloc(1, sizeof *id)))
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    get_identity(&r, id);
    p = r.failure ? NULL : ga_partial_new(id, 1, 1);
    free(id);
    if (!r.failure && !p)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    if (p) {
        get_share(&r, p);
        get_measurement(&r, p);
        if (!r.failure)
            get_stats(&r, p);
        if (!r.failure)
            ga_shape_get(&r, p->format, p->id.reference, &p->m.shape);
    }
    if ((s = ga_bytes_close_body(&r, "bytes follow the shape", err)) != GA_IO_OK) {
        ga_partial_free(p);
        return s;
    }
    *out = p;
    return s;
}

