/* The vector paths of the fast oracle against its scalar path, bit for bit
 * (rounded encoding and direction), on float32 inputs.
 *
 *   vec_oracle_check PATH random:N [FUNCTION]   N random encodings (fixed seed)
 *   vec_oracle_check PATH widened [FUNCTION]    every float16 and bfloat16 value as a float32
 *   vec_oracle_check PATH all:K/M [FUNCTION]    shard K of M of all 2^32 encodings
 *   vec_oracle_check PATH pairs:N FUNCTION      N random pairs (x, dy) of the backward
 *                                               truth, FUNCTION a derivative
 *
 * FUNCTION: gelu (the default), gelu_tanh, gelu_grad or gelu_tanh_grad.
 * PATH: portable or avx2.  Prints the inputs compared, the differences (the
 * first few named) and the time; exit 0 when there are none, 1 when there
 * are, 2 on a usage error, 77 when the CPU lacks PATH (a skip for the test
 * driver).  Used by tests/vec_oracle_test.sh and 'make vec-oracle-audit'
 * (doc/oracle.md, 'The vector paths'). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/format.h"
#include "truth/fast_vec.h"

#define BLOCK 4096

struct counts { uint64_t inputs, differences; };

static enum ga_function fn = GA_GELU;

static void compare(enum ga_vec_path p, const ga_bits *x, size_t n, struct counts *c)
{
    static ga_bits ry[BLOCK], sy[BLOCK];
    static int8_t rd[BLOCK], sd[BLOCK];

    ga_truth_f32_rounded(fn, p, x, ry, rd, n);
    ga_truth_f32_rounded(fn, GA_VEC_SCALAR, x, sy, sd, n);
    for (size_t i = 0; i < n; i++)
        if (ry[i] != sy[i] || rd[i] != sd[i]) {
            if (c->differences++ < 10)
                printf("difference at 0x%08x: %s 0x%08x %+d, scalar 0x%08x %+d\n",
                       (unsigned)x[i], ga_vec_path_name(p), (unsigned)ry[i], rd[i],
                       (unsigned)sy[i], sd[i]);
        }
    c->inputs += n;
}

static void run_range(enum ga_vec_path p, uint64_t first, uint64_t end, struct counts *c)
{
    static ga_bits x[BLOCK];

    while (first < end) {
        size_t n = end - first < BLOCK ? (size_t)(end - first) : BLOCK;
        for (size_t i = 0; i < n; i++)
            x[i] = first + i;
        compare(p, x, n, c);
        first += n;
    }
}

static void run_random(enum ga_vec_path p, uint64_t count, struct counts *c)
{
    static ga_bits x[BLOCK];
    uint64_t state = 0x2545f4914f6cdd1du;

    while (c->inputs < count) {
        size_t n = count - c->inputs < BLOCK ? (size_t)(count - c->inputs) : BLOCK;
        for (size_t i = 0; i < n; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            x[i] = (ga_bits)(state >> 32);
        }
        compare(p, x, n, c);
    }
}

/* float16 values by their decoded double (exact in float32); bfloat16 ones
 * are the top halves of float32 encodings. */
static void run_widened(enum ga_vec_path p, struct counts *c)
{
    static ga_bits x[1 << 16];
    const struct ga_format *half = ga_format_get(GA_FLOAT16);

    for (uint32_t e = 0; e < 1 << 16; e++) {
        float v = (float)ga_decode(half, e);
        uint32_t b;
        memcpy(&b, &v, sizeof b);
        x[e] = b;
    }
    for (size_t i = 0; i < 1 << 16; i += BLOCK)
        compare(p, x + i, BLOCK, c);
    for (uint32_t e = 0; e < 1 << 16; e++)
        x[e] = (ga_bits)e << 16;
    for (size_t i = 0; i < 1 << 16; i += BLOCK)
        compare(p, x + i, BLOCK, c);
}

/* The backward truth (ga_backward_f32_rounded) of N pairs: x a random
 * encoding or a random value of [-15, 9] (the derivatives' evaluated range
 * and its edges), dy a random encoding (specials included) or a random
 * value of [-4, 4], alternately, from a fixed seed. */
