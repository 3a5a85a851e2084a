/* Bitwise equality of backward statistics and heat maps (backward_same.h). */
#include "backward_same.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

static void assert_same_region(const struct ga_backward_region *a, const struct ga_backward_region *b)
{
    assert_int_equal(a->count, b->count);
    assert_int_equal(a->correct, b->correct);
    assert_int_equal(a->faithful, b->faithful);
    assert_int_equal(a->sign_errors, b->sign_errors);
    assert_int_equal(a->nan_outputs, b->nan_outputs);
    assert_int_equal(a->not_nan, b->not_nan);
    assert_int_equal(a->inf_outputs, b->inf_outputs);
    assert_int_equal(a->flushed, b->flushed);
    assert_int_equal(a->zero_sign, b->zero_sign);
    assert_int_equal(double_bits(a->max_ulp), double_bits(b->max_ulp));
    assert_int_equal(double_bits(a->sum_ulp), double_bits(b->sum_ulp));
    assert_int_equal(a->ulp_count, b->ulp_count);
    assert_int_equal(double_bits(a->max_dy_ulp), double_bits(b->max_dy_ulp));
    assert_int_equal(double_bits(a->sum_dy_ulp), double_bits(b->sum_dy_ulp));
    assert_int_equal(a->dy_ulp_count, b->dy_ulp_count);
    assert_int_equal(a->worst.index, b->worst.index);
    assert_int_equal(a->worst.x, b->worst.x);
    assert_int_equal(a->worst.dy, b->worst.dy);
    assert_int_equal(a->worst.dx, b->worst.dx);
    assert_int_equal(a->worst.truth, b->worst.truth);
    assert_int_equal(double_bits(a->worst.ulp), double_bits(b->worst.ulp));
}

void assert_same_backward_stats(const struct ga_backward_stats *a,
                                const struct ga_backward_stats *b)
{
    assert_same_region(&a->all, &b->all);
    assert_same_region(&a->root, &b->root);
    assert_int_equal(double_bits(a->unfaithful_lo), double_bits(b->unfaithful_lo));
    assert_int_equal(double_bits(a->unfaithful_hi), double_bits(b->unfaithful_hi));
}

void assert_same_backward_heat(const struct ga_backward_heat *a, const struct ga_backward_heat *b)
{
    assert_int_equal(a->nan_x, b->nan_x);
    for (int r = 0; r < a->rows; r++)
        for (int k = 0; k < GA_HEAT_COLUMNS; k++) {
            const struct ga_heat_cell *p = &a->cell[r][k], *q = &b->cell[r][k];
            assert_int_equal(p->count, q->count);
            assert_int_equal(p->incorrect, q->incorrect);
            assert_int_equal(p->unfaithful, q->unfaithful);
            assert_int_equal(double_bits(p->max_ulp), double_bits(q->max_ulp));
        }
}
