/* The backward heat map (measure/backward_heat.h): its bins, and that the map
 * a sweep fills adds up to the sweep's own statistics (counts, correctly
 * rounded, faithful, the largest ulp error) and is the same for 1 and 2
 * threads.  And the report's other hook in the sweep: a d(x) table given to
 * it (ga_backward_grad_table) gives the statistics of d(x) computed pair by
 * pair. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/backward_heat.h"
#include "measure/backward_sweep.h"
#include "domain/pairs.h"

static void test_columns(void **state)
{
    (void)state;
    /* 128 bins of width 1/8 over [-8, 8); 8 itself in the last */
    assert_int_equal(ga_backward_heat_column(-8.0), 0);
    assert_int_equal(ga_backward_heat_column(-7.9375), 0);
    assert_int_equal(ga_backward_heat_column(-7.875), 1);
    assert_int_equal(ga_backward_heat_column(-0.0625), 63);
    assert_int_equal(ga_backward_heat_column(-0.0), 64);
    assert_int_equal(ga_backward_heat_column(0.0), 64);
    assert_int_equal(ga_backward_heat_column(7.9375), 127);
    assert_int_equal(ga_backward_heat_column(8.0), 127);
    assert_int_equal(ga_backward_heat_column(-8.0625), GA_HEAT_COLUMN_BELOW);
    assert_int_equal(ga_backward_heat_column(-INFINITY), GA_HEAT_COLUMN_BELOW);
    assert_int_equal(ga_backward_heat_column(8.0625), GA_HEAT_COLUMN_ABOVE);
    assert_int_equal(ga_backward_heat_column(INFINITY), GA_HEAT_COLUMN_ABOVE);
    assert_int_equal(ga_backward_heat_column(NAN), -1);
    assert_true(ga_backward_heat_column_lo(64) == 0.0);
    assert_true(ga_backward_heat_column_lo(1) == -7.875);
}

static void test_rows(void **state)
{
    struct ga_backward_heat *b = ga_backward_heat_new(ga_format_get(GA_BFLOAT16));
    struct ga_backward_heat *h = ga_backward_heat_new(ga_format_get(GA_FLOAT16));
    struct ga_error e = { .flags = GA_ERR_FAITHFUL, .ulp = 0.75 };

    (void)state;
    assert_non_null(b);
    assert_non_null(h);
    assert_int_equal(b->rows, 256);
    assert_int_equal(h->rows, 32);
    /* dy = -1.0 in float16 is 0xbc00: exponent field 15, whatever its sign */
    ga_backward_heat_add(h, 0x3c00, 0xbc00, &e);
    assert_int_equal(h->cell[15][ga_backward_heat_column(1.0)].count, 1);
    assert_int_equal(h->cell[15][ga_backward_heat_column(1.0)].incorrect, 1);
    assert_int_equal(h->cell[15][ga_backward_heat_column(1.0)].unfaithful, 0);
    assert_true(h->cell[15][ga_backward_heat_column(1.0)].max_ulp == 0.75);
    /* a NaN x has no column */
    ga_backward_heat_add(h, 0x7e00, 0x3c00, &e);
    assert_int_equal(h->nan_x, 1);
    /* no map for a format whose exponent field is wider than 8 bits */
    assert_null(ga_backward_heat_new(ga_format_get(GA_FLOAT64)));
    free(b);
    free(h);
}

/* One sweep of pairs with a heat map, on threads. */
static struct ga_backward_heat *sweep(const char *impl, const struct ga_format *f,
                                      const struct ga_pairs *p, int threads,
                                      struct ga_backward_stats *st)
{
    const struct ga_backward_impl *k = ga_backward_catalogue_find(impl);
    struct ga_backward_heat *h = ga_backward_heat_new(f);
    struct ga_backward_sweep s = { .name = impl, .impl = k, .reference = k->approximates,
                                   .pairs = p, .threads = threads, .heat = h };
    char err[256];

    assert_non_null(h);
    assert_int_equal(ga_backward_sweep_run(&s, st, err, sizeof err), 0);
    return h;
}

