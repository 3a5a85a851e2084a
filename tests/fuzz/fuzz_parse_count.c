/* Whole numbers (io/parse_count.h): exactly the non-empty digit strings up
 * to the limit are read, with the value strtoull gives them. */
#include "fuzz.h"

#include <errno.h>

#include "io/parse_count.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    size_t len = strlen(text);
    bool digits = len > 0 && strspn(text, "0123456789") == len;
    uint64_t max = len > 0 ? (uint64_t)(unsigned char)text[0] * 1000003u : UINT64_MAX;
    uint64_t v = 0;
    enum ga_count_status st = ga_parse_count(text, UINT64_MAX, &v);

    FUZZ_ASSERT((st == GA_COUNT_SYNTAX) == !digits);
    if (digits) {
        unsigned long long expected;
        errno = 0;
        expected = strtoull(text, NULL, 10);
        FUZZ_ASSERT((st == GA_COUNT_TOO_LARGE) == (errno == ERANGE));
        if (st == GA_COUNT_OK)
            FUZZ_ASSERT(v == expected);
        st = ga_parse_count(text, max, &v);
        FUZZ_ASSERT(st != GA_COUNT_OK || (v == expected && v <= max));
        FUZZ_ASSERT(st != GA_COUNT_TOO_LARGE || errno == ERANGE || expected > max);
    }
    free(text);
    return 0;
}
