/* The oracle audit's state (src/audit/audit.c, audit_file.c) and the report
 * partial (src/state/report_partial.c): an audit counts every input of its
 * domain, whatever the shards and threads; merged disagreements are the
 * first in domain order, all counted; sets that are not one audit are
 * refused; both files read back into what was written (re-encoded to the
 * same bytes), and every truncation and flipped byte is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "impls/impl.h"
#include "audit/audit.h"
#include "state/report_partial.h"
#include "state/shard.h"
#include "measure/sweep.h"

static void open_domain(struct ga_domain *d, const char *format, const char *spec)
{
    char err[256];
    const struct ga_format *f = ga_format_by_name(format);

    assert_non_null(f);
    assert_int_equal(ga_domain_parse(d, spec, f, err, sizeof err), 0);
}

static void audit_shards(void **state)
{
    struct ga_domain d;
    struct ga_audit whole, parts[4], merged;
    const struct ga_audit *list[4];
    size_t bad;
    const char *why;

    (void)state;
    /* [-2, 2] in bfloat16: 2 * (0x4000 + 1) encodings, counted by hand */
    open_domain(&d, "bfloat16", "range:-2:2");
    assert_int_equal(d.size, 2 * (0x4000 + 1));
    assert_int_equal(ga_audit_init(&whole, "t", GA_GELU, &d, 1, 1), 0);
    assert_int_equal(ga_audit_run(&whole, &d, 1, NULL, NULL, 0), 0);
    assert_int_equal(whole.inputs, d.size);
    assert_int_equal(whole.disagreements, 0);
    for (uint32_t n = 1; n <= 4; n++) {
        for (uint32_t k = 1; k <= n; k++) {
            assert_int_equal(ga_audit_init(&parts[k - 1], "t", GA_GELU, &d, k, n), 0);
            assert_int_equal(ga_audit_run(&parts[k - 1], &d, 2, NULL, NULL, 0), 0);
            list[n - k] = &parts[k - 1];  /* any order */
        }
        assert_int_equal(ga_audits_merge(list, n, &merged, &bad, &why), 0);
        assert_int_equal(merged.inputs, d.size);
        assert_int_equal(merged.next, ga_sweep_chunk_count(d.size));
        assert_int_equal(merged.shard, 1);
    }
    ga_domain_free(&d);
}

/* A finished shard k of 2 of bfloat16 'all' listing the given indices out of
 * `count` disagreements. */
static void forged(struct ga_audit *a, const struct ga_domain *d, uint32_t k,
                   const uint64_t *index, uint32_t listed, uint64_t count)
{
    assert_int_equal(ga_audit_init(a, "t", GA_GELU, d, k, 2), 0);
    a->next = a->end;
    a->inputs = ga_sweep_chunk_inputs(d->size, a->first, a->end);
    a->disagreements = count;
    a->listed = listed;
    for (uint32_t i = 0; i < listed; i++)
        a->list[i] = (struct ga_audit_disagreement){ .index = index[i], .x = (uint32_t)index[i],
                                                     .mpfr = 1, .fast = 2, .mpfr_dir = 1,
                                                     .fast_dir = -1 };
}

static void disagreements_in_domain_order(void **state)
{
    struct ga_domain d;
    struct ga_audit a, b, merged;
    const struct ga_audit *list[2] = { &b, &a };
    uint64_t first[GA_AUDIT_LISTED], second[2] = { 33000, 40000 };
    size_t bad;
    const char *why;

    (void)state;
    open_domain(&d, "bfloat16", "all");
    for (uint32_t i = 0; i < GA_AUDIT_LISTED; i++)
        first[i] = 3 * i + 7;
    /* shard 1: 100 disagreements, its first 64 listed; shard 2: two */
    forged(&a, &d, 1, first, GA_AUDIT_LISTED, 100);
    forged(&b, &d, 2, second, 2, 2);
    assert_int_equal(ga_audits_merge(list, 2, &merged, &bad, &why), 0);
    assert_int_equal(merged.disagreements, 102);
    assert_int_equal(merged.listed, GA_AUDIT_LISTED);
    for (uint32_t i = 0; i < GA_AUDIT_LISTED; i++)
        assert_int_equal(merged.list[i].index, 3 * i + 7);
    /* with fewer in shard 1, shard 2's come after them */
    forged(&a, &d, 1, first, 3, 3);
    assert_int_equal(ga_audits_merge(list, 2, &merged, &bad, &why), 0);
    assert_int_equal(merged.listed, 5);
    assert_int_equal(merged.list[2].index, 13);
    assert_int_equal(merged.list[3].index, 33000);
    assert_int_equal(merged.list[4].index, 40000);
    ga_domain_free(&d);
}

