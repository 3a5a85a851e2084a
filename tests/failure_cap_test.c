/* The deterministic failure cap (src/measure/failure_cap.c): which chunks
 * count for a measurement capped at K failures, checked against the
 * definition (a chunk counts when fewer than K chunks before it failed),
 * sequentially and with threads that finish their chunks out of order. */
#include <omp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

#include "measure/failure_cap.h"
#include "test_random.h"

enum { CHUNKS = 400, COUNT = 3 };

/* The definition, for measurement j. */
static bool counts_by_definition(const bool failed[][COUNT], size_t j, uint64_t c, uint64_t k)
{
    uint64_t before = 0;
    for (uint64_t i = 0; i < c; i++)
        before += failed[i][j];
    return before < k;
}

static void test_sequential(void **state)
{
    /* measurement 0 fails on chunks 1, 4, 5; measurement 1 never */
    bool failed[8][COUNT] = { { 0 } };
    struct ga_failure_cap *cap = ga_failure_cap_new(8, 2, 2);

    (void)state;
    assert_non_null(cap);
    failed[1][0] = failed[4][0] = failed[5][0] = true;
    for (uint64_t c = 0; c < 8; c++) {
        ga_failure_cap_ran(cap, c, failed[c]);
        assert_int_equal(ga_failure_cap_counts(cap, 0, c), c <= 4);   /* 4: the 2nd failure */
        assert_true(ga_failure_cap_counts(cap, 1, c));
        assert_int_equal(ga_failure_cap_skips(cap, 0, c + 1), c >= 4);
    }
    assert_true(ga_failure_cap_reached(cap, 0));
    assert_false(ga_failure_cap_reached(cap, 1));
    ga_failure_cap_free(cap);
}

/* Threads take chunks in order (as the sweep's dynamic schedule does) but
 * finish them after random delays; every verdict matches the definition. */
static void test_threads_out_of_order(void **state)
{
    static bool failed[CHUNKS][COUNT], verdict[CHUNKS][COUNT];
    struct test_rng rng = test_rng(0xcab);
    unsigned delay[CHUNKS];

    (void)state;
    for (uint64_t k = 1; k <= 9; k += 4) {
        struct ga_failure_cap *cap = ga_failure_cap_new(CHUNKS, COUNT, k);
        assert_non_null(cap);
        for (size_t c = 0; c < CHUNKS; c++) {
            for (size_t j = 0; j < COUNT; j++)
                failed[c][j] = test_rng_below(&rng, 20 * (j + 1)) == 0;
            delay[c] = (unsigned)test_rng_below(&rng, 200000);
        }
        #pragma omp parallel for schedule(dynamic, 1) num_threads(4)
        for (size_t c = 0; c < CHUNKS; c++) {
            nanosleep(&(struct timespec){ .tv_nsec = delay[c] }, NULL);
            ga_failure_cap_ran(cap, c, failed[c]);
            for (size_t j = 0; j < COUNT; j++)
                verdict[c][j] = ga_failure_cap_counts(cap, j, c);
        }
        for (size_t c = 0; c < CHUNKS; c++)
            for (size_t j = 0; j < COUNT; j++)
                if (verdict[c][j] != counts_by_definition(failed, j, c, k))
                    fail_msg("K = %llu, chunk %zu, measurement %zu: counts %d",
                             (unsigned long long)k, c, j, verdict[c][j]);
        ga_failure_cap_free(cap);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential),
        cmocka_unit_test(test_threads_out_of_order),
    };
    test_random_init();
    return cmocka_run_group_tests_name("failure_cap", tests, NULL, NULL);
}
