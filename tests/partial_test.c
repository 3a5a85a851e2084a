/* Partial results (src/state/partial.c, partial_file.c, shard.c): shards
 * cover the chunks once; shards swept apart and merged hold the statistics
 * of one sweep, byte for byte; a file reads back into the state it was
 * written from; a set of partials of different sweeps, or with a shard
 * missing, repeated or unfinished, is refused; every truncation, every
 * flipped byte and a forged field are errors, never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "impls/impl.h"
#include "io/bytes.h"
#include "state/partial.h"
#include "state/shard.h"
#include "test_random.h"

/* A partial identity of a catalogue kernel over a domain. */
struct fixture {
    const struct ga_format *f;
    struct ga_domain d;
    struct ga_measurement m;
    struct ga_partial_identity id;
};

static void fixture_open(struct fixture *fx, const char *format, const char *impl,
                         const char *domain)
{
    char err[256];

    memset(fx, 0, sizeof *fx);
    fx->f = ga_format_by_name(format);
    assert_non_null(fx->f);
    assert_int_equal(ga_domain_parse(&fx->d, domain, fx->f, err, sizeof err), 0);
    fx->m.impl = ga_catalogue_find(impl);
    assert_non_null(fx->m.impl);
    fx->m.reference = GA_GELU;
    fx->m.want_shape = true;
    assert_int_equal(ga_partial_identity_init(&fx->id, "gelu-accuracy test", fx->f, impl,
                                              &fx->m, &fx->d, GA_ORACLE_FAST, 0, 0), 0);
}

/* Shard k of n, swept. */
static struct ga_partial *swept_shard(struct fixture *fx, uint32_t k, uint32_t n)
{
    struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST, .threads = 2 };
    struct ga_partial *p = ga_partial_new(&fx->id, k, n);
    ga_bits input;

    assert_non_null(p);
    assert_int_equal(ga_partial_run(p, &fx->d, &fx->m, &o, NULL, NULL, 0, &input), GA_SWEEP_OK);
    return p;
}

static void assert_same_stats(const struct ga_stats *a, const struct ga_stats *b)
{
    assert_int_equal(a->extent_min, b->extent_min);
    assert_int_equal(a->extent_max, b->extent_max);
    assert_memory_equal(a->region, b->region, sizeof a->region);
}

/* The shapes' figures (measure/shape.h), the pairs across shards included. */
static void assert_same_shape(const struct ga_shape *a, const struct ga_shape *b)
{
    assert_non_null(a);
    assert_non_null(b);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(a->side[i].pairs, b->side[i].pairs);
        assert_int_equal(a->side[i].violations, b->side[i].violations);
        assert_int_equal(a->side[i].worst.lo, b->side[i].worst.lo);
        assert_int_equal(a->side[i].first.lo, b->side[i].first.lo);
    }
    assert_int_equal(a->minimum.x, b->minimum.x);
    assert_int_equal(a->minimum.y, b->minimum.y);
    assert_int_equal(a->truth_minimum.x, b->truth_minimum.x);
    assert_int_equal(a->sign_errors, b->sign_errors);
    assert_int_equal(a->odd_pairs, b->odd_pairs);
    assert_int_equal(a->odd_breaks, b->odd_breaks);
    assert_int_equal(a->first_odd_break.x, b->first_odd_break.x);
}

/* Shards K/N: [floor((K-1)C/N), floor(KC/N)), adjacent, covering [0, C). */
static void test_shard_chunks(void **state)
{
    uint32_t k, n;

    (void)state;
    for (uint64_t chunks = 0; chunks < 40; chunks++)
        for (n = 1; n <= 9; n++) {
            uint64_t next = 0;
            for (k = 1; k <= n; k++) {
                uint64_t first, end;
                ga_shard_chunks(chunks, k, n, &first, &end);
                assert_int_equal(first, next);
                assert_true(end >= first && end - first <= chunks / n + 1);
                next = end;
            }
            assert_int_equal(next, chunks);
        }
    assert_int_equal(ga_shard_parse("3/4", &k, &n), 0);
    assert_int_equal(k, 3);
    assert_int_equal(n, 4);
    assert_int_equal(ga_shard_parse("1/1", &k, &n), 0);
    assert_int_equal(ga_shard_parse("0/4", &k, &n), -1);     /* numbered from 1 */
    assert_int_equal(ga_shard_parse("5/4", &k, &n), -1);
    assert_int_equal(ga_shard_parse("4", &k, &n), -1);
    assert_int_equal(ga_shard_parse("1/-4", &k, &n), -1);
    assert_int_equal(ga_shard_parse("1/2/3", &k, &n), -1);
    assert_int_equal(ga_shard_parse("1/2000000", &k, &n), -1);  /* above GA_SHARD_MAX */
}

