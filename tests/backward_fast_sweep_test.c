/* The fast backward sweep against the per-pair path it replaces, bit for
 * bit (doc/oracle.md, 'The backward truth', scaling):
 * - backward_memo.c: one decision per dy significand moved to every
 *   exponent, against ga_backward_truth on every dy of chosen x (every
 *   kind of d(x): tiny x where d is next to 1/2, x beyond 5 next to 1, the
 *   root, the vanishing left tail, the right tail just above 1, specials);
 * - ga_encode_float against ga_encode on the bfloat16 rounding boundaries;
 * - each catalogue factor k(x) against its scalar kernel;
 * - a strided pairs:all sweep (tables, memo, runs, the flag table) against a
 *   reference written here the way the sweep worked before: d(x) per x,
 *   ga_backward_truth per pair, the scalar kernel, each statistic
 *   accumulated pair by pair; 1 thread = 2 threads;
 * - ga_backward_stats_add_pairs over pairs that share x, dy, both or
 *   neither, against one ga_backward_stats_add per pair;
 * - rows swept together (shared pairs and truths) against each row swept
 *   alone: float32 with dy = 1 (the fast oracle), bfloat16 from the tables
 *   with heat maps, float16 pairs one by one; both references, and a tanh
 *   form against gelu' too. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "formats/codec.h"
#include "impls/backward.h"
#include "measure/backward_sweep.h"
#include "truth/backward.h"
#include "truth/backward_memo.h"
#include "backward_same.h"
#include "test_random.h"

static const struct ga_format *f16, *bf16;
static const enum ga_function grads[] = { GA_GELU_GRAD, GA_GELU_TANH_GRAD };

static int same_truth(const struct ga_truth *a, const struct ga_truth *b)
{
    return a->rounded == b->rounded && a->direction == b->direction
           && double_bits(a->exact.mant) == double_bits(b->exact.mant) && a->exact.exp == b->exact.exp
           && double_bits(a->tail) == double_bits(b->tail);
}

/* x of every kind, by value (rounded into f), and a stride over the rest. */
static size_t chosen_x(const struct ga_format *f, ga_bits *x, size_t cap)
{
    static const double values[] = {
        0.0, -0.0, 0x1p-30, -0x1p-30, 0x1p-10, 5.5, 7.0, 9.0, 40.0, 1e30, -0.7517, -0.75,
        -0.7539, -3.0, -9.0, -40.0, -1e30, INFINITY, -INFINITY, NAN, 1.0, -1.0, 0.5,
    };
    size_t n = 0;

    for (size_t i = 0; i < sizeof values / sizeof values[0] && n < cap; i++)
        x[n++] = ga_encode(f, values[i]);
    x[n++] = 0x0001;                    /* smallest subnormal, both signs */
    x[n++] = 0x8001;
    for (uint32_t b = 0x0123; b < 0x10000 && n < cap; b += 1531)
        x[n++] = (ga_bits)b;
    return n;
}

static void memo_matches_truth(const struct ga_format *f)
{
    ga_bits xs[96];
    size_t nx = chosen_x(f, xs, 96);
    struct ga_backward_memo m;

    for (size_t r = 0; r < 2; r++) {
        assert_int_equal(ga_backward_memo_init(&m, grads[r], f), 0);
        for (size_t i = 0; i < nx; i++) {
            struct ga_grad_value g;
            assert_int_equal(ga_grad_value(grads[r], ga_decode(f, xs[i]), &g), GA_TRUTH_OK);
            ga_backward_memo_set_x(&m, xs[i], &g);
            for (uint32_t dy = 0; dy < 0x10000; dy++) {
                struct ga_truth a, b;
                assert_int_equal(ga_backward_memo_truth(&m, (ga_bits)dy, &a), GA_TRUTH_OK);
                assert_int_equal(ga_backward_truth(grads[r], f, &g, xs[i], (ga_bits)dy, &b),
                                 GA_TRUTH_OK);
                if (!same_truth(&a, &b))
                    fail_msg("%s %s x=0x%04x dy=0x%04x: memo 0x%04x %d %a %ld, truth 0x%04x %d %a %ld",
                             f->name, ga_function_name(grads[r]), (unsigned)xs[i], (unsigned)dy,
                             (unsigned)a.rounded, a.direction, a.exact.mant, a.exact.exp,
                             (unsigned)b.rounded, b.direction, b.exact.mant, b.exact.exp);
            }
        }
        ga_backward_memo_free(&m);
    }
}

