/* The shape accumulator (measure/shape.c) and its place in the sweep: kernels
 * built from the MPFR oracle's correctly rounded results, with planted
 * faults whose effect the test establishes itself (ordinals compared here,
 * the odd identity evaluated exactly at 300 bits), then counted exactly:
 * whatever the thread count, and whether a pair lies inside a chunk or
 * straddles two (chunks of 4096 inputs: 0x4000 begins the fifth).
 * GELU_ACC_TEST_SEED overrides the random tests' seed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <mpfr.h>

#include "impls/impl.h"
#include "measure/shape.h"
#include "measure/shape_ledger.h"
#include "measure/sweep.h"
#include "truth/grad_sign.h"
#include "truth/truth.h"

static uint64_t seed = 20261202;

static ga_bits truth_of(const struct ga_format *f, ga_bits x)
{
    struct ga_truth t;
    assert_int_equal(ga_truth_mpfr(GA_GELU, f, x, &t), GA_TRUTH_OK);
    return t.rounded;
}

/* The brackets shape.c judges sides by hold x0: gelu' < 0 at -0.7518, > 0
 * at -0.7517; the tanh form's at -0.7525 and -0.7524. */
static void test_brackets(void **state)
{
    (void)state;
    assert_int_equal(ga_grad_sign(GA_GELU_GRAD, -0.7518, 128), -1);
    assert_int_equal(ga_grad_sign(GA_GELU_GRAD, -0.7517, 128), 1);
    assert_int_equal(ga_grad_sign(GA_GELU_TANH_GRAD, -0.7525, 128), -1);
    assert_int_equal(ga_grad_sign(GA_GELU_TANH_GRAD, -0.7524, 128), 1);
}

/* Outputs planted in float16: correctly rounded, except */
enum { LOWERED_1 = 0x3c00, LOWERED_2 = 0x4000, FLIPPED = 0x3800, RAISED_LEFT = 0xc000 };

static ga_bits planted(const struct ga_format *f, ga_bits x)
{
    ga_bits y = truth_of(f, x);
    if (x == LOWERED_1 || x == LOWERED_2)       /* gelu(1), gelu(2): 3 steps down */
        return ga_next_down(f, ga_next_down(f, ga_next_down(f, y)));
    if (x == FLIPPED)                           /* gelu(0.5): its negation */
        return ga_negate(f, y);
    if (x == RAISED_LEFT)                       /* gelu(-2) = -0.0455: 0 */
        return ga_zero(f, false);
    return y;
}

static int planted_run(const struct ga_impl *impl, const struct ga_format *f, const ga_bits *in,
                       ga_bits *out, size_t n, struct ga_run_failure *failure)
{
    (void)impl;
    (void)failure;
    for (size_t i = 0; i < n; i++)
        out[i] = planted(f, in[i]);
    return 0;
}

static const struct ga_impl planted_impl = {
    .name = "planted", .formats = GA_FORMAT_BIT(GA_FLOAT16), .approximates = GA_GELU,
    .models = "test", .formula = "-", .computes = "-", .run = planted_run,
};

/* What the plants do, established from the oracle's results alone. */
static void test_plants_reverse_neighbours(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    (void)state;
    /* lowered below the input before, not below the one after */
    assert_true(ga_ordinal(f, planted(f, LOWERED_1)) < ga_ordinal(f, truth_of(f, LOWERED_1 - 1)));
    assert_true(ga_ordinal(f, planted(f, LOWERED_1)) < ga_ordinal(f, truth_of(f, LOWERED_1 + 1)));
    assert_true(ga_ordinal(f, planted(f, LOWERED_2)) < ga_ordinal(f, truth_of(f, LOWERED_2 - 1)));
    assert_true(ga_ordinal(f, planted(f, LOWERED_2)) < ga_ordinal(f, truth_of(f, LOWERED_2 + 1)));
    /* -2 lies left of x0, where gelu decreases: 0 is above gelu(-1.999) and
     * gelu(-2.002), reversing the pair (-2.002, -2) only */
    assert_true(ga_ordinal(f, truth_of(f, RAISED_LEFT + 1)) < 0);
    assert_true(ga_ordinal(f, truth_of(f, RAISED_LEFT - 1)) < 0);
    /* the flipped output lies below both neighbours */
    assert_true(ga_ordinal(f, planted(f, FLIPPED)) < 0);
}

