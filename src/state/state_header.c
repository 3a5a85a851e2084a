/* The header of the sweep's state files (state_header.h). */
#include "state/state_header.h"

#include <string.h>

#include "state/shard.h"
#include "measure/sweep.h"

void ga_header_put_function(struct ga_byte_writer *w, enum ga_function fn)
{
    ga_bytes_put_str(w, ga_function_name(fn));
}

void ga_header_get_function(struct ga_byte_reader *r, char *name, size_t cap,
                            enum ga_function *fn, const char *why)
{
    ga_bytes_get_str(r, name, cap);
    ga_bytes_need(r, ga_function_by_name(name, fn) == 0, why);
}

void ga_header_put_format(struct ga_byte_writer *w, const struct ga_format *f)
{
    ga_bytes_put_str(w, f->name);
}

const struct ga_format *ga_header_get_format(struct ga_byte_reader *r, char *name, size_t cap,
                                             const char *why)
{
    const struct ga_format *f;

    ga_bytes_get_str(r, name, cap);
    ga_bytes_need(r, (f = ga_format_by_name(name)) != NULL, why);
    return f;
}

void ga_header_put_oracle(struct ga_byte_writer *w, enum ga_oracle oracle)
{
    ga_bytes_put_str(w, oracle == GA_ORACLE_MPFR ? "mpfr" : "fast");
}

void ga_header_get_oracle(struct ga_byte_reader *r, char *name, size_t cap,
                          enum ga_oracle *oracle, const char *why)
{
    ga_bytes_get_str(r, name, cap);
    ga_bytes_need(r, strcmp(name, "fast") == 0 || strcmp(name, "mpfr") == 0, why);
    *oracle = strcmp(name, "mpfr") == 0 ? GA_ORACLE_MPFR : GA_ORACLE_FAST;
}

void ga_header_put_domain(struct ga_byte_writer *w, const char *spec, uint64_t size,
                          uint64_t digest)
{
    ga_bytes_put_str(w, spec);
    ga_bytes_put_u64(w, size);
    ga_bytes_put_u64(w, digest);
}

void ga_header_get_domain(struct ga_byte_reader *r, char *spec, uint64_t *size,
                          uint64_t *digest, const char *why)
{
    ga_bytes_get_str(r, spec, GA_DOMAIN_SPEC_LEN);
    *size = ga_bytes_get_u64(r);
    ga_bytes_need(r, *size >= 1 && *size <= GA_SWEEP_MAX_INPUTS, why);
    *digest = ga_bytes_get_u64(r);
}

void ga_header_put_share(struct ga_byte_writer *w, const struct ga_header_share *s,
                         const struct ga_header_share_words *words)
{
    ga_bytes_put_u32(w, s->shard);
    ga_bytes_put_u32(w, s->shards);
    if (words->chunk_size)
        ga_bytes_put_u32(w, GA_SWEEP_CHUNK);
    ga_bytes_put_u64(w, s->first);
    ga_bytes_put_u64(w, s->end);
    ga_bytes_put_u64(w, s->next);
}

/* The chunks are those the shard's definition gives. */
void ga_header_get_share(struct ga_byte_reader *r, uint64_t domain_size,
                         struct ga_header_share *s, const struct ga_header_share_words *words)
{
    uint64_t first = 0, end = 0;

    s->shard = ga_bytes_get_u32(r);
    s->shards = ga_bytes_get_u32(r);
    ga_bytes_need(r, s->shard >= 1 && s->shard <= s->shards && s->shards <= GA_SHARD_MAX,
                  words->shard);
    if (!r->failure)
        ga_shard_chunks(ga_sweep_chunk_count(domain_size), s->shard, s->shards, &first, &end);
    if (words->chunk_size)
        ga_bytes_need(r, ga_bytes_get_u32(r) == GA_SWEEP_CHUNK, words->chunk_size);
    s->first = ga_bytes_get_u64(r);
    s->end = ga_bytes_get_u64(r);
    s->next = ga_bytes_get_u64(r);
    ga_bytes_need(r, s->first == first && s->end == end, words->chunks);
    ga_bytes_need(r, s->first <= s->next && s->next <= s->end, words->next);
}