static void check_totals(const char *impl, enum ga_format_id id, const char *domain)
{
    const struct ga_format *f = ga_format_get(id);
    struct ga_pairs p;
    struct ga_backward_stats one, two;
    char err[256];
    uint64_t count = 0, incorrect = 0, unfaithful = 0;
    double max_ulp = 0;

    assert_int_equal(ga_pairs_parse(&p, domain, f, ga_encode(f, 1.0), err, sizeof err), 0);
    struct ga_backward_heat *h1 = sweep(impl, f, &p, 1, &one);
    struct ga_backward_heat *h2 = sweep(impl, f, &p, 2, &two);
    for (int r = 0; r < h1->rows; r++)
        for (int k = 0; k < GA_HEAT_COLUMNS; k++) {
            const struct ga_heat_cell *c = &h1->cell[r][k];
            count += c->count;
            incorrect += c->incorrect;
            unfaithful += c->unfaithful;
            max_ulp = fmax(max_ulp, c->max_ulp);
        }
    /* every pair in one cell or in nan_x; the counts are the sweep's */
    assert_true(count + h1->nan_x == one.all.count);
    assert_true(count + h1->nan_x == p.size);
    assert_true(incorrect == one.all.count - one.all.correct);
    assert_true(unfaithful == one.all.count - one.all.faithful);
    assert_true(max_ulp == one.all.max_ulp);
    /* the same bits on two threads */
    assert_memory_equal(h1, h2, sizeof *h1);
    assert_true(two.all.count == one.all.count && two.all.correct == one.all.correct);
    free(h1);
    free(h2);
    ga_pairs_free(&p);
}

static void test_totals(void **state)
{
    (void)state;
    /* random pairs (NaN and infinite x and dy among them), tabulated d */
    check_totals("pytorch_gelu_backward_native", GA_BFLOAT16, "pairs:random:1048576:5");
    /* not tabulated, and float16's 32 exponents */
    check_totals("llmc_gelu_backward", GA_FLOAT16, "pairs:random:30000:2");
    /* every x with dy = 1: one row */
    check_totals("megatron_bias_gelu_back_native", GA_BFLOAT16, "all");
}

static void same_stats(const struct ga_backward_stats *a, const struct ga_backward_stats *b)
{
    const struct ga_backward_region *r[2][2] = { { &a->all, &a->root }, { &b->all, &b->root } };

    for (int k = 0; k < 2; k++) {
        assert_true(r[0][k]->count == r[1][k]->count);
        assert_true(r[0][k]->correct == r[1][k]->correct);
        assert_true(r[0][k]->faithful == r[1][k]->faithful);
        assert_true(r[0][k]->sign_errors == r[1][k]->sign_errors);
        assert_true(r[0][k]->zero_sign == r[1][k]->zero_sign);
        assert_memory_equal(&r[0][k]->max_ulp, &r[1][k]->max_ulp, sizeof(double));
        assert_memory_equal(&r[0][k]->sum_ulp, &r[1][k]->sum_ulp, sizeof(double));
        assert_memory_equal(&r[0][k]->sum_dy_ulp, &r[1][k]->sum_dy_ulp, sizeof(double));
        assert_true(r[0][k]->worst.index == r[1][k]->worst.index);
    }
    assert_memory_equal(&a->unfaithful_lo, &b->unfaithful_lo, sizeof(double));
    assert_memory_equal(&a->unfaithful_hi, &b->unfaithful_hi, sizeof(double));
}

static void test_shared_table(void **state)
{
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    const struct ga_backward_impl *k = ga_backward_catalogue_find("pytorch_gelu_backward_tanh");
    struct ga_grad_value *table = ga_backward_grad_table(GA_GELU_TANH_GRAD, f);
    struct ga_pairs p;
    struct ga_backward_stats own, shared;
    char err[256];

    (void)state;
    assert_non_null(table);
    /* 40000 pairs: below 2^20, so the sweep alone computes d pair by pair */
    assert_int_equal(ga_pairs_parse(&p, "pairs:random:40000:9", f, 0, err, sizeof err), 0);
    struct ga_backward_sweep s = { .name = k->name, .impl = k, .reference = GA_GELU_TANH_GRAD,
                                   .pairs = &p };
    assert_int_equal(ga_backward_sweep_run(&s, &own, err, sizeof err), 0);
    s.grad_table = table;
    assert_int_equal(ga_backward_sweep_run(&s, &shared, err, sizeof err), 0);
    same_stats(&own, &shared);
    assert_true(own.all.count == 40000);
    ga_pairs_free(&p);
    free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_totals),
        cmocka_unit_test(test_shared_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
