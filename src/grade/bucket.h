/* The rows of a comparison's distribution (gelu-acc compare): every output
 * falls in exactly one, decided from its ga_error (grade/error.h).  The
 * failures come first, in the order a reader looks for them; the rest are
 * split by correct rounding, faithfulness, then ulp error. */
#ifndef GA_BUCKET_H
#define GA_BUCKET_H

#include "grade/error.h"

enum ga_bucket {
    GA_BUCKET_NAN,        /* NaN where the truth is not, or not NaN where it is */
    GA_BUCKET_INF,        /* +-inf where the correctly rounded result is finite */
    GA_BUCKET_FLUSHED,    /* +-0 where the correctly rounded result is not zero */
    GA_BUCKET_ZERO_SIGN,  /* a zero of the sign opposite to the correctly rounded zero */
    GA_BUCKET_CORRECT,    /* correctly rounded */
    GA_BUCKET_FAITHFUL,   /* faithful, not correctly rounded */
    GA_BUCKET_BELOW_2,    /* not faithful, ulp error < 2 */
    GA_BUCKET_2_4,        /* 2 <= ulp error < 4 */
    GA_BUCKET_4_16,
    GA_BUCKET_16_256,
    GA_BUCKET_256_UP,     /* ulp error >= 256 (an infinity of the wrong sign too) */
    GA_BUCKET_COUNT
};

enum ga_bucket ga_bucket_of(const struct ga_error *e);

/* The row as reports print it ("flushed to zero") and as JSON names it
 * ("flushed_to_zero"). */
const char *ga_bucket_label(enum ga_bucket b);
const char *ga_bucket_key(enum ga_bucket b);

#endif
