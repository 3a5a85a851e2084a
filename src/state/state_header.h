/* The header the sweep's state files share: the partial file
 * (partial_file.c), the audit state file (audit_file.c) and the report
 * partial file (report_partial.c) open with the frame's magic and version
 * (io/bytes.h), then identity fields and the share of the domain.  Each file
 * holds some of these fields, in its own order; here each is written and
 * checked one way.  A file refuses a field in its own words (its tests and
 * users know them), so every check takes them.  Names are read into the
 * caller's buffer, whose size decides which are refused as too long. */
#ifndef GA_STATE_HEADER_H
#define GA_STATE_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "formats/format.h"
#include "io/bytes.h"
#include "domain/domain.h"
#include "truth/function.h"
#include "truth/truth.h"

/* A function by name (ga_function_by_name: the forward ones). */
void ga_header_put_function(struct ga_byte_writer *w, enum ga_function fn);
void ga_header_get_function(struct ga_byte_reader *r, char *name, size_t cap,
                            enum ga_function *fn, const char *why);

/* A format by name; NULL when refused. */
void ga_header_put_format(struct ga_byte_writer *w, const struct ga_format *f);
const struct ga_format *ga_header_get_format(struct ga_byte_reader *r, char *name, size_t cap,
                                             const char *why);

/* An oracle: "fast" or "mpfr". */
void ga_header_put_oracle(struct ga_byte_writer *w, enum ga_oracle oracle);
void ga_header_get_oracle(struct ga_byte_reader *r, char *name, size_t cap,
                          enum ga_oracle *oracle, const char *why);

/* A domain: its spec into spec[GA_DOMAIN_SPEC_LEN], its size (refused with
 * `why` unless 1 to 2^32 inputs) and its digest. */
void ga_header_put_domain(struct ga_byte_writer *w, const char *spec, uint64_t size,
                          uint64_t digest);
void ga_header_get_domain(struct ga_byte_reader *r, char *spec, uint64_t *size,
                          uint64_t *digest, const char *why);

/* A share of a domain of chunks (sweep.h): shard K of N (shard.h), the
 * chunk size where the file holds it, and chunks [first, end) of which
 * [first, next) are done. */
struct ga_header_share {
    uint32_t shard, shards;
    uint64_t first, end, next;
};
/* A file's words for a refused share. */
struct ga_header_share_words {
    const char *shard;       /* K/N is not 1 <= K <= N <= GA_SHARD_MAX */
    const char *chunk_size;  /* not GA_SWEEP_CHUNK; NULL: the file does not hold it */
    const char *chunks;      /* [first, end) are not shard K of N's chunks */
    const char *next;        /* next lies outside [first, end] */
};
void ga_header_put_share(struct ga_byte_writer *w, const struct ga_header_share *s,
                         const struct ga_header_share_words *words);
/* The share of a domain of domain_size inputs. */
void ga_header_get_share(struct ga_byte_reader *r, uint64_t domain_size,
                         struct ga_header_share *s, const struct ga_header_share_words *words);

#endif
