/* Small helpers shared by the CMocka tests: the bits of a float or double
 * (to compare encodings, not values: +0 and -0 differ) and a message check.
 * Include after <cmocka.h>. */
#ifndef GELU_ACC_TEST_HELPERS_H
#define GELU_ACC_TEST_HELPERS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t float_bits(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static inline uint64_t double_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* A refusal's message names what it must (the input, the line, the reason). */
static inline void assert_contains(const char *text, const char *part)
{
    if (strstr(text, part) == NULL)
        fail_msg("message \"%s\" lacks \"%s\"", text, part);
}

#endif
