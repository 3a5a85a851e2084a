/* Numbers: the grammar of parse_value.h checked here, character by
 * character; then MPFR, which reads the checked text in base 10 or 16
 * rounded to odd at 64 bits (towards zero, then the last bit set when
 * inexact).  A round-to-odd value at >= p + 2 bits rounds to nearest at p
 * bits exactly as the string itself would (Boldo and Melquiond 2008; doc/formats.md,
 * 'Round to odd'), so no double rounding creeps in. */
#include "formats/parse_value.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <mpfr.h>

#include "formats/round_mpfr.h"

static bool is_digit(char c, bool hex)
{
    return (c >= '0' && c <= '9')
        || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

/* Skip digits; returns how many. */
static size_t skip_digits(const char *text, size_t *at, bool hex)
{
    size_t start = *at;

    while (is_digit(text[*at], hex))
        (*at)++;
    return *at - start;
}

/* The whole of text from *at is one of the words (case-insensitive). */
static bool is_word(const char *text, size_t at)
{
    static const char *const words[] = { "inf", "infinity", "nan" };

    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcasecmp(text + at, words[i]) == 0)
            return true;
    return false;
}

/* A decimal or hex-float from *at to the end of text; sets *hex and
 * *exp_at (where the exponent's sign or digits start; 0: none).  Returns 0,
 * or -1 with *at on the first character that breaks the grammar. */
static int check_digits(const char *text, size_t *at, bool *hex, size_t *exp_at)
{
    size_t whole, fraction = 0;

    *hex = text[*at] == '0' && (text[*at + 1] == 'x' || text[*at + 1] == 'X');
    if (*hex)
        *at += 2;
    whole = skip_digits(text, at, *hex);
    if (text[*at] == '.') {
        (*at)++;
        fraction = skip_digits(text, at, *hex);
    }
    if (whole + fraction == 0)
        return -1;
    if (text[*at] == (*hex ? 'p' : 'e') || text[*at] == (*hex ? 'P' : 'E')) {
        (*at)++;
        *exp_at = *at;
        if (text[*at] == '+' || text[*at] == '-')
            (*at)++;
        if (skip_digits(text, at, false) == 0)
            return -1;
    }
    return text[*at] == '\0' ? 0 : -1;
}

/* 0 and the base (10 or 16; 0 for the words inf and nan) and where the
 * exponent starts (0: none), or -1 with *bad_at. */
static int syntax(const char *text, size_t *bad_at, int *base, size_t *exp_at)
{
    size_t at = 0;
    bool hex;

    *exp_at = 0;
    if (text[at] == '+' || text[at] == '-')
        at++;
    if (is_word(text, at)) {
        *base = 0;
        return 0;
    }
    if (check_digits(text, &at, &hex, exp_at) != 0) {
        if (bad_at)
            *bad_at = at;
        return -1;
    }
    *base = hex ? 16 : 10;
    return 0;
}

int ga_number_syntax(const char *text, size_t *bad_at)
{
    int base;
    size_t exp_at;

    return syntax(text, bad_at, &base, &exp_at);
}

/* Read checked text into v (initialized) with rounding rnd; MPFR's ternary,
 * or 2 when MPFR stops early or memory runs out.  An exponent beyond
 * +-10^15 is read as +-10^15: MPFR adds the count of digits to an exponent
 * it read with strtol, which wraps around at the long range (".1e-99...9"
 * came out as +inf); the value is 0 or overflows either way. */
static int read_checked(mpfr_t v, const char *text, int base, size_t exp_at, mpfr_rnd_t rnd)
{
    static const char clamped[] = "1000000000000000";
    char *copy = NULL, *end;
    int inexact;

    if (exp_at) {
        size_t sign = text[exp_at] == '+' || text[exp_at] == '-';
        size_t digits = exp_at + sign;
        while (text[digits] == '0' && text[digits + 1] != '\0')
            digits++;
        if (strlen(text + digits) > sizeof clamped - 1
            || (strlen(text + digits) == sizeof clamped - 1 && strcmp(text + digits, clamped) > 0)) {
            if (!(copy = malloc(digits + sizeof clamped)))
                return 2;
            memcpy(copy, text, digits);
            memcpy(copy + digits, clamped, sizeof clamped);
            text = copy;
        }
    }
    inexact = mpfr_strtofr(v, text, &end, base, rnd);
    /* the grammar is a subset of MPFR's: it reads everything */
    if (*end != '\0')
        inexact = 2;
    free(copy);
    return inexact;
}

int ga_parse_value_overflow(const struct ga_format *f, const char *text, enum ga_overflow o,
                            ga_bits *out)
{
    mpfr_t v;
    int base, inexact;
    size_t exp_at;

    if (syntax(text, NULL, &base, &exp_at) != 0)
        return -1;
    mpfr_init2(v, 64);
    inexact = read_checked(v, text, base ? base : 10, exp_at, MPFR_RNDZ);
    if (inexact == 2) {
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
    if (mpfr_nan_p(v) && !ga_has_nan(f)) {
        mpfr_clear(v);
        return -2;
    }
    *out = mpfr_nan_p(v) ? ga_quiet_nan(f) : ga_round_mpfr_overflow(f, v, o);
    mpfr_clear(v);
    return 0;
}

int ga_parse_value(const struct ga_format *f, const char *text, ga_bits *out)
{
    return ga_parse_value_overflow(f, text, ga_default_overflow(f), out);
}

int ga_parse_real(const char *text, double *out)
{
    mpfr_t v;
    int base, status = 0;
    size_t exp_at;

    if (syntax(text, NULL, &base, &exp_at) != 0 || base == 0)
        return -1;
    mpfr_init2(v, 53);
    if (read_checked(v, text, base, exp_at, MPFR_RNDN) == 2) {
        mpfr_clear(v);
        return -1;
    }
    *out = mpfr_get_d(v, MPFR_RNDN);
    if (isinf(*out))
        status = -2;
    mpfr_clear(v);
    return status;
}