/* Shards swept apart and merged = one sweep of the domain. */
static void test_merged_equals_one_sweep(void **state)
{
    static const char *const impls[] = { "erf", "tanh", "quick" };

    (void)state;
    for (size_t i = 0; i < sizeof impls / sizeof impls[0]; i++) {
        struct fixture fx;
        struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST };
        struct ga_measurement one;
        ga_bits input;

        fixture_open(&fx, "bfloat16", impls[i], "all");
        one = fx.m;
        assert_int_equal(ga_sweep_run(fx.f, &fx.d, &one, 1, &o, &input), GA_SWEEP_OK);
        for (uint32_t n = 1; n <= 5; n++) {
            struct ga_partial *parts[5], *all;
            struct ga_partial_set_problem why;
            /* in reverse order: the merge must not depend on it */
            for (uint32_t k = n; k >= 1; k--)
                parts[n - k] = swept_shard(&fx, k, n);
            assert_int_equal(ga_partials_merge(parts, n, &all, &why), GA_PARTIALS_OK);
            assert_same_stats(all->m.stats, one.stats);
            assert_same_shape(all->m.shape, one.shape);
            assert_int_equal(all->next, all->end);
            ga_partial_free(all);
            for (uint32_t k = 0; k < n; k++)
                ga_partial_free(parts[k]);
        }
        ga_measurement_clear(&one);
        ga_domain_free(&fx.d);
    }
}

/* float64: encodings, keys and extents of 64 bits survive the file, and
 * shards of a sample merge to one sweep's statistics. */
static void test_float64(void **state)
{
    struct fixture fx;
    struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST };
    struct ga_measurement one;
    struct ga_partial *parts[3], *all, *back;
    struct ga_partial_set_problem why;
    struct ga_io_error err;
    unsigned char *a;
    size_t na;
    ga_bits input;

    (void)state;
    fixture_open(&fx, "float64", "erf_f64", "random:30000:5,range:-40:10:5000");
    one = fx.m;
    assert_int_equal(ga_sweep_run(fx.f, &fx.d, &one, 1, &o, &input), GA_SWEEP_OK);
    /* a worst input beyond 32 bits, so that a narrower file would lose it */
    assert_true(one.stats->region[0].tally.max_ulp.x > UINT32_MAX);
    for (uint32_t k = 1; k <= 3; k++) {
        parts[k - 1] = swept_shard(&fx, k, 3);
        assert_int_equal(ga_partial_encode(parts[k - 1], &a, &na, &err), GA_IO_OK);
        assert_int_equal(ga_partial_decode(a, na, &back, &err), GA_IO_OK);
        assert_same_stats(back->m.stats, parts[k - 1]->m.stats);
        free(a);
        ga_partial_free(parts[k - 1]);
        parts[k - 1] = back;
    }
    assert_int_equal(ga_partials_merge(parts, 3, &all, &why), GA_PARTIALS_OK);
    assert_same_stats(all->m.stats, one.stats);
    assert_same_shape(all->m.shape, one.shape);
    ga_partial_free(all);
    for (int k = 0; k < 3; k++)
        ga_partial_free(parts[k]);
    ga_measurement_clear(&one);
    ga_domain_free(&fx.d);
}

/* A partial with failing spans of every kind of field filled. */
static struct ga_partial *with_failures(struct fixture *fx)
{
    struct ga_partial *p = swept_shard(fx, 2, 3);

    p->m.failed = true;
    p->m.failed_batches = 2;
    p->m.failure_spans = 300;
    p->m.failure_count = 2;
    p->m.failures[0] = (struct ga_failure_record){ .start = 4096, .first = 4100, .last = 4100,
                                                   .what = "crashed (SIGSEGV)" };
    p->m.failures[1] = (struct ga_failure_record){ .start = 8192, .first = 8192, .last = 9000,
                                                   .what = "hung" };
    return p;
}

/* Encode, decode, encode: the same bytes, the same state. */
static void test_round_trip(void **state)
{
    struct fixture fx;
    struct ga_partial *p, *back;
    unsigned char *a, *b;
    size_t na, nb;
    struct ga_io_error err;

    (void)state;
    fixture_open(&fx, "bfloat16", "tanh", "range:-8:8");
    p = with_failures(&fx);
    assert_int_equal(ga_partial_encode(p, &a, &na, &err), GA_IO_OK);
    assert_int_equal(ga_partial_decode(a, na, &back, &err), GA_IO_OK);
    assert_int_equal(ga_partial_identity_differs(&p->id, &back->id), -1);
    assert_int_equal(back->shard, 2);
    assert_int_equal(back->shards, 3);
    assert_int_equal(back->first, p->first);
    assert_int_equal(back->end, p->end);
    assert_int_equal(back->next, p->next);
    assert_same_stats(back->m.stats, p->m.stats);
    assert_same_shape(back->m.shape, p->m.shape);
    assert_true(back->m.failed);
    assert_int_equal(back->m.failure_spans, 300);
    assert_int_equal(back->m.failure_count, 2);
    assert_memory_equal(back->m.failures, p->m.failures, 2 * sizeof p->m.failures[0]);
    assert_string_equal(back->m.impl->name, "tanh");
    assert_string_equal(back->m.impl->formula, fx.m.impl->formula);
    assert_int_equal(ga_partial_encode(back, &b, &nb, &err), GA_IO_OK);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
    ga_partial_free(back);
    ga_partial_free(p);
    ga_domain_free(&fx.d);
}