/* Adjacent negative inputs a < b reaching into [-0.7518, -0.7517] whose
 * correctly rounded results are equal: no order to judge them by. */
static uint64_t ties_near_x0(const struct ga_format *f)
{
    uint64_t ties = 0;
    for (ga_bits m = ga_encode(f, 0.74); m < ga_encode(f, 0.76); m++) {
        ga_bits a = (m + 1) | ga_sign_mask(f), b = m | ga_sign_mask(f);
        if (ga_decode(f, a) < -0.7517 && ga_decode(f, b) > -0.7518 && truth_of(f, a) == truth_of(f, b))
            ties++;
    }
    return ties;
}

/* The exhaustive float16 sweep of the planted kernel, with 1 and 3 threads
 * and with a cap (which accounts chunks apart): the same exact counts. */
static void test_sweep_counts_plants(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    struct ga_domain d;
    char err[128];
    (void)state;

    assert_int_equal(ga_domain_parse(&d, "all", f, err, sizeof err), 0);
    for (int run = 0; run < 3; run++) {
        struct ga_measurement m = { .impl = &planted_impl, .reference = GA_GELU, .want_shape = true };
        struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST, .threads = run ? 3 : 1,
                                      .max_failures = run == 2 ? 1000 : 0 };
        ga_bits undecided;
        const struct ga_shape *s;

        assert_int_equal(ga_sweep_run(f, &d, &m, 1, &o, &undecided), GA_SWEEP_OK);
        s = m.shape;
        assert_true(s->monotone && s->odd);
        /* right: (0x3bff, 1), (0x3fff, 2) across chunks 3 and 4, (0x37ff, 0.5) */
        assert_int_equal(s->side[GA_SHAPE_RIGHT].violations, 3);
        assert_int_equal(s->side[GA_SHAPE_RIGHT].first.lo, FLIPPED - 1);
        assert_int_equal(s->side[GA_SHAPE_RIGHT].first.hi, FLIPPED);
        assert_int_equal(s->side[GA_SHAPE_LEFT].violations, 1);
        assert_int_equal(s->side[GA_SHAPE_LEFT].first.lo, RAISED_LEFT + 1);  /* -2.002 */
        assert_int_equal(s->side[GA_SHAPE_LEFT].first.hi, RAISED_LEFT);
        /* every adjacent pair of numbers of one sign, 2 * 0x7c00 of them,
         * but those near x0 whose correctly rounded results tie */
        assert_int_equal(s->side[0].pairs + s->side[1].pairs, 2 * 0x7c00 - ties_near_x0(f));
        assert_int_equal(s->sign_errors, 1);
        assert_int_equal(s->first_sign_error.x, FLIPPED);
        /* x >= 0 finite: 0x7c00 of them; broken at the three positive plants
         * (at 2, k(-2) = +0 is planted too), each off by 3 steps or more */
        assert_int_equal(s->odd_pairs, 0x7c00);
        assert_int_equal(s->odd_breaks, 3);
        assert_int_equal(s->first_odd_break.x, FLIPPED);
        /* the minimum: the flipped -gelu(0.5) = -0.346, below gelu(x0) */
        assert_true(s->minimum.has && s->truth_minimum.has);
        assert_int_equal(s->minimum.x, FLIPPED);
        assert_int_equal(s->minimum.y, ga_negate(f, truth_of(f, FLIPPED)));
        assert_true(fabs(ga_decode(f, s->truth_minimum.y) - -0.1699712) < ga_ulp(f, -0.17));
        assert_int_equal(s->truth_minimum.y, truth_of(f, s->truth_minimum.x));
        ga_measurement_clear(&m);
    }
    ga_domain_free(&d);
}