static void test_memo_bfloat16(void **state)
{
    (void)state;
    memo_matches_truth(bf16);
}

static void test_memo_float16(void **state)
{
    (void)state;
    memo_matches_truth(f16);
}

static void test_memo_refuses_float32(void **state)
{
    struct ga_backward_memo m;

    (void)state;
    assert_int_equal(ga_backward_memo_init(&m, GA_GELU_GRAD, ga_format_get(GA_FLOAT32)), -1);
    ga_backward_memo_free(&m);
}

/* Every bfloat16 value's float neighbourhood: the float itself, the
 * midpoints to its neighbours and one float ulp around them, both signs,
 * the largest floats (overflow), NaNs; float16 through the general path. */
static void test_encode_float(void **state)
{
    static const uint32_t lows[] = { 0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x4321 };

    (void)state;
    for (uint32_t hi = 0; hi < 0x10000; hi++)
        for (size_t k = 0; k < sizeof lows / sizeof lows[0]; k++) {
            uint32_t b = hi << 16 | lows[k];
            float v;
            memcpy(&v, &b, sizeof v);
            if (ga_encode_float(bf16, v) != ga_encode(bf16, v))
                fail_msg("float 0x%08x: 0x%04x, ga_encode 0x%04x", (unsigned)b,
                         (unsigned)ga_encode_float(bf16, v), (unsigned)ga_encode(bf16, v));
            assert_int_equal(ga_encode_float(f16, v), ga_encode(f16, v));
        }
    assert_int_equal(ga_encode_float(bf16, 0x1.fffffep127f), 0x7f80);   /* beyond the midpoint */
    assert_int_equal(ga_encode_float(bf16, 0x1.fep127f), 0x7f7f);       /* bfloat16's largest */
    assert_int_equal(ga_encode_float(bf16, 0x1.ffp127f), 0x7f80);       /* the tie: even is inf */
    assert_int_equal(ga_encode_float(bf16, -0x1p-133f), 0x8001);        /* smallest subnormal */
    assert_int_equal(ga_encode_float(bf16, 0x1p-134f), 0x0000);         /* its half: tie to even 0 */
}

/* RN_f(scalar(dy, x)) = RN_f(dy * factor(x)) for every kernel with a factor,
 * NaNs matching any NaN: a _native scalar's last rounding drops a NaN's sign,
 * which no statistic reads. */
static void test_factors(void **state)
{
    static const double dys[] = {
        1.0, -1.0, 0.0, -0.0, 3.0, -0.3, 1e-30, -1e-38, 1e30, -3e38, 65504.0, 6e-8, -6e-5,
        INFINITY, -INFINITY, NAN, 0x1.fep127, 0x1p-133, 0.7, 250.0,
    };
    const struct ga_format *formats[] = { bf16, f16, ga_format_get(GA_FLOAT32) };
    size_t checked = 0;

    (void)state;
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
        const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
        for (size_t k = 0; k < 3; k++) {
            const struct ga_format *f = formats[k];
            if (impl->factor == NULL || !ga_backward_supports(impl, f))
                continue;
            for (uint64_t xb = 0; xb <= ga_all_ones(f); xb += f->bits == 16 ? 97 : 0x1000193) {
                float xf = (float)ga_decode(f, (ga_bits)xb);
                for (size_t j = 0; j < sizeof dys / sizeof dys[0]; j++) {
                    ga_bits dy = ga_encode(f, dys[j]), xe = (ga_bits)xb, dx;
                    ga_backward_run(impl, f, &dy, &xe, &dx, 1);
                    ga_bits want = ga_encode(f, impl->scalar(f, (float)ga_decode(f, dy), xf));
                    if (!ga_same_encoding(f, dx, want))  /* any NaN matches any NaN */
                        fail_msg("%s %s x=0x%llx dy=0x%x: 0x%x, scalar 0x%x", impl->name, f->name,
                                 (unsigned long long)xb, (unsigned)dy, (unsigned)dx, (unsigned)want);
                    checked++;
                }
            }
        }
    }
    assert_true(checked > 100000);
}