static void run_pairs(enum ga_vec_path p, uint64_t count, struct counts *c)
{
    static ga_bits x[BLOCK], dy[BLOCK], ry[BLOCK], sy[BLOCK];
    static int8_t rd[BLOCK], sd[BLOCK];
    uint64_t state = 0x9e3779b97f4a7c15u;

    while (c->inputs < count) {
        size_t n = count - c->inputs < BLOCK ? (size_t)(count - c->inputs) : BLOCK;
        for (size_t i = 0; i < n; i++) {
            uint64_t k = c->inputs + i;
            float v;
            uint32_t b;
            state = state * 6364136223846793005u + 1442695040888963407u;
            v = (float)((double)(state >> 11) * 0x1p-53 * 24.0 - 15.0);
            memcpy(&b, &v, sizeof b);
            x[i] = k % 2 ? b : (ga_bits)(state >> 32);
            state = state * 6364136223846793005u + 1442695040888963407u;
            v = (float)((double)(state >> 11) * 0x1p-53 * 8.0 - 4.0);
            memcpy(&b, &v, sizeof b);
            dy[i] = k % 3 ? b : (ga_bits)(state >> 32);
        }
        ga_backward_f32_rounded(fn, p, x, dy, ry, rd, n);
        ga_backward_f32_rounded(fn, GA_VEC_SCALAR, x, dy, sy, sd, n);
        for (size_t i = 0; i < n; i++)
            if (ry[i] != sy[i] || rd[i] != sd[i]) {
                if (c->differences++ < 10)
                    printf("difference at x = 0x%08x, dy = 0x%08x: %s 0x%08x %+d, scalar 0x%08x "
                           "%+d\n", (unsigned)x[i], (unsigned)dy[i], ga_vec_path_name(p),
                           (unsigned)ry[i], rd[i], (unsigned)sy[i], sd[i]);
            }
        c->inputs += n;
    }
}

static int usage(void)
{
    fprintf(stderr, "usage: vec_oracle_check portable|avx2 random:N|widened|all:K/M "
                    "[gelu|gelu_tanh|gelu_grad|gelu_tanh_grad]\n"
                    "       vec_oracle_check portable|avx2 pairs:N gelu_grad|gelu_tanh_grad\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct counts c = { 0, 0 };
    enum ga_vec_path p;
    unsigned long long a, b;
    char end;
    struct timespec t0, t1;

    if (argc != 3 && argc != 4)
        return usage();
    if (argc == 4 && strcmp(argv[3], "gelu_tanh") == 0)
        fn = GA_GELU_TANH;
    else if (argc == 4 && strcmp(argv[3], "gelu_grad") == 0)
        fn = GA_GELU_GRAD;
    else if (argc == 4 && strcmp(argv[3], "gelu_tanh_grad") == 0)
        fn = GA_GELU_TANH_GRAD;
    else if (argc == 4 && strcmp(argv[3], "gelu") != 0)
        return usage();
    if (strcmp(argv[1], "portable") == 0)
        p = GA_VEC_PORTABLE;
    else if (strcmp(argv[1], "avx2") == 0)
        p = GA_VEC_AVX2;
    else
        return usage();
    if (!ga_vec_path_available(p)) {
        printf("SKIP: this CPU lacks the %s path\n", argv[1]);
        return 77;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (sscanf(argv[2], "random:%llu%c", &a, &end) == 1 && a > 0)
        run_random(p, a, &c);
    else if (strcmp(argv[2], "widened") == 0)
        run_widened(p, &c);
    else if (sscanf(argv[2], "pairs:%llu%c", &a, &end) == 1 && a > 0
             && (fn == GA_GELU_GRAD || fn == GA_GELU_TANH_GRAD))
        run_pairs(p, a, &c);
    else if (sscanf(argv[2], "all:%llu/%llu%c", &a, &b, &end) == 2 && b > 0 && a < b
             && b <= 1u << 16)
        run_range(p, (a << 32) / b, ((a + 1) << 32) / b, &c);
    else
        return usage();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s float32 %s %s: %llu inputs compared with the scalar oracle, %llu differences, "
           "%.1f s\n", ga_function_name(fn), argv[1], argv[2], (unsigned long long)c.inputs,
           (unsigned long long)c.differences,
           (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    return c.differences ? 1 : 0;
}
