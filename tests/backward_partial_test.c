/* The shards of a backward section (state/backward_partial.h) against the
 * sweep of one process, bit for bit: each shard swept over its chunks
 * (ga_backward_sweep_share), written to bytes and read back, then every
 * shard merged in reverse order.  The statistics (their floating-point sums
 * included, which only the replay of each chunk's sums in chunk order
 * gives) and the heat maps must be those of ga_backward_sweep_rows over the
 * whole domain, for 1 shard, for shards of several chunks, and for more
 * shards than chunks (empty ones).  Then the merges that must be refused,
 * and files cut short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "impls/backward.h"
#include "io/bytes.h"
#include "state/backward_partial.h"
#include "measure/backward_sweep.h"
#include "truth/backward.h"
#include "backward_same.h"
#include "test_random.h"

/* Both references, a tanh form against gelu' too; maps on two rows. */
static const struct {
    const char *kernel;
    enum ga_function reference;
    bool heat;
} rows[] = {
    { "pytorch_gelu_backward", GA_GELU_GRAD, true },
    { "pytorch_gelu_backward_tanh", GA_GELU_TANH_GRAD, false },
    { "pytorch_gelu_backward_tanh_native", GA_GELU_GRAD, true },
};
enum { N_ROWS = sizeof rows / sizeof rows[0] };

/* d(x) of every bfloat16 x per derivative, for the tabled path (a report
 * section's); NULL elsewhere: pairs one by one. */
static struct ga_grad_value *tables[2];

/* The rows over p, with fresh maps where the row has one (16-bit formats). */
static void plan(struct ga_backward_sweep *s, const struct ga_pairs *p)
{
    for (size_t r = 0; r < N_ROWS; r++) {
        s[r] = (struct ga_backward_sweep){
            .name = rows[r].kernel, .impl = ga_backward_catalogue_find(rows[r].kernel),
            .reference = rows[r].reference, .pairs = p, .threads = 2,
            .grad_table = p->format->id == GA_BFLOAT16
                              ? tables[rows[r].reference == GA_GELU_TANH_GRAD] : NULL };
        assert_non_null(s[r].impl);
        if (rows[r].heat && p->format->bits <= 16)
            assert_non_null(s[r].heat = ga_backward_heat_new(p->format));
    }
}

/* Shard k of n swept and passed through its file form. */
static struct ga_backward_partial *shard(const struct ga_pairs *p, const char *domain, uint32_t k,
                                         uint32_t n)
{
    struct ga_backward_sweep s[N_ROWS];
    struct ga_backward_stats stats[N_ROWS];
    struct ga_backward_partial *part, *back;
    struct ga_byte_writer w = { 0 };
    struct ga_byte_reader r;
    char err[256];

    plan(s, p);
    assert_non_null(part = ga_backward_partial_new(p->format, domain, p->size, k, n, N_ROWS));
    assert_int_equal(ga_backward_sweep_share(s, N_ROWS, part->first, part->end, stats, part->sums,
                                             err, sizeof err), 0);
    for (size_t i = 0; i < N_ROWS; i++) {
        snprintf(part->row[i].impl, sizeof part->row[i].impl, "%s", rows[i].kernel);
        part->row[i].reference = rows[i].reference;
        part->row[i].stats = stats[i];
        part->row[i].heat = s[i].heat;
    }
    ga_backward_partial_put(&w, part);
    assert_false(w.failed);
    r = (struct ga_byte_reader){ .data = w.data, .size = w.size };
    back = ga_backward_partial_get(&r, p->format);
    assert_null(r.failure);
    assert_non_null(back);
    assert_int_equal(r.at, r.size);
    /* cut short anywhere: refused, never read past the end */
    for (size_t cut = 0; cut < w.size; cut += 1 + w.size / 7) {
        struct ga_byte_reader c = { .data = w.data, .size = cut };
        assert_null(ga_backward_partial_get(&c, p->format));
        assert_non_null(c.failure);
    }
    ga_bytes_writer_free(&w);
    ga_backward_partial_free(part);
    return back;
}

