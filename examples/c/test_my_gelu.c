/* A CMocka test of my_gelu_bf16 against the certified truth of libgelu-acc,
 * on every bfloat16 input: what a kernel's unit test asserts instead of
 * allclose(out, F.gelu(x.float()).to(bfloat16), rtol, atol).
 *
 *   make check    (Makefile: flags from pkg-config gelu-acc cmocka) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>
#include <gelu-acc/gelu-acc.h>

#include "my_gelu.h"

#define N 65536

static uint16_t x[N], y[N], want[N];
static uint32_t flags[N];
static double ulp[N];

static int setup(void **state)
{
    (void)state;
    for (uint32_t i = 0; i < N; i++)
        x[i] = (uint16_t)i;
    my_gelu_bf16(x, y, N);
    return gelu_acc_ulp_error(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, y, N, ulp, flags);
}

/* Element by element: no NaN or infinity where the truth is a number, no
 * zero of the wrong sign, every output within 1 ulp of the exact value. */
static void test_every_input_within_one_ulp(void **state)
{
    unsigned failures = 0;
    (void)state;
    assert_int_equal(gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, want, N), GELU_ACC_OK);
    for (uint32_t i = 0; i < N; i++) {
        int bad = (flags[i] & (GELU_ACC_NAN | GELU_ACC_INF | GELU_ACC_ZERO_SIGN)) != 0 || ulp[i] > 1;
        if (bad && failures++ < 5)
            printf("# x = 0x%04x: got 0x%04x, correctly rounded 0x%04x, %.3g ulp, flags 0x%x\n",
                   (unsigned)x[i], (unsigned)y[i], (unsigned)want[i], ulp[i], (unsigned)flags[i]);
    }
    assert_int_equal(failures, 0);
}

/* The same figures as 'gelu-acc check', from bounds written inline: at
 * least 99 % of the inputs correctly rounded, nothing flushed to zero
 * beyond the subnormal results a float computation cannot reach. */
static void test_summary_bounds(void **state)
{
    gelu_acc_grader *g;
    struct gelu_acc_summary s;
    char report[1024];
    int exceeded;
    (void)state;
    assert_int_equal(gelu_acc_grader_new(GELU_ACC_GELU, GELU_ACC_BFLOAT16, &g), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_add(g, x, y, N), GELU_ACC_OK);
    assert_int_equal(gelu_acc_grader_summary(g, GELU_ACC_REGION_ALL, &s, sizeof s), GELU_ACC_OK);
    printf("# correctly rounded %llu of %llu, max %.3g ulp at x = 0x%04llx\n",
           (unsigned long long)s.correctly_rounded, (unsigned long long)s.count, s.max_ulp.error,
           (unsigned long long)s.max_ulp.x);
    assert_true(s.correctly_rounded >= s.count / 100 * 99);
    assert_int_equal(gelu_acc_grader_check_bounds(g, "max_ulp = 1\nnan = 0\ninf = 0\n",
                                                  &exceeded, report, sizeof report), GELU_ACC_OK);
    if (exceeded)
        printf("%s", report);
    assert_int_equal(exceeded, 0);
    gelu_acc_grader_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_input_within_one_ulp),
        cmocka_unit_test(test_summary_bounds),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