/* A kernel measured against both references: the second measurement's odd
 * identity, copied from the first's (or, with a failure cap, measured on
 * its own), is the one a sweep of it alone finds; its other figures are
 * its own. */
static void test_odd_shared_across_references(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    struct ga_domain d;
    char err[128];
    (void)state;

    assert_int_equal(ga_domain_parse(&d, "all", f, err, sizeof err), 0);
    for (int cap = 0; cap < 2; cap++) {
        struct ga_measurement both[2] = {
            { .impl = &planted_impl, .reference = GA_GELU, .want_shape = true },
            { .impl = &planted_impl, .reference = GA_GELU_TANH, .want_shape = true },
        };
        struct ga_measurement alone = { .impl = &planted_impl, .reference = GA_GELU_TANH,
                                        .want_shape = true };
        struct ga_sweep_options o = { .oracle = GA_ORACLE_FAST, .threads = 2,
                                      .max_failures = cap ? 1000 : 0 };
        ga_bits undecided;

        assert_int_equal(ga_sweep_run(f, &d, both, 2, &o, &undecided), GA_SWEEP_OK);
        assert_int_equal(ga_sweep_run(f, &d, &alone, 1, &o, &undecided), GA_SWEEP_OK);
        assert_int_equal(both[1].shape->odd_pairs, 0x7c00);
        assert_int_equal(both[1].shape->odd_breaks, 3);
        assert_int_equal(both[1].shape->odd_pairs, alone.shape->odd_pairs);
        assert_int_equal(both[1].shape->odd_breaks, alone.shape->odd_breaks);
        assert_int_equal(both[1].shape->first_odd_break.x, alone.shape->first_odd_break.x);
        assert_int_equal(both[1].shape->first_odd_break_neg, alone.shape->first_odd_break_neg);
        for (int side = 0; side < 2; side++) {
            assert_int_equal(both[1].shape->side[side].pairs, alone.shape->side[side].pairs);
            assert_int_equal(both[1].shape->side[side].violations,
                             alone.shape->side[side].violations);
        }
        assert_int_equal(both[1].shape->truth_minimum.y, alone.shape->truth_minimum.y);
        assert_int_not_equal(both[0].shape->truth_minimum.y, both[1].shape->truth_minimum.y);
        for (int j = 0; j < 2; j++)
            ga_measurement_clear(&both[j]);
        ga_measurement_clear(&alone);
    }
    ga_domain_free(&d);
}

/* A random domain visits no neighbours: monotonicity is not measured. */
static void test_random_domain_not_ordered(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    struct ga_domain d;
    char err[128];
    (void)state;
    assert_int_equal(ga_domain_parse(&d, "random:1000", f, err, sizeof err), 0);
    assert_false(ga_shape_ordered(&d));
    ga_domain_free(&d);
    assert_int_equal(ga_domain_parse(&d, "range:-1:1", f, err, sizeof err), 0);
    assert_true(ga_shape_ordered(&d));
    ga_domain_free(&d);
}

static void same_violation(const struct ga_shape_violation *a, const struct ga_shape_violation *b)
{
    assert_int_equal(a->has, b->has);
    if (a->has) {
        assert_int_equal(a->lo, b->lo);
        assert_int_equal(a->hi, b->hi);
        assert_int_equal(a->y_lo, b->y_lo);
        assert_int_equal(a->y_hi, b->y_hi);
        assert_int_equal(a->steps, b->steps);
    }
}

static void same_sides(const struct ga_shape *a, const struct ga_shape *b)
{
    for (int i = 0; i < 2; i++) {
        assert_int_equal(a->side[i].pairs, b->side[i].pairs);
        assert_int_equal(a->side[i].violations, b->side[i].violations);
        same_violation(&a->side[i].first, &b->side[i].first);
        same_violation(&a->side[i].worst, &b->side[i].worst);
    }
}

