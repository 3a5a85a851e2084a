/* Numbers (formats/parse_value.h): the grammar check and the parser agree,
 * and an accepted number rounds to float32 as glibc's strtof does (correctly
 * rounded, and a superset of the grammar). */
#include "fuzz.h"

#include <math.h>

#include "formats/format.h"
#include "formats/parse_value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    size_t bad_at = SIZE_MAX;
    int syntax = ga_number_syntax(text, &bad_at);
    double real;

    if (syntax != 0)
        FUZZ_ASSERT(bad_at <= strlen(text));
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        ga_bits x = 0;
        int st = ga_parse_value(f, text, &x);

        /* nan is refused where the format has no NaN */
        FUZZ_ASSERT(st == syntax || (st == -2 && syntax == 0 && !ga_has_nan(f)));
        if (st == 0)
            FUZZ_ASSERT(ga_fits(f, x));
        if (st == 0 && id == GA_FLOAT32) {
            char *end;
            float expected = strtof(text, &end);
            FUZZ_ASSERT(*end == '\0');
            FUZZ_ASSERT(ga_same_encoding(f, x, ga_encode(f, expected)));
        }
    }
    switch (ga_parse_real(text, &real)) {
    case 0:
        FUZZ_ASSERT(syntax == 0 && isfinite(real));
        break;
    case -2:
        FUZZ_ASSERT(syntax == 0);
        break;
    default:
        break;
    }
    free(text);
    return 0;
}
