/* The truth's conventions as a report states them (truth_convention.h). */
#include "report/truth_convention.h"

#include <stdio.h>

static const char *overflow_meaning(enum ga_overflow o)
{
    switch (o) {
    case GA_OVERFLOW_INFINITY: return "a result beyond the largest finite value is the infinity of its sign";
    case GA_OVERFLOW_SATFINITE: return "a result beyond the largest finite value is that value (saturation)";
    default: return "a result beyond the largest finite value is NaN";
    }
}

static const char *specials_meaning(const struct ga_format *f)
{
    switch (f->specials) {
    case GA_SPECIALS_IEEE: return "NaN gives NaN, +inf gives +inf, -inf gives -0";
    case GA_SPECIALS_NAN_ONLY: return "the NaN encodings give NaN; the format has no infinities";
    default: return "none, every encoding is a finite number";
    }
}

void ga_truth_convention_text(const struct ga_format *f, char *buf, size_t size)
{
    enum ga_overflow o = ga_default_overflow(f);

    if (!ga_is_small_format(f)) {
        buf[0] = '\0';
        return;
    }
    /* |gelu(x)| <= |x| for every finite x: a result never exceeds the input's
     * magnitude, so no encoding of f overflows (doc/commands.md, "The small formats"). */
    snprintf(buf, size, "The truth is rounded to nearest, ties to even, with overflow "
             "convention %s (gelu-acc truth --overflow %s): %s. Special inputs: %s. "
             "GELU of a finite input never exceeds it in magnitude, so no result overflows "
             "and every convention gives the same truth on these inputs.",
             ga_overflow_name(o), ga_overflow_name(o), overflow_meaning(o),
             specials_meaning(f));
}