/* Every prefix and every flipped byte: an error, no partial; another
 * version or magic: named. */
static void test_truncated_and_corrupt(void **state)
{
    struct fixture fx;
    struct ga_partial *p, *back;
    struct ga_io_error err;
    unsigned char *a;
    size_t n;

    (void)state;
    fixture_open(&fx, "bfloat16", "erf", "all");
    p = with_failures(&fx);
    assert_int_equal(ga_partial_encode(p, &a, &n, &err), GA_IO_OK);
    for (size_t len = 0; len < n; len++) {
        unsigned char *cut = malloc(len + 1);  /* exactly len bytes for ASan to watch */
        memcpy(cut, a, len);
        assert_int_not_equal(ga_partial_decode(cut, len, &back, &err), GA_IO_OK);
        assert_null(back);
        free(cut);
    }
    for (size_t i = 0; i < n; i++) {
        a[i] ^= 0x20;
        assert_int_not_equal(ga_partial_decode(a, n, &back, &err), GA_IO_OK);
        assert_null(back);
        a[i] ^= 0x20;
    }
    assert_int_equal(ga_partial_decode(a, n, &back, &err), GA_IO_OK);
    ga_partial_free(back);
    a[16] = 2;  /* the version, little-endian after the 16-byte magic: 32-bit encodings */
    assert_int_equal(ga_partial_decode(a, n, &back, &err), GA_IO_UNSUPPORTED);
    assert_non_null(strstr(err.message, "version 2"));
    a[16] = 3;
    a[0] = 'G';
    assert_int_equal(ga_partial_decode(a, n, &back, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "not a partial file"));
    free(a);
    ga_partial_free(p);
    ga_domain_free(&fx.d);
}

/* A field changed with the checksum made good again: its check refuses it. */
static enum ga_io_status forged(const struct ga_partial *p, void (*forge)(struct ga_partial *),
                                struct ga_io_error *err)
{
    struct ga_partial *copy = ga_partial_new(&p->id, p->shard, p->shards), *back = NULL;
    unsigned char *data;
    size_t n;
    enum ga_io_status s;

    assert_non_null(copy);
    copy->next = p->next;
    copy->m.failed_inputs = p->m.failed_inputs;
    assert_int_equal(ga_stats_merge(copy->m.stats, p->m.stats), GA_STATS_OK);
    forge(copy);
    assert_int_equal(ga_partial_encode(copy, &data, &n, err), GA_IO_OK);
    s = ga_partial_decode(data, n, &back, err);
    ga_partial_free(back);
    ga_partial_free(copy);
    free(data);
    return s;
}

static void other_shard_range(struct ga_partial *p) { p->end = p->end + 1; }
static void count_off_by_one(struct ga_partial *p) { p->m.stats->region[2].tally.correct++; }
static void span_outside(struct ga_partial *p)
{
    p->m.failure_spans = p->m.failure_count = 1;
    p->m.failures[0] = (struct ga_failure_record){ .first = p->id.domain_size,
                                                   .last = p->id.domain_size };
}
static void bad_key(struct ga_partial *p) { p->m.stats->extent_min = INT64_MIN; }
static void unknown_format(struct ga_partial *p) { strcpy(p->id.format, "float8"); }
static void not_forged(struct ga_partial *p) { (void)p; }

static void test_forged_fields(void **state)
{
    struct fixture fx;
    struct ga_partial *p;
    struct ga_io_error err;

    (void)state;
    fixture_open(&fx, "bfloat16", "quick", "all");
    p = swept_shard(&fx, 1, 2);
    assert_int_equal(forged(p, not_forged, &err), GA_IO_OK);
    assert_int_equal(forged(p, other_shard_range, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "shard"));
    assert_int_equal(forged(p, count_off_by_one, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "inputs counted"));
    assert_int_equal(forged(p, span_outside, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "failing span"));
    assert_int_equal(forged(p, bad_key, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "extent"));
    assert_int_equal(forged(p, unknown_format, &err), GA_IO_MALFORMED);
    assert_non_null(strstr(err.message, "format"));
    ga_partial_free(p);
    ga_domain_free(&fx.d);
}