/* stride:1024 in float16 visits +inf then -0: no pair of neighbours. */
static void test_signs_apart(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    ga_bits x[4] = { 0x7bff, 0x7c00, 0x8000, 0x8001 }, y[4];
    struct ga_truth t[4];
    struct ga_shape s;
    (void)state;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(ga_truth_mpfr(GA_GELU, f, x[i], &t[i]), GA_TRUTH_OK);
        y[i] = t[i].rounded;
    }
    ga_shape_init(&s, f, GA_GELU, true, false);
    ga_shape_add_chunk(&s, x, y, t, 4);
    /* (65504, +inf) and (-0, -6e-8), both right of x0 */
    assert_int_equal(s.side[GA_SHAPE_RIGHT].pairs, 2);
    assert_int_equal(s.side[GA_SHAPE_LEFT].pairs, 0);
    ga_shape_init(&s, f, GA_GELU, true, false);
    ga_shape_join(&s, &(struct ga_shape_edge){ true, x[1], y[1], t[1].rounded },
                  &(struct ga_shape_edge){ true, x[2], y[2], t[2].rounded });
    assert_int_equal(s.side[GA_SHAPE_RIGHT].pairs, 0);
}

/* Outputs of the wrong sign that break no order: left of x0, inputs of
 * growing magnitude (-2, -2.002, ...) whose outputs, after the first, are
 * positive and rising.  No violation, every input after the first a sign
 * error, on a chunk otherwise plain: the chunks that the one-pass path of
 * ga_shape_add_chunk must hand to the full one. */
static void test_wrong_signs_in_order(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    enum { N = 64 };
    ga_bits x[N], y[N];
    struct ga_truth t[N];
    struct ga_shape s;
    (void)state;
    for (int i = 0; i < N; i++) {
        x[i] = 0xc000 + (ga_bits)i;
        assert_int_equal(ga_truth_mpfr(GA_GELU, f, x[i], &t[i]), GA_TRUTH_OK);
        y[i] = i == 0 ? t[i].rounded : ga_encode(f, 0.001 * i);
    }
    ga_shape_init(&s, f, GA_GELU, true, false);
    ga_shape_add_chunk(&s, x, y, t, N);
    assert_int_equal(s.side[GA_SHAPE_LEFT].pairs, N - 1);
    assert_int_equal(s.side[GA_SHAPE_LEFT].violations, 0);
    assert_int_equal(s.side[GA_SHAPE_RIGHT].pairs, 0);
    assert_int_equal(s.sign_errors, N - 1);
    assert_int_equal(s.first_sign_error.x, x[N - 1]);  /* the least input */
}

/* One chunk, or the same inputs cut in two and joined (by the ledger, in
 * either order of arrival, or by merging runs in domain order): the same
 * figures. */
