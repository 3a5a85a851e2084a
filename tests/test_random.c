/* Seeds and random inputs for the unit tests (test_random.h). */
#include "test_random.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t seed = TEST_DEFAULT_SEED;
static double scale = 1;
static bool initialised;

void test_random_init(void)
{
    const char *seed_env = getenv("GELU_ACC_SEED");
    const char *scale_env = getenv("GELU_ACC_TEST_SCALE");

    if (initialised)
        return;
    initialised = true;
    if (seed_env != NULL && seed_env[0] != '\0')
        seed = strtoull(seed_env, NULL, 0);
    if (scale_env != NULL && atof(scale_env) > 0)
        scale = atof(scale_env);
    printf("# GELU_ACC_SEED=%llu GELU_ACC_TEST_SCALE=%g\n", (unsigned long long)seed, scale);
    fflush(stdout);
}

uint64_t test_seed(void)
{
    test_random_init();
    return seed;
}

double test_scale(void)
{
    test_random_init();
    return scale;
}

size_t test_scaled(size_t n)
{
    size_t m = (size_t)((double)n * test_scale());
    return m == 0 && n > 0 ? 1 : m;
}

/* splitmix64 (Steele, Lea, Flood 2014; constants as published by Vigna). */
uint64_t test_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

struct test_rng test_rng(uint64_t salt)
{
    struct test_rng r = { test_mix64(test_seed()) ^ test_mix64(salt + 0x9e3779b97f4a7c15u) };
    return r;
}

uint64_t test_rng_next(struct test_rng *r)
{
    return test_mix64(r->state += 0x9e3779b97f4a7c15u);
}

uint64_t test_rng_below(struct test_rng *r, uint64_t n)
{
    /* Values below `limit` are a whole number of copies of [0, n). */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n, v;
    do
        v = test_rng_next(r);
    while (v >= limit);
    return v % n;
}

double test_rng_uniform(struct test_rng *r)
{
    return (double)(test_rng_next(r) >> 11) * 0x1p-53;
}

double test_rng_between(struct test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * test_rng_uniform(r);
}

ga_bits test_rng_encoding(struct test_rng *r, const struct ga_format *f)
{
    return (ga_bits)(test_rng_next(r) & ga_all_ones(f));
}

ga_bits test_rng_encoding_in(struct test_rng *r, ga_bits lo, ga_bits hi)
{
    return lo + (ga_bits)test_rng_below(r, (uint64_t)(hi - lo) + 1);
}
