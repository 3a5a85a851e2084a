/* Domains: which inputs a sweep visits, and in what order.
 *
 *   all              every encoding, in encoding order (NaNs included)
 *   range:A:B        every encoding with value in [A, B], in increasing value
 *                    order, -0 before +0 (A and B rounded to the format)
 *   random:N[:SEED]  N encodings drawn uniformly from all 2^bits (SEED 1);
 *                    1 <= N <= 2^32 (what a sweep measures at most), SEED < 2^64
 *   stride:K[:OFF]   encodings OFF, OFF + K, OFF + 2K, ... (every Kth);
 *                    1 <= K <= 2^bits, OFF < K
 *   range:A:B:N      N of those encodings on a fixed stride in value order,
 *                    from A (domain.c); the only range form for a range of
 *                    more than 2^32 encodings (float64)
 *   file:PATH        the encodings listed in a text file, one per line, or
 *                    held in a .npy file (told by its magic bytes)
 *   raw:PATH         the encodings of a raw file: bare little-endian
 *                    elements, ga_storage_bytes each (8 for float64)
 *   D1,D2,...        the inputs of D1, then those of D2, ... (a file: or
 *                    raw: part takes the rest of the spec as its path)
 *
 * all and stride: visit every encoding's range: refused for float64
 * (ga_is_enumerable), whose default is random:1048576.
 * N, SEED, K and OFF are decimal digits only (no sign, space or base prefix);
 * A and B are numbers (formats/parse_value.h).  A spec of GA_DOMAIN_SPEC_LEN
 * characters or more is refused rather than cut.
 *
 * And, from the program only, a source: elements read by index from an
 * array file (the inputs of graded outputs), never held in memory at once.
 *
 * Inputs are generated or read by index, so any thread can produce any chunk
 * and the visit is the same whatever the thread count. */
#ifndef GA_DOMAIN_H
#define GA_DOMAIN_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"

/* The largest random:N, and the longest spec + 1 (a file: path of PATH_MAX). */
#define GA_DOMAIN_MAX_RANDOM ((uint64_t)1 << 32)
#define GA_DOMAIN_SPEC_LEN 4112

enum ga_domain_kind { GA_DOMAIN_ALL, GA_DOMAIN_RANGE, GA_DOMAIN_RANDOM, GA_DOMAIN_STRIDE,
                      GA_DOMAIN_LIST, GA_DOMAIN_SOURCE, GA_DOMAIN_JOIN };

/* Encodings read from elsewhere by index, from any thread at once. */
struct ga_source {
    /* out[i] = element first + i, for i < n: 0, or -1 when reading failed */
    int (*read)(void *ctx, uint64_t first, size_t n, ga_bits *out);
    /* after a failed read: what went wrong, where (NULL before any failure) */
    const char *(*error)(void *ctx);
    void *ctx;
};

struct ga_domain {
    enum ga_domain_kind kind;
    const struct ga_format *format;
    uint64_t size;        /* number of inputs */
    int64_t first_key;    /* range: key of A (see domain.c) */
    uint64_t seed;        /* random */
    uint64_t stride, offset;  /* stride:, and range:A:B:N's stride (1 without N) */
    ga_bits *list;        /* file: owned */
    struct ga_domain *parts;  /* D1,D2,...: owned, part_count of them */
    size_t part_count;
    struct ga_source source;
    char spec[GA_DOMAIN_SPEC_LEN];  /* as given, for reports */
};

/* The default when none is given: all for 16-bit formats; for float32 every
 * 4096th encoding ("stride:4096", 2^20 inputs spread over the whole range);
 * for float64 2^20 random encodings. */
const char *ga_domain_default(const struct ga_format *f);

/* Returns 0, or -1 with a message in err. */
int ga_domain_parse(struct ga_domain *d, const char *spec, const struct ga_format *f,
                    char *err, size_t errlen);
/* The n inputs of a source; the description names it in reports. */
void ga_domain_from_source(struct ga_domain *d, const struct ga_format *f, uint64_t n,
                           struct ga_source source, const char *description);
void ga_domain_free(struct ga_domain *d);

/* out[i] = input number start + i, for i < n (start + n <= size).  0, or -1
 * when a source failed to read (its error() says why). */
int ga_domain_fill(const struct ga_domain *d, uint64_t start, size_t n, ga_bits *out);

/* splitmix64's output function: a counter-based generator, so input i of
 * a random domain needs no state (pair domains draw from it too). */
uint64_t ga_domain_mix(uint64_t z);

#endif
