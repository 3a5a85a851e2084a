/* The tensor lengths real kernels are called at (src/real/call_length.c):
 * a fake library body records every call it gets, and each length must lay
 * the inputs out as call_length.h says: long tensors padded with copies of
 * the last input to a multiple of 64, one element per call, or three inputs
 * after a 64-element body of copies, with every output taken from the
 * position its input was put at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "real/call_length.h"

enum { MAX_CALLS = 4096, MAX_ELEMENTS = 1 << 16 };

/* Every call the fake library received: its length and its operands. */
struct recorder {
    size_t calls, length[MAX_CALLS];
    uint16_t first[MAX_CALLS][2][GA_REAL_BODY + GA_REAL_TAIL_INPUTS];  /* up to 67 elements */
};

static struct recorder rec;

/* out[i] = x[i] (+ dy[i] << 8 for a backward call) + 0x1000 * (length
 * class): an output says from which input and which kind of call it came. */
static uint16_t tag(size_t n)
{
    return n == 1 ? 0x1000 : n == GA_REAL_BODY + GA_REAL_TAIL_INPUTS ? 0x2000 : 0x3000;
}

static void fake_body(void *ctx, const void *const *in, void *out, size_t n)
{
    int operands = *(const int *)ctx;
    const uint16_t *x = in[operands - 1], *dy = operands == 2 ? in[0] : NULL;
    uint16_t *y = out;

    if (rec.calls < MAX_CALLS) {
        rec.length[rec.calls] = n;
        for (int a = 0; a < operands; a++)
            memcpy(rec.first[rec.calls][a], in[a],
                   (n < GA_REAL_BODY + GA_REAL_TAIL_INPUTS ? n : GA_REAL_BODY + GA_REAL_TAIL_INPUTS)
                       * sizeof(uint16_t));
    }
    rec.calls++;
    for (size_t i = 0; i < n; i++)
        y[i] = (uint16_t)((x[i] & 0xff) + (dy ? (dy[i] & 0xf) << 8 : 0) + tag(n));
}

/* n inputs 0, 1, 2, ... (dy: 15 - i mod 16) laid out at length. */
static void run(enum ga_real_length length, int operands, size_t n, uint16_t *out)
{
    static uint16_t x[MAX_ELEMENTS], dy[MAX_ELEMENTS];
    const void *in[2];

    for (size_t i = 0; i < n; i++) {
        x[i] = (uint16_t)(i & 0xff);
        dy[i] = (uint16_t)(15 - (i & 0xf));
    }
    in[0] = operands == 2 ? (const void *)dy : (const void *)x;
    in[1] = x;
    memset(&rec, 0, sizeof rec);
    ga_real_call_length(length, fake_body, &operands, operands, in, out, n, sizeof(uint16_t));
}

static uint16_t expected(size_t i, int operands, size_t n_class)
{
    return (uint16_t)((i & 0xff) + (operands == 2 ? (15 - (i & 0xf)) << 8 : 0) + tag(n_class));
}

static void test_long_pads_to_the_body(void **state)
{
    static uint16_t out[MAX_ELEMENTS];
    (void)state;
    for (size_t n = 1; n <= 200; n += 13) {
        run(GA_REAL_LONG, 1, n, out);
        assert_int_equal(rec.calls, 1);
        assert_int_equal(rec.length[0], (n + 63) / 64 * 64);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(out[i], expected(i, 1, 64));
    }
    /* the padding: copies of the last input */
    run(GA_REAL_LONG, 1, 5, out);
    for (size_t i = 5; i < 64; i++)
        assert_int_equal(rec.first[0][0][i], 4);
}

static void test_one_element_per_call(void **state)
{
    static uint16_t out[MAX_ELEMENTS];
    (void)state;
    run(GA_REAL_ONE, 1, 300, out);
    assert_int_equal(rec.calls, 300);
    for (size_t c = 0; c < 300; c++) {
        assert_int_equal(rec.length[c], 1);
        assert_int_equal(rec.first[c][0][0], c & 0xff);
        assert_int_equal(out[c], expected(c, 1, 1));
    }
}

static void test_tail_after_a_full_body(void **state)
{
    static uint16_t out[MAX_ELEMENTS];
    (void)state;
    for (size_t n = 1; n <= 20; n++) {
        run(GA_REAL_TAIL, 1, n, out);
        assert_int_equal(rec.calls, (n + 2) / 3);
        for (size_t c = 0; c < rec.calls; c++) {
            size_t first = 3 * c, k = n - first < 3 ? n - first : 3;
            assert_int_equal(rec.length[c], 67);
            for (size_t p = 0; p < 64; p++)          /* the body: the group's first input */
                assert_int_equal(rec.first[c][0][p], first);
            for (size_t j = 0; j < 3; j++)           /* then the group, its last repeated */
                assert_int_equal(rec.first[c][0][64 + j], first + (j < k ? j : k - 1));
        }
        for (size_t i = 0; i < n; i++)
            assert_int_equal(out[i], expected(i, 1, 67));
    }
}

/* Backward kernels: dy and x laid out alike, at every length. */
static void test_two_operands_travel_together(void **state)
{
    static uint16_t out[MAX_ELEMENTS];
    static const enum ga_real_length lengths[] = { GA_REAL_LONG, GA_REAL_ONE, GA_REAL_TAIL };
    static const size_t classes[] = { 64, 1, 67 };
    (void)state;
    for (size_t l = 0; l < 3; l++) {
        run(lengths[l], 2, 100, out);
        for (size_t i = 0; i < 100; i++)
            assert_int_equal(out[i], expected(i, 2, classes[l]));
    }
}

static void test_nothing_for_no_input(void **state)
{
    uint16_t out[1] = { 0xabcd };
    (void)state;
    for (int l = GA_REAL_LONG; l <= GA_REAL_TAIL; l++) {
        run((enum ga_real_length)l, 1, 0, out);
        assert_int_equal(rec.calls, 0);
        assert_int_equal(out[0], 0xabcd);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_pads_to_the_body),
        cmocka_unit_test(test_one_element_per_call),
        cmocka_unit_test(test_tail_after_a_full_body),
        cmocka_unit_test(test_two_operands_travel_together),
        cmocka_unit_test(test_nothing_for_no_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
