/* The audit state file, version 1 (doc/audit.md): the magic, the version,
 * the identity, the share, the results, and an FNV-1a checksum of every
 * byte before it, little-endian.  The reader checks the checksum and then
 * every field, so that a damaged or forged file is refused by offset. */
#include "audit/audit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bytes.h"
#include "io/whole_file.h"
#include "state/run.h"
#include "state/state_header.h"
#include "measure/sweep.h"

#define MAGIC "gelu-acc audit 1"  /* 16 bytes, no NUL */
#define VERSION 1u

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
    /* any function the oracles compute: the derivatives too */
    ga_bytes_get_str(&r, name, sizeof name);
    ga_bytes_need(&r, ga_oracle_function_by_name(name, &a->fn) == 0, "an unknown function");
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

/* The run protocol's view of an audit state (state/run.h). */
static enum ga_io_status encode(const void *state, unsigned char **data, size_t *size,
                                struct ga_io_error *err)
{
    return ga_audit_encode(state, data, size, err);
}

static enum ga_io_status decode(const unsigned char *data, size_t size, void **state,
                                struct ga_io_error *err)
{
    struct ga_audit *a = malloc(sizeof *a);

    *state = a;
    if (!a)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    return ga_audit_decode(data, size, a, err);
}

static int differs(const void *saved, const void *fresh, char *why, size_t len)
{
    const struct ga_audit *s = saved, *f = fresh;
    int field = ga_audit_differs(s, f);

    if (field >= 0) {
        snprintf(why, len, "it is another audit: its %s differs", ga_audit_field_name(field));
        return 1;
    }
    if (s->shard != f->shard || s->shards != f->shards) {
        snprintf(why, len, "it holds shard %u/%u, this command measures shard %u/%u", s->shard,
                 s->shards, f->shard, f->shards);
        return 1;
    }
    return 0;
}

/* Name the shards none of parts[0..n) is (the first 16 of them). */
static void missing(const struct ga_audit *const *parts, size_t n, char *why, size_t len)
{
    uint32_t first[16];
    char list[16 * 24] = "";
    size_t count = ga_audits_missing(parts, n, first, 16);

    for (size_t i = 0; i < count && i < 16; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%" PRIu32 "/%" PRIu32,
                 i ? ", " : "", first[i], parts[0]->shards);
    snprintf(why, len, "%s %s%s %s missing (%zu of %" PRIu32 ")", count > 1 ? "shards" : "shard",
             list, count > 16 ? ", ..." : "", count > 1 ? "are" : "is", count, parts[0]->shards);
}

static int merge(void *const *parts, const char *const *names, size_t n, void **merged,
                 char *why, size_t len)
{
    const struct ga_audit *const *audits = (const struct ga_audit *const *)parts;
    struct ga_audit *all = malloc(sizeof *all);
    const char *what;
    size_t bad;

    *merged = all;
    if (!all) {
        snprintf(why, len, "out of memory");
        return -1;
    }
    if (ga_audits_merge(audits, n, all, &bad, &what) == 0)
        return 0;
    if (bad < n)
        snprintf(why, len, "%s: %s", names[bad], what);
    else
        missing(audits, n, why, len);
    return -1;
}

const struct ga_run_kind ga_audit_run_kind = {
    .name = "audit file",
    .max_bytes = GA_AUDIT_MAX_FILE_BYTES,
    .encode = encode,
    .decode = decode,
    .free = free,
    .differs = differs,
    .merge = merge,
};