static void test_cut_and_join(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    enum { N = 64 };
    ga_bits x[N], y[N];
    struct ga_truth t[N];
    struct ga_shape whole, a, b, joined;
    struct ga_shape_ledger *l;
    (void)state;

    for (int i = 0; i < N; i++) {   /* around -1, left of x0, in decreasing value */
        x[i] = 0xbc00 - N / 2 + (ga_bits)i;
        assert_int_equal(ga_truth_mpfr(GA_GELU, f, x[i], &t[i]), GA_TRUTH_OK);
        y[i] = t[i].rounded;
    }
    /* the second half (from -1 on, away from x0, where gelu rises) two
     * steps down: below the output of -0.9995 before the cut (gelu(-0.9995)
     * - gelu(-1) = 8e-5, under one step of 2^-13), and in order after it */
    for (int i = N / 2; i < N; i++)
        y[i] = ga_next_down(f, ga_next_down(f, y[i]));
    assert_true(ga_ordinal(f, y[N / 2 - 1]) > ga_ordinal(f, y[N / 2]));
    ga_shape_init(&whole, f, GA_GELU, true, false);
    ga_shape_add_chunk(&whole, x, y, t, N);
    assert_int_equal(whole.side[GA_SHAPE_LEFT].violations, 1);
    assert_int_equal(whole.side[GA_SHAPE_LEFT].first.lo, x[N / 2]);      /* -1 */
    assert_int_equal(whole.side[GA_SHAPE_LEFT].first.hi, x[N / 2 - 1]);  /* -0.9995 */

    for (int order = 0; order < 2; order++) {
        struct ga_shape_edge e[4] = {
            ga_shape_edge_of(x[0], y[0], &t[0]), ga_shape_edge_of(x[N / 2 - 1], y[N / 2 - 1], &t[N / 2 - 1]),
            ga_shape_edge_of(x[N / 2], y[N / 2], &t[N / 2]), ga_shape_edge_of(x[N - 1], y[N - 1], &t[N - 1]),
        };
        ga_shape_init(&joined, f, GA_GELU, true, false);
        ga_shape_add_chunk(&joined, x, y, t, N / 2);
        ga_shape_add_chunk(&joined, x + N / 2, y + N / 2, t + N / 2, N / 2);
        assert_non_null(l = ga_shape_ledger_new());
        if (order == 0) {
            assert_int_equal(ga_shape_ledger_offer(l, &joined, 7, &e[0], &e[1]), 0);
            assert_int_equal(ga_shape_ledger_offer(l, &joined, 8, &e[2], &e[3]), 0);
        } else {
            assert_int_equal(ga_shape_ledger_offer(l, &joined, 8, &e[2], &e[3]), 0);
            assert_int_equal(ga_shape_ledger_offer(l, &joined, 7, &e[0], &e[1]), 0);
        }
        ga_shape_ledger_free(l);
        same_sides(&joined, &whole);
    }

    /* runs merged: a = inputs [0, N/2), b = [N/2, N), with heads and tails */
    ga_shape_init(&a, f, GA_GELU, true, false);
    ga_shape_init(&b, f, GA_GELU, true, false);
    ga_shape_add_chunk(&a, x, y, t, N / 2);
    ga_shape_add_chunk(&b, x + N / 2, y + N / 2, t + N / 2, N / 2);
    a.has_head = a.has_tail = b.has_head = b.has_tail = true;
    a.head_index = 0, a.tail_index = N / 2 - 1, b.head_index = N / 2, b.tail_index = N - 1;
    a.head = ga_shape_edge_of(x[0], y[0], &t[0]);
    a.tail = ga_shape_edge_of(x[N / 2 - 1], y[N / 2 - 1], &t[N / 2 - 1]);
    b.head = ga_shape_edge_of(x[N / 2], y[N / 2], &t[N / 2]);
    b.tail = ga_shape_edge_of(x[N - 1], y[N - 1], &t[N - 1]);
    assert_int_equal(ga_shape_merge(&b, &a), 0);   /* b's head follows a's tail */
    same_sides(&b, &whole);
    assert_int_equal(b.head_index, 0);
    assert_int_equal(b.tail_index, N - 1);
}

/* |p - q - x| > (ulp(p) + ulp(q))/2 at 300 bits, from the format's ulp of
 * each value (ulp: 2^(e - p + 1) for |v| in [2^e, 2^(e+1)), the subnormal
 * ulp below), computed here from frexp. */
static double ulp_here(const struct ga_format *f, double v)
{
    int e;
    if (v == 0)
        return ldexp(1, f->emin - f->precision + 1);
    frexp(v, &e);  /* |v| in [2^(e-1), 2^e) */
    e -= 1;
    if (e < f->emin)
        e = f->emin;
    return ldexp(1, e - f->precision + 1);
}