/* The reference statistics: each pair into each region, one by one. */
static void reference_region_add(struct ga_backward_region *r, uint64_t index, ga_bits x,
                                 ga_bits dy, ga_bits dx, const struct ga_truth *t,
                                 const struct ga_error *e, int sign_error, const struct ga_format *f)
{
    double dyd = ga_decode(f, dy);

    r->count++;
    r->correct += (e->flags & GA_ERR_CORRECT) != 0;
    r->faithful += (e->flags & GA_ERR_FAITHFUL) != 0;
    r->nan_outputs += (e->flags & GA_ERR_NAN) != 0;
    r->not_nan += (e->flags & GA_ERR_NOT_NAN) != 0;
    r->inf_outputs += (e->flags & GA_ERR_INF) != 0;
    r->flushed += (e->flags & GA_ERR_FLUSHED) != 0;
    r->zero_sign += (e->flags & GA_ERR_ZERO_SIGN) != 0;
    r->sign_errors += (uint64_t)sign_error;
    if (isnan(e->ulp))
        return;
    r->ulp_count++;
    r->sum_ulp += e->ulp;
    if (r->worst.index == UINT64_MAX || e->ulp > r->max_ulp) {
        r->max_ulp = e->ulp;
        r->worst = (struct ga_backward_worst){ index, x, dy, dx, t->rounded, e->ulp };
    }
    if (isfinite(dyd) && !isnan(e->abs)) {
        double q = e->abs / ga_ulp(f, dyd);
        r->dy_ulp_count++;
        r->sum_dy_ulp += q;
        if (q > r->max_dy_ulp)
            r->max_dy_ulp = q;
    }
}

static void reference_sweep(const struct ga_backward_impl *impl, enum ga_function fn,
                            const struct ga_pairs *p, struct ga_backward_stats *out)
{
    const struct ga_format *f = p->format;
    struct ga_format_layout c;
    struct ga_grad_value g;

    struct ga_backward_stats chunk;

    ga_format_layout_init(&c, f);
    ga_backward_stats_init(out);
    ga_backward_stats_init(&chunk);
    for (uint64_t i = 0; i < p->size; i++) {
        ga_bits x, dy, dx;
        struct ga_truth t;
        struct ga_error e;
        double xd;
        int sign_error;
        assert_int_equal(ga_pairs_fill(p, i, 1, &x, &dy), 0);
        xd = ga_decode(f, x);
        if (i % 65536 == 0) {  /* the sweep's chunks: summed apart, merged in order */
            ga_backward_stats_merge(out, &chunk);
            ga_backward_stats_init(&chunk);
            assert_int_equal(ga_grad_value(fn, xd, &g), GA_TRUTH_OK);
        }
        dx = ga_encode(f, impl->scalar(f, (float)ga_decode(f, dy), (float)xd));
        assert_int_equal(ga_backward_truth(fn, f, &g, x, dy, &t), GA_TRUTH_OK);
        ga_error_compute(&c, dx, &t, &e);
        sign_error = !ga_is_nan(f, dx) && !ga_is_nan(f, t.rounded) && t.exact.mant != 0
                     && (dx & ~ga_sign_mask(f)) != 0 && ga_sign(f, dx) != ga_sign(f, t.rounded);
        reference_region_add(&chunk.all, i, x, dy, dx, &t, &e, sign_error, f);
        if (xd >= GA_ROOT_REGION_LO && xd <= GA_ROOT_REGION_HI) {
            reference_region_add(&chunk.root, i, x, dy, dx, &t, &e, sign_error, f);
            if (!(e.flags & GA_ERR_FAITHFUL) && !ga_is_nan(f, t.rounded)) {
                chunk.unfaithful_lo = fmin(chunk.unfaithful_lo, xd);
                chunk.unfaithful_hi = fmax(chunk.unfaithful_hi, xd);
            }
        }
    }
    ga_backward_stats_merge(out, &chunk);
}