static void merge_refusals(void **state)
{
    struct ga_domain d, other;
    struct ga_audit a, b, c, merged;
    const struct ga_audit *list[2];
    size_t bad;
    const char *why;

    (void)state;
    open_domain(&d, "bfloat16", "all");
    open_domain(&other, "bfloat16", "range:-1:1");
    forged(&a, &d, 1, NULL, 0, 0);
    forged(&b, &d, 2, NULL, 0, 0);
    assert_int_equal(ga_audit_init(&c, "t", GA_GELU, &other, 2, 2), 0);
    c.next = c.end;
    list[0] = &a;
    list[1] = &c;
    assert_int_equal(ga_audits_merge(list, 2, &merged, &bad, &why), -1);
    assert_int_equal(bad, 1);
    assert_string_equal(why, "another audit");
    list[1] = &a;
    assert_int_equal(ga_audits_merge(list, 2, &merged, &bad, &why), -1);
    assert_string_equal(why, "a shard given twice");
    assert_int_equal(ga_audits_merge(list, 1, &merged, &bad, &why), -1);
    assert_string_equal(why, "a shard is missing");
    {
        uint32_t missing[1];
        assert_int_equal(ga_audits_missing(list, 1, missing, 1), 1);
        assert_int_equal(missing[0], 2);
        list[0] = &b;
        assert_int_equal(ga_audits_missing(list, 1, missing, 1), 1);
        assert_int_equal(missing[0], 1);
        list[0] = &a;
    }
    b.next = b.first;
    list[1] = &b;
    assert_int_equal(ga_audits_merge(list, 2, &merged, &bad, &why), -1);
    assert_string_equal(why, "an unfinished shard (a checkpoint)");
    /* the derivatives have a fast path in bfloat16 (fast_grad.c), not in float64 */
    assert_int_equal(ga_audit_init(&c, "t", GA_GELU_GRAD, &d, 1, 1), 0);
    {
        struct ga_domain wide;
        open_domain(&wide, "float64", "random:10");
        assert_int_equal(ga_audit_init(&c, "t", GA_GELU_GRAD, &wide, 1, 1), -1);
        ga_domain_free(&wide);
    }
    ga_domain_free(&d);
    ga_domain_free(&other);
}

static void audit_file(void **state)
{
    struct ga_domain d;
    struct ga_audit a, back;
    uint64_t index[3] = { 5, 900, 65535 };
    unsigned char *data, *again;
    size_t size, again_size;
    struct ga_io_error err;

    (void)state;
    open_domain(&d, "bfloat16", "all");
    forged(&a, &d, 2, index + 1, 2, 2);
    a.cpu_s = 12.25;
    a.list[1].kind = GA_AUDIT_MPFR_UNDECIDED;
    assert_int_equal(ga_audit_encode(&a, &data, &size, &err), GA_IO_OK);
    assert_int_equal(ga_audit_decode(data, size, &back, &err), GA_IO_OK);
    assert_int_equal(back.inputs, a.inputs);
    assert_int_equal(back.listed, 2);
    assert_int_equal(back.list[1].index, 65535);
    assert_int_equal(back.list[1].kind, GA_AUDIT_MPFR_UNDECIDED);
    assert_int_equal(back.list[0].fast_dir, -1);
    assert_true(back.cpu_s == 12.25);
    assert_int_equal(ga_audit_encode(&back, &again, &again_size, &err), GA_IO_OK);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, data, size);
    free(again);
    for (size_t n = 0; n < size; n++)
        assert_int_not_equal(ga_audit_decode(data, n, &back, &err), GA_IO_OK);
    for (size_t i = 0; i < size; i++) {
        data[i] ^= 0x10;
        assert_int_not_equal(ga_audit_decode(data, size, &back, &err), GA_IO_OK);
        data[i] ^= 0x10;
    }
    free(data);
    ga_domain_free(&d);
}