static bool breaks_exactly(const struct ga_format *f, double x, double p, double q)
{
    mpfr_t r, t;
    bool b;
    mpfr_inits2(3000, r, t, (mpfr_ptr)0);
    mpfr_set_d(r, p, MPFR_RNDN);
    mpfr_sub_d(r, r, q, MPFR_RNDN);
    mpfr_sub_d(r, r, x, MPFR_RNDN);
    mpfr_abs(r, r, MPFR_RNDN);
    mpfr_set_d(t, ulp_here(f, p), MPFR_RNDN);
    mpfr_add_d(t, t, ulp_here(f, q), MPFR_RNDN);
    mpfr_div_2ui(t, t, 1, MPFR_RNDN);
    b = mpfr_cmp(r, t) > 0;
    mpfr_clears(r, t, (mpfr_ptr)0);
    return b;
}

static uint64_t next_random(void)
{
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return seed;
}

/* Borderline cases built by hand, then outputs a few steps around the
 * exact ones, in float32 and float64. */
static void test_odd_identity_exact(void **state)
{
    const struct ga_format *f32 = ga_format_get(GA_FLOAT32), *f64 = ga_format_get(GA_FLOAT64);
    (void)state;

    /* 1: 0.75 - (-0.25) = 1 exactly; 0.75 + 2^-24 (half an ulp each side
     * sums to 2^-25 + 2^-27, below 2^-24): broken; exactly on the bound is not */
    assert_false(ga_shape_odd_breaks(f32, ga_encode(f32, 1), ga_encode(f32, 0.75), ga_encode(f32, -0.25)));
    assert_true(ga_shape_odd_breaks(f32, ga_encode(f32, 1), ga_encode(f32, 0.75 + 0x1p-24),
                                    ga_encode(f32, -0.25)));
    /* x = 2^-126 (least normal), outputs 2^-127 and -2^-127 + 2^-149: off by
     * 2^-149 = (2^-149 + 2^-149)/2 exactly: not broken; one more step: broken */
    assert_false(ga_shape_odd_breaks(f32, ga_encode(f32, 0x1p-126), ga_encode(f32, 0x1p-127),
                                     ga_encode(f32, -0x1p-127 + 0x1p-149)));
    assert_true(ga_shape_odd_breaks(f32, ga_encode(f32, 0x1p-126), ga_encode(f32, 0x1p-127),
                                    ga_encode(f32, -0x1p-127 + 0x1p-148)));

    for (int i = 0; i < 20000; i++) {
        const struct ga_format *f = i % 2 ? f64 : f32;
        double x = ldexp((double)(next_random() % 1000000 + 1), -(int)(next_random() % 40));
        double xr = ga_decode(f, ga_encode(f, x));
        ga_bits p = ga_encode(f, xr * 0.6), q;
        int steps = (int)(next_random() % 9) - 4;
        /* q near p - x, a few steps off */
        q = ga_encode(f, ga_decode(f, p) - xr);
        for (int k = 0; k < abs(steps); k++)
            q = steps > 0 ? ga_next_up(f, q) : ga_next_down(f, q);
        assert_int_equal(ga_shape_odd_breaks(f, ga_encode(f, xr), p, q),
                         breaks_exactly(f, xr, ga_decode(f, p), ga_decode(f, q)));
    }
}

/* What the shape accumulator should find on the float16 inputs x[0..n)
 * (consecutive in domain order) with outputs y, from the definitions alone
 * (doc/metrics.md, "Shape"): values compared as doubles, sides by the
 * brackets of test_brackets, pairs inside them by the truths' order. */
struct direct_shape {
    uint64_t pairs[2], violations[2], sign_errors;
    ga_bits first_lo[2], min_x, min_y;
};