/* pairs:all over every 1531st x (43 of them, 2.8 million pairs: the tables
 * and the memo are used), offset so that the root region is visited. */
static void sweep_matches_reference(const struct ga_format *f, const char *kernel)
{
    const struct ga_backward_impl *impl = ga_backward_catalogue_find(kernel);
    struct ga_backward_stats fast, fast2, ref;
    struct ga_pairs p;
    char err[256];

    assert_int_equal(ga_pairs_parse(&p, "pairs:all", f, 0, err, sizeof err), 0);
    p.x_stride = 1531;
    p.size = (uint64_t)(0x10000 / 1531 + 1) << 16;
    struct ga_backward_sweep s = { .name = kernel, .impl = impl, .reference = impl->approximates,
                                   .pairs = &p, .threads = 1 };
    assert_int_equal(ga_backward_sweep_run(&s, &fast, err, sizeof err), 0);
    s.threads = 2;
    assert_int_equal(ga_backward_sweep_run(&s, &fast2, err, sizeof err), 0);
    reference_sweep(impl, impl->approximates, &p, &ref);
    assert_true(ref.root.count > 0);
    assert_same_backward_stats(&fast, &ref);
    assert_same_backward_stats(&fast2, &ref);
}

static void test_sweep_bfloat16(void **state)
{
    (void)state;
    sweep_matches_reference(bf16, "pytorch_gelu_backward");
    sweep_matches_reference(bf16, "pytorch_gelu_backward_tanh_native");
    sweep_matches_reference(bf16, "jax_gelu_backward");
}

static void test_sweep_float16(void **state)
{
    (void)state;
    sweep_matches_reference(f16, "megatron_bias_gelu_back");
    sweep_matches_reference(f16, "quick_gelu_backward_native");
}

/* Pairs drawn from a few x (the root's among them) and a few dy (zeros,
 * infinities and NaN among them), so that runs of one x, of one dy, of both
 * and of neither all occur; dx random, so every flag can be set. */
static void add_pairs_matches_one_by_one(const struct ga_format *f)
{
    enum { N = 6000 };
    const double x_values[] = { -0.7517915, -0.75, -0.6, 1.5, -12.0, 0x1p-20, 0.0 };
    const double dy_values[] = { 1.0, -3.0, 0x1p-14, 0.0, -0.0, INFINITY, NAN, 6e4 };
    struct test_rng rng = test_rng(f->bits);
    static ga_bits x[N], dy[N], dx[N];
    static struct ga_truth t[N];
    static struct ga_error e_pairs[N];
    struct ga_backward_stats pairs, one_by_one;
    struct ga_format_layout c;
    ga_bits mask = (ga_bits)(((uint64_t)1 << f->bits) - 1);

    ga_format_layout_init(&c, f);
    for (size_t i = 0; i < N; i++) {
        struct ga_grad_value g;
        uint64_t r = test_rng_next(&rng);
        /* runs: keep the last x or dy two times out of three */
        x[i] = i > 0 && r % 3 != 0 ? x[i - 1] : ga_encode(f, x_values[(r >> 8) % 7]);
        dy[i] = i > 0 && (r >> 16) % 3 != 0 ? dy[i - 1] : ga_encode(f, dy_values[(r >> 24) % 8]);
        dx[i] = (ga_bits)(r >> 32) & mask;
        assert_int_equal(ga_grad_value(GA_GELU_GRAD, ga_decode(f, x[i]), &g), GA_TRUTH_OK);
        assert_int_equal(ga_backward_truth(GA_GELU_GRAD, f, &g, x[i], dy[i], &t[i]), GA_TRUTH_OK);
    }
    ga_backward_stats_init(&pairs);
    ga_backward_stats_init(&one_by_one);
    ga_backward_stats_add_pairs(&pairs, &c, 0, N / 2, x, dy, dx, t, NULL, e_pairs);
    ga_backward_stats_add_pairs(&pairs, &c, N / 2, N - N / 2, x + N / 2, dy + N / 2,
                                dx + N / 2, t + N / 2, NULL, e_pairs + N / 2);
    for (size_t i = 0; i < N; i++) {
        struct ga_error e;
        ga_backward_stats_add(&one_by_one, &c, i, x[i], dy[i], dx[i], &t[i], &e);
        assert_int_equal(e.flags, e_pairs[i].flags);
        assert_int_equal(double_bits(e.ulp), double_bits(e_pairs[i].ulp));
    }
    assert_true(one_by_one.root.count > 0 && one_by_one.all.sign_errors > 0);
    assert_true(one_by_one.all.dy_ulp_count < one_by_one.all.ulp_count);  /* dy = inf or NaN seen */
    assert_same_backward_stats(&pairs, &one_by_one);
}

