/* The audit state file, version 1 (doc/audit.md): the magic, the version,
 * the identity, the share, the results, and an FNV-1a checksum of every
 * byte before it, little-endian.  The reader checks the checksum and then
 * every field, so that a damaged or forged file is refused by offset. */
#include "audit/audit.h"

#include <string.h>

#include "io/bytes.h"
#include "io/whole_file.h"
#include "state/state_header.h"
#include "measure/sweep.h"

#define MAGIC "gelu-acc audit 1"  /* 16 bytes, no NUL */
#define VERSION 1u
#define MAX_FILE_BYTES ((size_t)1 << 20)

/* No chunk size: the audit's is the sweep's. */
static const struct ga_header_share_words share_words = {
    .shard = "a shard outside 1 <= K <= N <= 2^20",
    .chunks = "chunks that are not those of the shard",
    .next = "chunks that are not those of the shard",
};

enum ga_io_status ga_audit_encode(const struct ga_audit *a, unsigned char **data, size_t *size,
                                  struct ga_io_error *err)
{
    struct ga_byte_writer w = { 0 };

    ga_bytes_put_frame_head(&w, MAGIC, VERSION);
    ga_bytes_put_str(&w, a->program);
    ga_header_put_function(&w, a->fn);
    ga_header_put_format(&w, a->format);
    ga_header_put_domain(&w, a->domain, a->domain_size, a->domain_digest);
    ga_header_put_share(&w, &(struct ga_header_share){ a->shard, a->shards, a->first, a->end,
                                                       a->next }, &share_words);
    ga_bytes_put_u64(&w, a->inputs);
    ga_bytes_put_u64(&w, a->disagreements);
    ga_bytes_put_f64(&w, a->cpu_s);
    ga_bytes_put_u32(&w, a->listed);
    for (uint32_t i = 0; i < a->listed; i++) {
        const struct ga_audit_disagreement *d = &a->list[i];
        ga_bytes_put_u64(&w, d->index);
        ga_bytes_put_u32(&w, d->x);
        ga_bytes_put_u32(&w, d->mpfr);
        ga_bytes_put_u32(&w, d->fast);
        ga_bytes_put_u8(&w, (uint8_t)d->mpfr_dir);
        ga_bytes_put_u8(&w, (uint8_t)d->fast_dir);
        ga_bytes_put_u8(&w, d->kind);
    }
    return ga_bytes_close_frame(&w, data, size, err);
}

static bool dir_ok(int8_t d)
{
    return d >= -1 && d <= 1;
}

static void get_disagreement(struct ga_byte_reader *r, const struct ga_audit *a,
                             struct ga_audit_disagreement *d, uint64_t after)
{
    uint64_t mask = a->format->bits >= 32 ? 0xffffffffu : ((uint64_t)1 << a->format->bits) - 1;

    d->index = ga_bytes_get_u64(r);
    ga_bytes_need(r, d->index < a->domain_size && (d->index >= after || after == 0), "a disagreement "
         "outside the domain or out of order");
    d->x = ga_bytes_get_u32(r);
    d->mpfr = ga_bytes_get_u32(r);
    d->fast = ga_bytes_get_u32(r);
    ga_bytes_need(r, d->x <= mask && d->mpfr <= mask && d->fast <= mask, "an encoding outside the format");
    d->mpfr_dir = (int8_t)ga_bytes_get_u8(r);
    d->fast_dir = (int8_t)ga_bytes_get_u8(r);
    ga_bytes_need(r, dir_ok(d->mpfr_dir) && dir_ok(d->fast_dir), "a direction other than -1, 0, 1");
    d->kind = ga_bytes_get_u8(r);
    ga_bytes_need(r, d->kind <= GA_AUDIT_FAST_UNDECIDED, "an unknown kind of disagreement");
}

enum ga_io_status ga_audit_decode(const unsigned char *data, size_t size, struct ga_audit *a,
                                  struct ga_io_error *err)
{
    struct ga_byte_reader r;
    char name[64];
    struct ga_header_share share;
    enum ga_io_status s;

    memset(a, 0, sizeof *a);
    if ((s = ga_bytes_open_frame(data, size, MAGIC, VERSION, "audit file", &r, err)) != GA_IO_OK)
        return s;
    ga_bytes_get_str(&r, a->program, sizeof a->program);
    ga_header_get_function(&r, name, sizeof name, &a->fn, "an unknown function");
    ga_bytes_need(&r, ga_function_is_forward(a->fn), "an unknown function");
    a->format = ga_header_get_format(&r, name, sizeof name, "an unknown format");
    ga_header_get_domain(&r, a->domain, &a->domain_size, &a->domain_digest,
                         "a domain size outside 1 to 2^32");
    ga_header_get_share(&r, a->domain_size, &share, &share_words);
    a->shard = share.shard;
    a->shards = share.shards;
    a->first = share.first;
    a->end = share.end;
    a->next = share.next;
    a->inputs = ga_bytes_get_u64(&r);
    ga_bytes_need(&r, !r.failure && a->inputs == ga_sweep_chunk_inputs(a->domain_size, a->first, a->next),
         "an input count that is not that of the chunks audited");
    a->disagreements = ga_bytes_get_u64(&r);
    ga_bytes_need(&r, a->disagreements <= a->inputs, "more disagreements than inputs");
    a->cpu_s = ga_bytes_get_f64(&r);
    ga_bytes_need(&r, a->cpu_s >= 0 && a->cpu_s < 1e12, "a CPU time that is not a number of seconds");
    a->listed = ga_bytes_get_u32(&r);
    ga_bytes_need(&r, a->listed <= GA_AUDIT_LISTED && a->listed <= a->disagreements
         && (a->listed == GA_AUDIT_LISTED || a->listed == a->disagreements),
         "a list of disagreements that does not fit their count");
    for (uint32_t i = 0; !r.failure && i < a->listed; i++)
        get_disagreement(&r, a, &a->list[i], i ? a->list[i - 1].index + 1 : 0);
    return ga_bytes_close_body(&r, "bytes follow the disagreements", err);
}

/* The encoding and decoding as ga_whole_file_save and _load call them. */
static enum ga_io_status encode_object(const void *object, unsigned char **data, size_t *size,
                                       struct ga_io_error *err)
{
    return ga_audit_encode(object, data, size, err);
}

static enum ga_io_status decode_object(const unsigned char *data, size_t size, void *object,
                                       struct ga_io_error *err)
{
    return ga_audit_decode(data, size, object, err);
}

enum ga_io_status ga_audit_write(const char *path, const struct ga_audit *a,
                                 struct ga_io_error *err)
{
    return ga_whole_file_save(path, encode_object, a, err);
}

enum ga_io_status ga_audit_read(const char *path, struct ga_audit *a, struct ga_io_error *err)
{
    return ga_whole_file_load(path, MAX_FILE_BYTES, "audit file", decode_object, a, err);
}