static struct direct_shape shape_directly(const struct ga_format *f, const ga_bits *x,
                                          const ga_bits *y, const struct ga_truth *t, size_t n)
{
    struct direct_shape d = { .first_lo = { 0, 0 } };
    bool has_min = false, has_first[2] = { false, false };

    for (size_t i = 0; i < n; i++) {
        double xv = ga_decode(f, x[i]), yv = ga_decode(f, y[i]);
        if (ga_is_nan(f, x[i]) || ga_is_nan(f, y[i]))
            continue;
        if (xv != 0 && yv != 0 && (xv < 0) != (yv < 0))
            d.sign_errors++;
        if (!has_min || yv < ga_decode(f, d.min_y)
            || (yv == ga_decode(f, d.min_y) && xv < ga_decode(f, d.min_x))) {
            d.min_x = x[i], d.min_y = y[i], has_min = true;
        }
        if (i == 0 || ga_is_nan(f, x[i - 1]) || ga_is_nan(f, y[i - 1])
            || ga_sign(f, x[i]) != ga_sign(f, x[i - 1]) || ga_decode(f, x[i - 1]) == xv)
            continue;
        size_t a = xv < ga_decode(f, x[i - 1]) ? i : i - 1, b = a == i ? i - 1 : i;
        double ya = ga_decode(f, y[a]), yb = ga_decode(f, y[b]);
        int side;
        if (ga_decode(f, x[b]) <= -0.7518)
            side = GA_SHAPE_LEFT;
        else if (ga_decode(f, x[a]) >= -0.7517)
            side = GA_SHAPE_RIGHT;
        else if (t[a].rounded != t[b].rounded)
            side = ga_decode(f, t[a].rounded) > ga_decode(f, t[b].rounded) ? GA_SHAPE_LEFT
                                                                           : GA_SHAPE_RIGHT;
        else
            continue;
        d.pairs[side]++;
        if (side == GA_SHAPE_LEFT ? ya < yb : ya > yb) {
            d.violations[side]++;
            if (!has_first[side] || ga_decode(f, x[a]) < ga_decode(f, d.first_lo[side]))
                d.first_lo[side] = x[a], has_first[side] = true;
        }
    }
    return d;
}

/* Random outputs a few steps from the truth, some of the wrong sign, on
 * chunks that are plain (one sign, one side of x0, no NaN) and chunks that
 * are not (across 0, around x0, up to the NaNs, a lone input): the
 * accumulator's figures are the direct ones. */
static void test_random_outputs_counted(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT16);
    static const ga_bits starts[] = { 0xc400, 0x3800, 0xb9f0, 0xffe0, 0x7bf0, 0x0000, 0x8000 - 40,
                                      0x7c00 - 8, 0xc000 };
    static const size_t lengths[] = { 600, 600, 300, 200, 100, 300, 80, 20, 1 };
    enum { N = 600 };
    ga_bits x[N], y[N];
    struct ga_truth t[N];
    (void)state;

    for (size_t c = 0; c < sizeof starts / sizeof *starts; c++) {
        size_t n = lengths[c];
        for (int rep = 0; rep < 20; rep++) {
            struct ga_shape s;
            struct direct_shape d;
            for (size_t i = 0; i < n; i++) {
                x[i] = (starts[c] + i) & 0xffff;
                assert_int_equal(ga_truth_mpfr(GA_GELU, f, x[i], &t[i]), GA_TRUTH_OK);
                y[i] = t[i].rounded;
                if (ga_is_nan(f, y[i]))
                    continue;
                uint64_t r = next_random() % 64;
                if (r < (uint64_t)rep)       /* more faults as rep grows */
                    for (int k = 0; k < (int)(r % 3) + 1; k++)
                        y[i] = r % 2 ? ga_next_up(f, y[i]) : ga_next_down(f, y[i]);
                if (r == 63 && rep > 10)
                    y[i] = ga_negate(f, y[i]);
            }
            ga_shape_init(&s, f, GA_GELU, true, false);
            ga_shape_add_chunk(&s, x, y, t, n);
            d = shape_directly(f, x, y, t, n);
            for (int side = 0; side < 2; side++) {
                assert_int_equal(s.side[side].pairs, d.pairs[side]);
                assert_int_equal(s.side[side].violations, d.violations[side]);
                if (d.violations[side])
                    assert_int_equal(s.side[side].first.lo, d.first_lo[side]);
            }
            assert_int_equal(s.sign_errors, d.sign_errors);
            if (s.minimum.has) {
                assert_true(ga_decode(f, s.minimum.y) == ga_decode(f, d.min_y));
                assert_true(ga_decode(f, s.minimum.x) == ga_decode(f, d.min_x));
            }
        }
    }
}

