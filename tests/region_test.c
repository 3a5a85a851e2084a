/* Input regions (src/grade/region.c): every 16-bit input, and random
 * float32 ones, fall in the region the definitions in region.h give when
 * they are read on the decoded value; names and descriptions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "formats/format.h"
#include "grade/region.h"
#include "test_random.h"

/* The region of x by its value; rounds_to_zero: the truth's rounding. */
static enum ga_region region_by_value(const struct ga_format *f, ga_bits x, bool rounds_to_zero)
{
    double v = ga_decode(f, x);
    if (isnan(v) || isinf(v) || v == 0)
        return GA_REGION_SPECIAL;
    if (fabs(v) < 0x1p-10)
        return GA_REGION_TINY;
    if (fabs(v) <= 3)
        return GA_REGION_CORE;
    if (v > 3)
        return GA_REGION_RIGHT;
    return rounds_to_zero ? GA_REGION_FAR_LEFT : GA_REGION_LEFT_TAIL;
}

static void check_input(const struct ga_format *f, const struct ga_region_bounds *b, ga_bits x)
{
    /* the truth's rounding matters only in the left tail: try a zero of each
     * sign and a nonzero result */
    const ga_bits results[] = { ga_zero(f, true), ga_zero(f, false), ga_min_subnormal(f, true),
                                ga_encode(f, -1e-3) };
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++) {
        bool zero = ga_decode(f, results[i]) == 0;
        enum ga_region want = region_by_value(f, x, zero), got = ga_region_of(b, x, results[i]);
        if (got != want)
            fail_msg("%s 0x%x (%g), result 0x%x: region %s, want %s", f->name, (unsigned)x,
                     ga_decode(f, x), (unsigned)results[i], ga_region_name(got),
                     ga_region_name(want));
    }
}

static void test_every_input(void **state)
{
    struct test_rng rng = test_rng(0);
    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        struct ga_region_bounds b;
        ga_region_bounds_init(&b, f);
        /* 2^-10, or the least value above it where it is not representable
         * (the small formats with a subnormal 2^-9 or above) */
        assert_true(ga_decode(f, b.tiny) == 0x1p-10
                    || (ga_decode(f, b.tiny) > 0x1p-10 && ga_decode(f, b.tiny - 1) < 0x1p-10));
        assert_true(ga_decode(f, b.tail) == 3.0);
        assert_int_equal(b.inf, ga_finite_end(f));
        assert_int_equal(b.nan, ga_nan_from(f));
        if (f->bits <= 16) {
            for (ga_bits x = 0; x <= ga_all_ones(f); x++)
                check_input(f, &b, x);
        } else {
            for (size_t i = 0; i < test_scaled(200000); i++)
                check_input(f, &b, test_rng_encoding(&rng, f));
            /* the edges and their neighbours, both signs */
            const double edges[] = { 0x1p-10, 3.0 };
            for (size_t e = 0; e < 2; e++)
                for (int sign = 0; sign < 2; sign++) {
                    ga_bits x = ga_encode(f, sign ? -edges[e] : edges[e]);
                    check_input(f, &b, x);
                    check_input(f, &b, ga_next_up(f, x));
                    check_input(f, &b, ga_next_down(f, x));
                }
        }
    }
}

static void test_names(void **state)
{
    static const char *const names[] = { "far_left", "left_tail", "core", "tiny", "right",
                                         "special", "all" };
    enum ga_region r;
    (void)state;
    assert_int_equal(GA_REGION_ALL, 6);
    for (int i = 0; i <= GA_REGION_ALL; i++) {
        assert_string_equal(ga_region_name((enum ga_region)i), names[i]);
        assert_int_equal(ga_region_by_name(names[i], &r), 0);
        assert_int_equal(r, i);
        assert_non_null(ga_region_description((enum ga_region)i));
    }
    assert_string_equal(ga_region_description(GA_REGION_ALL), "every input");
    assert_non_null(strstr(ga_region_description(GA_REGION_CORE), "2^-10 <= |x| <= 3"));
    assert_null(ga_region_name((enum ga_region)(GA_REGION_ALL + 1)));
    assert_null(ga_region_description((enum ga_region)-1));
    r = GA_REGION_CORE;
    assert_int_equal(ga_region_by_name("Core", &r), -1);
    assert_int_equal(ga_region_by_name("", &r), -1);
    assert_int_equal(r, GA_REGION_CORE);   /* untouched */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_input),
        cmocka_unit_test(test_names),
    };
    test_random_init();
    return cmocka_run_group_tests_name("region", tests, NULL, NULL);
}
