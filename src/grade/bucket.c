#include "grade/bucket.h"

enum ga_bucket ga_bucket_of(const struct ga_error *e)
{
    if (e->flags & (GA_ERR_NAN | GA_ERR_NOT_NAN))
        return GA_BUCKET_NAN;
    if (e->flags & GA_ERR_INF)
        return GA_BUCKET_INF;
    if (e->flags & GA_ERR_FLUSHED)
        return GA_BUCKET_FLUSHED;
    if (e->flags & GA_ERR_ZERO_SIGN)
        return GA_BUCKET_ZERO_SIGN;
    if (e->flags & GA_ERR_CORRECT)
        return GA_BUCKET_CORRECT;
    if (e->flags & GA_ERR_FAITHFUL)
        return GA_BUCKET_FAITHFUL;
    if (e->ulp < 2)
        return GA_BUCKET_BELOW_2;
    if (e->ulp < 4)
        return GA_BUCKET_2_4;
    if (e->ulp < 16)
        return GA_BUCKET_4_16;
    if (e->ulp < 256)
        return GA_BUCKET_16_256;
    return GA_BUCKET_256_UP;   /* an infinity of the wrong sign: ulp error +inf */
}

static const struct {
    const char *label, *key;
} names[GA_BUCKET_COUNT] = {
    [GA_BUCKET_NAN] = { "NaN", "nan" },
    [GA_BUCKET_INF] = { "inf where the truth is finite", "inf" },
    [GA_BUCKET_FLUSHED] = { "flushed to zero", "flushed_to_zero" },
    [GA_BUCKET_ZERO_SIGN] = { "zero of the wrong sign", "wrong_zero_sign" },
    [GA_BUCKET_CORRECT] = { "correctly rounded", "correctly_rounded" },
    [GA_BUCKET_FAITHFUL] = { "faithful, not correctly rounded", "faithful_not_cr" },
    [GA_BUCKET_BELOW_2] = { "not faithful, < 2 ulp", "below_2_ulp" },
    [GA_BUCKET_2_4] = { "[2, 4) ulp", "ulp_2_4" },
    [GA_BUCKET_4_16] = { "[4, 16) ulp", "ulp_4_16" },
    [GA_BUCKET_16_256] = { "[16, 256) ulp", "ulp_16_256" },
    [GA_BUCKET_256_UP] = { ">= 256 ulp", "ulp_256_up" },
};

const char *ga_bucket_label(enum ga_bucket b)
{
    return b < GA_BUCKET_COUNT ? names[b].label : "?";
}

const char *ga_bucket_key(enum ga_bucket b)
{
    return b < GA_BUCKET_COUNT ? names[b].key : "?";
}