/* The float32 odd identity in batches (ga_shape_add_odd's own path): pairs
 * of finite values counted, breaks as the 3000-bit test finds them, the
 * first break the least x; infinities and NaNs among the outputs. */
static void test_odd_float32_batch(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    enum { M = 4096 };
    static ga_bits x[M], y[M], y_neg[M];
    static uint32_t at[M];
    uint64_t pairs = 0, breaks = 0, ties = 0;  /* ties: exactly on the bound, not broken */
    double first = INFINITY;
    struct ga_shape s;
    (void)state;

    for (size_t k = 0; k < M; k++) {
        double xv = ldexp((double)(next_random() % 1000000 + 1), (int)(next_random() % 300) - 170);
        ga_bits p, q;
        x[k] = ga_encode(f, xv);
        xv = ga_decode(f, x[k]);
        p = ga_encode(f, xv * 0.6);
        q = ga_encode(f, ga_decode(f, p) - xv);
        for (int i = (int)(next_random() % 9) - 4; i != 0; i += i > 0 ? -1 : 1)
            q = i > 0 ? ga_next_up(f, q) : ga_next_down(f, q);
        if (next_random() % 50 == 0)
            q = next_random() % 2 ? 0x7f800000 : 0x7fc00000;
        y[k] = p;
        y_neg[k] = q;
        at[k] = (uint32_t)k;
        if (ga_is_nan(f, x[k]) || !isfinite(ga_decode(f, x[k])) || !isfinite(ga_decode(f, p))
            || ga_is_nan(f, q) || !isfinite(ga_decode(f, q)))
            continue;
        pairs++;
        ties += 2 * fabs(ga_decode(f, p) - ga_decode(f, q) - ga_decode(f, x[k]))
                == ulp_here(f, ga_decode(f, p)) + ulp_here(f, ga_decode(f, q));
        if (breaks_exactly(f, ga_decode(f, x[k]), ga_decode(f, p), ga_decode(f, q))) {
            breaks++;
            first = fmin(first, ga_decode(f, x[k]));
        }
    }
    ga_shape_init(&s, f, GA_GELU, false, true);
    ga_shape_add_odd(&s, x, y, at, y_neg, M);
    assert_true(breaks > 0 && breaks < pairs);
    printf("# float32 odd batch: %llu pairs, %llu broken, %llu on the bound\n",
           (unsigned long long)pairs, (unsigned long long)breaks, (unsigned long long)ties);
    assert_true(ties > 0);
    assert_int_equal(s.odd_pairs, pairs);
    assert_int_equal(s.odd_breaks, breaks);
    assert_true(ga_decode(f, s.first_odd_break.x) == first);
}

int main(void)
{
    const char *s = getenv("GELU_ACC_TEST_SEED");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brackets),
        cmocka_unit_test(test_plants_reverse_neighbours),
        cmocka_unit_test(test_sweep_counts_plants),
        cmocka_unit_test(test_odd_shared_across_references),
        cmocka_unit_test(test_random_domain_not_ordered),
        cmocka_unit_test(test_signs_apart),
        cmocka_unit_test(test_wrong_signs_in_order),
        cmocka_unit_test(test_cut_and_join),
        cmocka_unit_test(test_odd_identity_exact),
        cmocka_unit_test(test_random_outputs_counted),
        cmocka_unit_test(test_odd_float32_batch),
    };
    if (s)
        seed = strtoull(s, NULL, 10) | 1;
    printf("# seed %llu (GELU_ACC_TEST_SEED)\n", (unsigned long long)seed);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
