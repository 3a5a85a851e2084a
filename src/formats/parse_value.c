/* Correct rounding of a decimal or hexadecimal-float string into a format.
 * MPFR reads the string rounded to odd at 64 bits (towards zero, then the
 * last bit set when inexact); a round-to-odd value at >= p + 2 bits rounds to
 * nearest at p bits exactly as the string itself would (doc/formats.md,
 * 'Round to odd'), so no double rounding creeps in. */
#include "formats/parse_value.h"

#include <ctype.h>
#include <string.h>

#include <mpfr.h>

#include "formats/round_mpfr.h"

int ga_parse_value(const struct ga_format *f, const char *text, ga_bits *out)
{
    mpfr_t v;
    char *end;
    int inexact;

    while (isspace((unsigned char)*text))
        text++;
    if (*text == '\0')
        return -1;
    mpfr_init2(v, 64);
    inexact = mpfr_strtofr(v, text, &end, 0, MPFR_RNDZ);
    while (isspace((unsigned char)*end))
        end++;
    if (*end != '\0' || end == text) {
        mpfr_clear(v);
        return -1;
    }
    if (inexact && mpfr_regular_p(v) && mpfr_min_prec(v) < 64) {
        /* round to odd: step away from zero onto the odd neighbour */
        if (mpfr_sgn(v) > 0)
            mpfr_nextabove(v);
        else
            mpfr_nextbelow(v);
    }
    *out = mpfr_nan_p(v) ? ga_quiet_nan(f) : ga_round_mpfr(f, v);
    mpfr_clear(v);
    return 0;
}