static void test_add_pairs(void **state)
{
    (void)state;
    add_pairs_matches_one_by_one(f16);
    add_pairs_matches_one_by_one(ga_format_get(GA_FLOAT32));
}

/* Four rows over one domain: ga_backward_sweep_rows against
 * ga_backward_sweep_run of each, with 2 threads; tables when given. */
static void rows_match_alone(const struct ga_format *f, const char *domain, bool tabled)
{
    static const struct { const char *kernel; enum ga_function reference; } rows[] = {
        { "pytorch_gelu_backward", GA_GELU_GRAD },
        { "pytorch_gelu_backward_tanh", GA_GELU_TANH_GRAD },
        { "pytorch_gelu_backward_tanh", GA_GELU_GRAD },
        { "megatron_bias_gelu_back", GA_GELU_TANH_GRAD },
    };
    enum { N = sizeof rows / sizeof rows[0] };
    struct ga_backward_sweep s[N];
    struct ga_backward_stats together[N], alone;
    struct ga_backward_heat *heat[N], *heat_alone[N];
    struct ga_grad_value *tables[2] = { NULL, NULL };
    struct ga_pairs p;
    char err[256];

    assert_int_equal(ga_pairs_parse(&p, domain, f, ga_encode(f, 1.0), err, sizeof err), 0);
    for (int k = 0; k < 2 && tabled; k++)
        assert_non_null(tables[k] = ga_backward_grad_table(grads[k], f));
    for (size_t r = 0; r < N; r++) {
        s[r] = (struct ga_backward_sweep){
            .name = rows[r].kernel, .impl = ga_backward_catalogue_find(rows[r].kernel),
            .reference = rows[r].reference, .pairs = &p, .threads = 2,
            .grad_table = tables[rows[r].reference == GA_GELU_TANH_GRAD] };
        assert_non_null(s[r].impl);
        heat[r] = heat_alone[r] = NULL;
        if (r % 2 == 0 && f->bits <= 16) {  /* rows with and without a map */
            assert_non_null(heat[r] = s[r].heat = ga_backward_heat_new(f));
            assert_non_null(heat_alone[r] = ga_backward_heat_new(f));
        }
    }
    assert_int_equal(ga_backward_sweep_rows(s, N, together, err, sizeof err), 0);
    for (size_t r = 0; r < N; r++) {
        s[r].heat = heat_alone[r];
        assert_int_equal(ga_backward_sweep_run(&s[r], &alone, err, sizeof err), 0);
        assert_true(alone.all.count == p.size);
        assert_same_backward_stats(&together[r], &alone);
        if (heat[r] != NULL)
            assert_same_backward_heat(heat[r], heat_alone[r]);
        free(heat[r]);
        free(heat_alone[r]);
    }
    free(tables[0]);
    free(tables[1]);
    ga_pairs_free(&p);
}

static void test_rows(void **state)
{
    (void)state;
    rows_match_alone(ga_format_get(GA_FLOAT32), "range:-0.76:-0.74,stride:8388608", false);
    rows_match_alone(bf16, "pairs:random:300000:2", true);
    rows_match_alone(f16, "pairs:random:20000:3", false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_bfloat16),
        cmocka_unit_test(test_memo_float16),
        cmocka_unit_test(test_memo_refuses_float32),
        cmocka_unit_test(test_encode_float),
        cmocka_unit_test(test_factors),
        cmocka_unit_test(test_sweep_bfloat16),
        cmocka_unit_test(test_sweep_float16),
        cmocka_unit_test(test_add_pairs),
        cmocka_unit_test(test_rows),
    };
    test_random_init();
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
