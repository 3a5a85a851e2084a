/* The report plan (src/report/plan.c): for each format, every catalogue
 * implementation that has a version for it, once against exact GELU, and the
 * tanh-form ones once more against their own formula, in catalogue order,
 * all with profiles (for the pictures). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "impls/impl.h"
#include "report/plan.h"

static size_t plan_of(enum ga_format_id id, struct ga_measurement **m)
{
    *m = calloc(ga_report_plan_max(), sizeof **m);
    assert_non_null(*m);
    return ga_report_plan(ga_format_get(id), *m);
}

static size_t count(const struct ga_measurement *m, size_t n, const char *name,
                    enum ga_function reference)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += strcmp(m[i].impl->name, name) == 0 && m[i].reference == reference;
    return k;
}

/* Facts read off the catalogue's documentation: the ggml table has no
 * bfloat16 version, _native entries exist for the 16-bit formats only. */
static void test_known_entries(void **state)
{
    struct ga_measurement *m;
    size_t n;
    (void)state;
    assert_int_equal(ga_report_plan_max(), 2 * ga_catalogue_count());
    n = plan_of(GA_FLOAT32, &m);
    assert_int_equal(count(m, n, "erf", GA_GELU), 1);
    assert_int_equal(count(m, n, "erf", GA_GELU_TANH), 0);
    assert_int_equal(count(m, n, "tanh", GA_GELU), 1);
    assert_int_equal(count(m, n, "tanh", GA_GELU_TANH), 1);
    assert_int_equal(count(m, n, "lut_f16", GA_GELU_TANH), 1);
    assert_int_equal(count(m, n, "erf_native", GA_GELU), 0);
    free(m);
    n = plan_of(GA_BFLOAT16, &m);
    assert_int_equal(count(m, n, "lut_f16", GA_GELU), 0);
    assert_int_equal(count(m, n, "erf_native", GA_GELU), 1);
    assert_int_equal(count(m, n, "sigmoid_native", GA_GELU_TANH), 1);
    free(m);
}

/* Every entry, and only those, in catalogue order; the tanh reference right
 * after the GELU one; a profile wanted for each. */
static void test_whole_plan(void **state)
{
    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        struct ga_measurement *m;
        size_t n = plan_of((enum ga_format_id)id, &m), at = 0;
        assert_true(n <= ga_report_plan_max());
        /* most entries take the wide formats; four take the small ones, and
         * float64 has three and the tanh form's second reference */
        assert_true(n >= (ga_is_small_format(f) || f->id == GA_FLOAT64 ? 4
                                                                        : ga_catalogue_count() / 2));
        for (size_t i = 0; i < ga_catalogue_count(); i++) {
            const struct ga_impl *impl = ga_catalogue_at(i);
            if (!ga_impl_supports(impl, f))
                continue;
            assert_true(at < n);
            assert_ptr_equal(m[at].impl, impl);
            assert_int_equal(m[at].reference, GA_GELU);
            assert_true(m[at].want_profile);
            assert_null(m[at].stats);
            at++;
            if (impl->approximates == GA_GELU_TANH) {
                assert_true(at < n);
                assert_ptr_equal(m[at].impl, impl);
                assert_int_equal(m[at].reference, GA_GELU_TANH);
                assert_true(m[at].want_profile);
                at++;
            }
        }
        assert_int_equal(at, n);
        free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_known_entries),
        cmocka_unit_test(test_whole_plan),
    };
    return cmocka_run_group_tests_name("plan", tests, NULL, NULL);
}
