/* Two kernels' outputs compared without a truth (measure/output_match.h):
 * fake kernels whose differences are placed on purpose, counted as a plain
 * loop counts them; NaNs of any payload match, +0 and -0 differ; the first
 * difference is the lowest index whatever the thread count; a failing
 * kernel is an error, not a count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "domain/domain.h"
#include "formats/format.h"
#include "impls/impl.h"
#include "measure/output_match.h"

/* out = in: the reference side. */
static int same(const struct ga_impl *impl, const struct ga_format *f, const ga_bits *in,
                ga_bits *out, size_t n, struct ga_run_failure *failure)
{
    (void)impl, (void)f, (void)failure;
    memcpy(out, in, n * sizeof *out);
    return 0;
}

/* Whether bfloat16 encoding x is one the changed kernel alters: a spread
 * of ordinary values (every 997th encoding from 40000 on), and +0. */
static bool altered(ga_bits x)
{
    return x == 0x0000
           || (x >= 40000 && x < 65536 && (x - 40000) % 997 == 0 && (x & 0x7f80) != 0x7f80);
}

/* out = in, except: altered inputs one encoding up (+0 becomes -0), and
 * every NaN the default quiet NaN, another payload for most (which must
 * still match). */
static int changed(const struct ga_impl *impl, const struct ga_format *f, const ga_bits *in,
                   ga_bits *out, size_t n, struct ga_run_failure *failure)
{
    (void)impl, (void)failure;
    for (size_t i = 0; i < n; i++) {
        if (in[i] == 0x0000)
            out[i] = 0x8000;
        else if (altered(in[i]))
            out[i] = in[i] + 1;
        else if (ga_is_nan(f, in[i]))
            out[i] = f->bits == 16 ? 0x7fc0 : 0x7fc00000;
        else
            out[i] = in[i];
    }
    return 0;
}

static int failing(const struct ga_impl *impl, const struct ga_format *f, const ga_bits *in,
                   ga_bits *out, size_t n, struct ga_run_failure *failure)
{
    (void)impl, (void)f, (void)in, (void)out, (void)n;
    memset(failure, 0, sizeof *failure);
    strcpy(failure->what, "the fake kernel gave up");
    return -1;
}

static const struct ga_impl same_impl = { .name = "same", .run = same },
                            changed_impl = { .name = "changed", .run = changed },
                            failing_impl = { .name = "failing", .run = failing };

static void every_bfloat16(void **state)
{
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    struct ga_domain d;
    char err[256], why[256];
    uint64_t expect = 0;
    ga_bits first = 0;
    (void)state;

    assert_int_equal(ga_domain_parse(&d, "all", f, err, sizeof err), 0);
    for (uint32_t x = 65535; x != UINT32_MAX; x--)
        if (altered((ga_bits)x)) {
            expect++;
            first = x;   /* the lowest, after the loop */
        }
    assert_true(expect > 20);
    for (int threads = 1; threads <= 3; threads++) {
        struct ga_output_match m;
        assert_int_equal(ga_output_match(f, &d, &same_impl, &changed_impl, threads, &m, why,
                                         sizeof why), 0);
        assert_int_equal(m.inputs, 65536);
        assert_int_equal(m.differ, expect);
        assert_int_equal(m.x, first);
        assert_int_equal(m.a, first);
        assert_int_equal(m.b, first == 0 ? 0x8000 : first + 1);
        assert_int_equal(ga_output_match(f, &d, &changed_impl, &changed_impl, threads, &m, why,
                                         sizeof why), 0);
        assert_int_equal(m.differ, 0);
    }
    ga_domain_free(&d);
}

/* A strided domain: indices of the domain, not encodings, decide "first". */
static void strided_float32(void **state)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    struct ga_domain d;
    struct ga_output_match m;
    char err[256], why[256];
    (void)state;

    /* float32 through the bfloat16 rule: +0 alone is altered on this stride */
    assert_int_equal(ga_domain_parse(&d, "stride:65536", f, err, sizeof err), 0);
    assert_int_equal(ga_output_match(f, &d, &same_impl, &changed_impl, 2, &m, why, sizeof why),
                     0);
    assert_int_equal(m.inputs, 65536);
    assert_int_equal(m.differ, 1);
    assert_int_equal(m.x, 0);
    ga_domain_free(&d);
}

static void a_failing_kernel_is_an_error(void **state)
{
    const struct ga_format *f = ga_format_get(GA_BFLOAT16);
    struct ga_domain d;
    struct ga_output_match m;
    char err[256], why[256] = "";
    (void)state;

    assert_int_equal(ga_domain_parse(&d, "all", f, err, sizeof err), 0);
    assert_int_equal(ga_output_match(f, &d, &same_impl, &failing_impl, 2, &m, why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "the fake kernel gave up"));
    ga_domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_bfloat16),
        cmocka_unit_test(strided_float32),
        cmocka_unit_test(a_failing_kernel_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
