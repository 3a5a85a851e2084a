/* Seeds and random inputs for the unit tests: one fixed seed, overridable by
 * GELU_ACC_SEED and printed once as a TAP comment, so a failing run can be
 * repeated exactly; iteration counts scaled by GELU_ACC_TEST_SCALE. */
#ifndef GELU_ACC_TEST_RANDOM_H
#define GELU_ACC_TEST_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

/* The seed used when GELU_ACC_SEED is unset. */
#define TEST_DEFAULT_SEED 20240611u

/* Reads GELU_ACC_SEED and GELU_ACC_TEST_SCALE and prints both once
 * ("# GELU_ACC_SEED=... GELU_ACC_TEST_SCALE=..."); later calls do nothing. */
void test_random_init(void);
uint64_t test_seed(void);
/* GELU_ACC_TEST_SCALE when set and positive, else 1. */
double test_scale(void);
/* n times the scale, at least 1 when n is. */
size_t test_scaled(size_t n);

/* A splitmix64 stream: a counter mixed into a uniform 64-bit output.
 * Streams of the same seed with different salts are independent. */
struct test_rng {
    uint64_t state;
};

struct test_rng test_rng(uint64_t salt);
uint64_t test_rng_next(struct test_rng *r);
/* Uniform in [0, n), n > 0 (by rejection: no modulo bias). */
uint64_t test_rng_below(struct test_rng *r, uint64_t n);
/* Uniform in [0, 1) with 53 random bits. */
double test_rng_uniform(struct test_rng *r);
/* Uniform in [lo, hi) (hi itself only through rounding of lo + (hi - lo) u). */
double test_rng_between(struct test_rng *r, double lo, double hi);
/* Any encoding of f, NaNs and infinities included. */
ga_bits test_rng_encoding(struct test_rng *r, const struct ga_format *f);
/* An encoding in [lo, hi], inclusive, lo <= hi. */
ga_bits test_rng_encoding_in(struct test_rng *r, ga_bits lo, ga_bits hi);

/* The splitmix64 output function, for tests that derive a value from a key. */
uint64_t test_mix64(uint64_t z);

#endif