/* Sets that are not one sweep, each named. */
static void test_refused_sets(void **state)
{
    struct fixture fx, other;
    struct ga_partial *p[4], *all;
    struct ga_partial_set_problem why;
    struct ga_partial_field fields[GA_PARTIAL_FIELDS];

    (void)state;
    fixture_open(&fx, "bfloat16", "erf", "range:-1:1");
    p[0] = swept_shard(&fx, 1, 3);
    p[1] = swept_shard(&fx, 2, 3);
    p[2] = swept_shard(&fx, 3, 3);

    /* shard 2 missing */
    assert_int_equal(ga_partials_merge((struct ga_partial *[]){ p[0], p[2] }, 2, &all, &why),
                     GA_PARTIALS_MISSING);
    assert_null(all);
    assert_int_equal(why.missing_count, 1);
    assert_int_equal(why.missing[0], 2);
    /* shard 3 twice */
    assert_int_equal(ga_partials_merge((struct ga_partial *[]){ p[0], p[2], p[1], p[2] }, 4, &all,
                                       &why), GA_PARTIALS_DUPLICATE);
    assert_int_equal(why.other, 1);
    assert_int_equal(why.index, 3);
    /* unfinished */
    p[1]->next--;
    assert_int_equal(ga_partials_merge(p, 3, &all, &why), GA_PARTIALS_INCOMPLETE);
    assert_int_equal(why.index, 1);
    p[1]->next++;
    /* another domain, another oracle */
    fixture_open(&other, "bfloat16", "erf", "range:-1:0.5");
    p[3] = swept_shard(&other, 2, 3);
    ga_partial_fields(&p[3]->id, fields);
    assert_int_equal(ga_partials_merge((struct ga_partial *[]){ p[0], p[3], p[2] }, 3, &all, &why),
                     GA_PARTIALS_DIFFERENT);
    assert_int_equal(why.index, 1);
    assert_string_equal(fields[why.field].name, "domain");
    p[1]->id.oracle = GA_ORACLE_MPFR;
    assert_int_equal(ga_partials_merge(p, 3, &all, &why), GA_PARTIALS_DIFFERENT);
    assert_string_equal(fields[why.field].name, "oracle");
    p[1]->id.oracle = GA_ORACLE_FAST;
    strcpy(p[2]->id.program, "gelu-accuracy 0.0.9");
    assert_int_equal(ga_partials_merge(p, 3, &all, &why), GA_PARTIALS_DIFFERENT);
    assert_string_equal(fields[why.field].name, "program");
    assert_int_equal(why.index, 2);
    strcpy(p[2]->id.program, p[0]->id.program);
    assert_int_equal(ga_partials_merge(p, 3, &all, &why), GA_PARTIALS_OK);
    ga_partial_free(all);
    for (int i = 0; i < 4; i++)
        ga_partial_free(p[i]);
    ga_domain_free(&fx.d);
    ga_domain_free(&other.d);
}

/* Merging failure records keeps the first GA_FAILURES_KEPT spans of the
 * union in domain order, and counts every span. */
static void test_failure_spans_merge(void **state)
{
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    static struct ga_measurement a, b;

    (void)state;
    a.stats = ga_stats_new(f);
    b.stats = ga_stats_new(f);
    /* a: spans at even multiples of 10, b: odd, 200 each */
    for (size_t i = 0; i < 200; i++) {
        a.failures[i] = (struct ga_failure_record){ .start = 20 * i, .first = 20 * i,
                                                    .last = 20 * i, .what = "a" };
        b.failures[i] = (struct ga_failure_record){ .start = 20 * i + 10, .first = 20 * i + 10,
                                                    .last = 20 * i + 10, .what = "b" };
    }
    a.failure_count = b.failure_count = 200;
    a.failure_spans = 200;
    b.failure_spans = 250;   /* 50 more than b kept */
    assert_int_equal(ga_measurement_merge(&a, &b), GA_SWEEP_OK);
    assert_int_equal(a.failure_count, GA_FAILURES_KEPT);
    assert_int_equal(a.failure_spans, 450);
    for (size_t i = 0; i < GA_FAILURES_KEPT; i++)
        assert_int_equal(a.failures[i].first, 10 * i);
    ga_stats_free(a.stats);
    ga_stats_free(b.stats);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shard_chunks),
        cmocka_unit_test(test_merged_equals_one_sweep),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_float64),
        cmocka_unit_test(test_truncated_and_corrupt),
        cmocka_unit_test(test_forged_fields),
        cmocka_unit_test(test_refused_sets),
        cmocka_unit_test(test_failure_spans_merge),
    };
    test_random_init();
    return cmocka_run_group_tests_name("partial", tests, NULL, NULL);
}