/* The whole domain swept once, then cut into each shard count of ns[]. */
static void shards_match_whole(const struct ga_format *f, const char *domain, const uint32_t *ns,
                               size_t count)
{
    struct ga_backward_sweep whole[N_ROWS];
    struct ga_backward_stats stats[N_ROWS];
    struct ga_pairs p;
    char err[256];

    assert_int_equal(ga_pairs_parse(&p, domain, f, ga_encode(f, 1.0), err, sizeof err), 0);
    plan(whole, &p);
    assert_int_equal(ga_backward_sweep_rows(whole, N_ROWS, stats, err, sizeof err), 0);
    for (size_t c = 0; c < count; c++) {
        uint32_t n = ns[c];
        struct ga_backward_partial **parts = calloc(n, sizeof *parts), *merged;
        const char *why;
        size_t index;
        assert_non_null(parts);
        for (uint32_t k = 1; k <= n; k++)
            parts[n - k] = shard(&p, domain, k, n);  /* given in reverse order */
        assert_int_equal(ga_backward_partials_merge(parts, n, &merged, &why, &index), 0);
        assert_int_equal(merged->shards, 1);
        assert_null(merged->sums);
        for (size_t r = 0; r < N_ROWS; r++) {
            assert_true(merged->row[r].stats.all.count == p.size);
            assert_same_backward_stats(&merged->row[r].stats, &stats[r]);
            assert_true((merged->row[r].heat == NULL) == (whole[r].heat == NULL));
            if (whole[r].heat)
                assert_same_backward_heat(merged->row[r].heat, whole[r].heat);
        }
        ga_backward_partial_free(merged);
        for (uint32_t k = 0; k < n; k++)
            ga_backward_partial_free(parts[k]);
        free(parts);
    }
    for (size_t r = 0; r < N_ROWS; r++)
        free(whole[r].heat);
    ga_pairs_free(&p);
}

/* bfloat16: 5 chunks of pairs, d(x) tabled and memoised; 7 shards leave
 * 2 with no chunk. */
static void test_bfloat16(void **state)
{
    (void)state;
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    assert_non_null(tables[0] = ga_backward_grad_table(GA_GELU_GRAD, f));
    assert_non_null(tables[1] = ga_backward_grad_table(GA_GELU_TANH_GRAD, f));
    shards_match_whole(f, "pairs:random:300000:2", (const uint32_t[]){ 1, 2, 3, 7 }, 4);
    free(tables[0]);
    free(tables[1]);
    tables[0] = tables[1] = NULL;
}

/* float16 pair by pair (no table below 2^20 pairs), 3 chunks. */
static void test_float16(void **state)
{
    (void)state;
    shards_match_whole(ga_format_get(GA_FLOAT16), "pairs:random:150000:3",
                       (const uint32_t[]){ 3 }, 1);
}

/* float32 x with dy = 1 (the fast oracle), 4 chunks. */
static void test_float32(void **state)
{
    (void)state;
    shards_match_whole(ga_format_get(GA_FLOAT32), "stride:16384", (const uint32_t[]){ 4 }, 1);
}

static void assert_refused(struct ga_backward_partial *const *parts, size_t n, const char *what,
                           size_t at)
{
    struct ga_backward_partial *merged = (struct ga_backward_partial *)parts;
    const char *why = NULL;
    size_t index = 99;

    assert_int_equal(ga_backward_partials_merge(parts, n, &merged, &why, &index), -1);
    assert_null(merged);
    assert_non_null(why);
    assert_string_equal(why, what);
    if (at != SIZE_MAX)
        assert_int_equal(index, at);
}

static void test_refused(void **state)
{
    (void)state;
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    const char *domain = "pairs:random:40000:4", *other = "pairs:random:40000:5";
    struct ga_backward_partial *s[3], *o;
    struct ga_pairs p, q;
    char err[256];

    assert_int_equal(ga_pairs_parse(&p, domain, f, ga_encode(f, 1.0), err, sizeof err), 0);
    assert_int_equal(ga_pairs_parse(&q, other, f, ga_encode(f, 1.0), err, sizeof err), 0);
    for (uint32_t k = 0; k < 3; k++)
        s[k] = shard(&p, domain, k + 1, 3);
    o = shard(&q, other, 2, 3);
    assert_refused((struct ga_backward_partial *[]){ s[0], s[2] }, 2, "shards are missing",
                   SIZE_MAX);
    assert_refused((struct ga_backward_partial *[]){ s[0], s[2], s[0] }, 3, "a shard given twice",
                   2);
    assert_refused((struct ga_backward_partial *[]){ s[0], o, s[2] }, 3,
                   "a backward section measured another way", 1);
    /* another row */
    snprintf(s[1]->row[2].impl, sizeof s[1]->row[2].impl, "%s", "megatron_bias_gelu_back");
    assert_refused((struct ga_backward_partial *[]){ s[0], s[1], s[2] }, 3,
                   "a backward section measured another way", 1);
    for (int k = 0; k < 3; k++)
        ga_backward_partial_free(s[k]);
    ga_backward_partial_free(o);
    ga_pairs_free(&p);
    ga_pairs_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bfloat16),
        cmocka_unit_test(test_float16),
        cmocka_unit_test(test_float32),
        cmocka_unit_test(test_refused),
    };
    test_random_init();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