/* A report partial of one bfloat16 measurement with its profile and the
 * backward options reads back into the same bytes; cut or flipped, it is
 * refused. */
static void report_partial_file(void **state)
{
    struct ga_domain d;
    struct ga_measurement m = { .reference = GA_GELU, .want_profile = true };
    struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST, .threads = 2,
                                  .first_chunk = 2, .end_chunk = 5 };
    struct ga_partial_identity id;
    struct ga_report_partial rp = { .oracle = GA_ORACLE_FAST, .shard = 2, .shards = 5 }, back;
    unsigned char *data, *again;
    size_t size, again_size;
    struct ga_io_error err;
    ga_bits input;

    (void)state;
    open_domain(&d, "bfloat16", "all");
    m.impl = ga_catalogue_find("tanh");
    assert_non_null(m.impl);
    strcpy(rp.program, "t");
    strcpy(rp.formats, "bfloat16");
    strcpy(rp.float32_domain, "stride:4096");
    strcpy(rp.backward_domain[0], "pairs:all");
    strcpy(rp.backward_domain[2], "stride:256");
    /* shard 2 of 5 of 16 chunks: chunks 3 to 5 */
    assert_int_equal(ga_report_partial_add_format(&rp, d.format, 1), 0);
    assert_int_equal(ga_partial_identity_init(&id, "t", d.format, "tanh", &m, &d,
                                              GA_ORACLE_FAST, 0, 0), 0);
    assert_non_null(rp.format[0].parts[0] = ga_partial_new(&id, 2, 5));
    o.first_chunk = rp.format[0].parts[0]->first;
    o.end_chunk = rp.format[0].parts[0]->end;
    assert_int_equal(ga_sweep_run(d.format, &d, &m, 1, &o, &input), GA_SWEEP_OK);
    assert_int_equal(ga_measurement_merge(&rp.format[0].parts[0]->m, &m), GA_SWEEP_OK);
    rp.format[0].parts[0]->next = rp.format[0].parts[0]->end;
    rp.format[0].profiles[0] = m.profile;
    m.profile = NULL;
    ga_measurement_clear(&m);

    assert_int_equal(ga_report_partial_encode(&rp, &data, &size, &err), GA_IO_OK);
    assert_true(ga_report_partial_is(data, size));
    assert_int_equal(ga_report_partial_decode(data, size, &back, &err), GA_IO_OK);
    assert_false(back.no_backward);
    assert_string_equal(back.backward_domain[0], "pairs:all");
    assert_string_equal(back.backward_domain[1], "");
    assert_string_equal(back.backward_domain[2], "stride:256");
    assert_non_null(back.format[0].profiles[0]);
    assert_memory_equal(back.format[0].profiles[0]->bin_count,
                        rp.format[0].profiles[0]->bin_count,
                        sizeof rp.format[0].profiles[0]->bin_count);
    assert_int_equal(ga_report_partial_encode(&back, &again, &again_size, &err), GA_IO_OK);
    assert_int_equal(again_size, size);
    assert_memory_equal(again, data, size);
    free(again);
    ga_report_partial_free(&back);
    /* a shard count no --shard accepts (N <= 2^20) is refused, and said */
    rp.shards = GA_SHARD_MAX + 1;
    assert_int_equal(ga_report_partial_encode(&rp, &again, &again_size, &err), GA_IO_OK);
    assert_int_not_equal(ga_report_partial_decode(again, again_size, &back, &err), GA_IO_OK);
    assert_non_null(strstr(err.message, "N <= 2^20"));
    free(again);
    ga_report_partial_free(&back);
    rp.shards = 5;
    for (size_t n = 0; n < size; n += 97) {
        assert_int_not_equal(ga_report_partial_decode(data, n, &back, &err), GA_IO_OK);
        ga_report_partial_free(&back);
    }
    for (size_t i = 0; i < size; i += 89) {
        data[i] ^= 0x04;
        assert_int_not_equal(ga_report_partial_decode(data, size, &back, &err), GA_IO_OK);
        ga_report_partial_free(&back);
        data[i] ^= 0x04;
    }
    free(data);
    ga_report_partial_free(&rp);
    ga_domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_shards),
        cmocka_unit_test(disagreements_in_domain_order),
        cmocka_unit_test(merge_refusals),
        cmocka_unit_test(audit_file),
        cmocka_unit_test(report_partial_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
