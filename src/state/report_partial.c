/* The report partial file (report_partial.h): the options, then per format
 * each measurement as a length-prefixed partial file (partial_file.c) and
 * its profile, sparse, then the backward section's shard; an FNV-1a
 * checksum closes it. */
#include "state/report_partial.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/bytes.h"
#include "io/whole_file.h"
#include "state/shard.h"
#include "state/state_header.h"

#define MAGIC "gelu-acc report "  /* 16 bytes, no NUL */
/* 2: the backward options; 3: the backward sections; 4: the float64 domain,
 * sweep partials of version 3, rows graded from --real-outputs files; 5: the
 * machine of each graded section; 6: its manifest's path and lengths */
#define VERSION 6u

int ga_report_partial_add_format(struct ga_report_partial *rp, const struct ga_format *f,
                                 size_t count)
{
    struct ga_report_partial_format *e = &rp->format[rp->nformats];

    if (rp->nformats >= GA_FORMAT_COUNT)
        return -1;
    e->format = f;
    e->count = count;
    e->backward = NULL;
    e->graded = 0;
    e->graded_libraries[0] = e->graded_not_measured[0] = e->graded_machine[0] = '\0';
    e->parts = calloc(count + 1, sizeof *e->parts);
    e->profiles = calloc(count + 1, sizeof *e->profiles);
    rp->nformats++;
    return e->parts && e->profiles ? 0 : -1;
}

void ga_report_partial_free(struct ga_report_partial *rp)
{
    for (size_t i = 0; i < rp->nformats; i++) {
        struct ga_report_partial_format *e = &rp->format[i];
        for (size_t j = 0; j < e->count; j++) {
            if (e->parts)
                ga_partial_free(e->parts[j]);
            if (e->profiles)
                ga_profile_free(e->profiles[j]);
        }
        free(e->parts);
        free(e->profiles);
        ga_backward_partial_free(e->backward);
        e->backward = NULL;
    }
    rp->nformats = 0;
}

bool ga_report_partial_is(const unsigned char *data, size_t size)
{
    return size >= GA_FRAME_MAGIC_LEN && memcmp(data, MAGIC, GA_FRAME_MAGIC_LEN) == 0;
}

/* Why ga_partials_merge refused, in a few words. */
static const char *set_problem(enum ga_partial_set_status status)
{
    switch (status) {
    case GA_PARTIALS_DIFFERENT: return "measured another way";
    case GA_PARTIALS_SHARD_COUNT: return "another number of shards";
    case GA_PARTIALS_INCOMPLETE: return "an unfinished shard";
    case GA_PARTIALS_DUPLICATE: return "a shard given twice";
    case GA_PARTIALS_MISSING: return "shards are missing";
    case GA_PARTIALS_TOO_LARGE: return "a region would count 2^32 inputs";
    default: return "out of memory";
    }
}

/* "shards 2/5, 4/5 are missing (2 of 5)": which shards, not only that. */
static void say_missing(const struct ga_partial_set_problem *p, uint32_t shards, char *buf,
                        size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s ", p->missing_count > 1 ? "shards" : "shard");

    for (size_t i = 0; i < p->missing_count && i < GA_PARTIALS_MISSING_LISTED && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%" PRIu32 "/%" PRIu32, i ? ", " : "",
                                 p->missing[i], shards);
    if (used < len)
        snprintf(buf + used, len - used, "%s %s missing (%zu of %" PRIu32 ")",
                 p->missing_count > GA_PARTIALS_MISSING_LISTED ? ", ..." : "",
                 p->missing_count > 1 ? "are" : "is", p->missing_count, shards);
}

/* Whether b is a shard of the report of a: options and plan. */
static bool same_report(const struct ga_report_partial *a, const struct ga_report_partial *b)
{
    bool same = strcmp(a->program, b->program) == 0 && strcmp(a->formats, b->formats) == 0
                && strcmp(a->float32_domain, b->float32_domain) == 0
                && strcmp(a->real_float32_domain, b->real_float32_domain) == 0
                && strcmp(a->float64_domain, b->float64_domain) == 0
                && a->no_backward == b->no_backward
                && a->oracle == b->oracle && a->nformats == b->nformats;

    for (int k = 0; same && k < 3; k++)
        same = strcmp(a->backward_domain[k], b->backward_domain[k]) == 0;

    for (size_t i = 0; same && i < a->nformats; i++) {
        const struct ga_report_partial_format *x = &a->format[i], *y = &b->format[i];
        same = x->format == y->format && x->count == y->count && x->graded == y->graded
               && strcmp(x->graded_libraries, y->graded_libraries) == 0
               && strcmp(x->graded_not_measured, y->graded_not_measured) == 0
               && strcmp(x->graded_machine, y->graded_machine) == 0;
    }
    return same;
}

/* Measurement j of format i of every part, merged into out's. */
static int merge_one(struct ga_report_partial *parts, size_t n, size_t i, size_t j,
                     struct ga_partial **set, struct ga_report_partial_format *e,
                     struct ga_report_merge_problem *why)
{
    struct ga_partial_set_problem problem;

    for (size_t k = 0; k < n; k++)
        set[k] = parts[k].format[i].parts[j];
    if (ga_partials_merge(set, n, &e->parts[j], &problem) != GA_PARTIALS_OK) {
        why->no_memory = problem.status == GA_PARTIALS_NO_MEMORY;
        why->index = problem.index;
        why->impl = set[problem.index]->id.impl;
        why->format = e->format->name;
        why->what = set_problem(problem.status);
        if ((why->missing = problem.status == GA_PARTIALS_MISSING))
            say_missing(&problem, set[0]->shards, why->detail, sizeof why->detail);
        return -1;
    }
    if (!parts[0].format[i].profiles[j])
        return 0;
    if (!(e->profiles[j] = ga_profile_new(e->format))) {
        why->no_memory = true;
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        if (parts[k].format[i].profiles[j])
            ga_profile_merge(e->profiles[j], parts[k].format[i].profiles[j]);
    return 0;
}

/* The backward sections of format i of every part, merged into out's. */
static int merge_backward(struct ga_report_partial *parts, size_t n, size_t i,
                          struct ga_report_partial_format *e, struct ga_report_merge_problem *why)
{
    struct ga_backward_partial **set = calloc(n, sizeof *set);
    const char *what = "out of memory";
    size_t index = 0;
    int status = -1;

    for (size_t k = 0; set && k < n; k++)
        set[k] = parts[k].format[i].backward;
    for (size_t k = 0; set && k < n && status == -1; k++)
        if (!set[k]) {
            what = "a shard without the backward section";
            index = k;
            status = 1;
        }
    if (set && status == -1)
        status = ga_backward_partials_merge(set, n, &e->backward, &what, &index);
    free(set);
    if (status != 0) {
        *why = (struct ga_report_merge_problem){ .no_memory = strcmp(what, "out of memory") == 0,
                                                 .index = index, .impl = "the backward section",
                                                 .format = e->format->name, .what = what };
        return -1;
    }
    return 0;
}

int ga_report_partials_merge(struct ga_report_partial *parts, size_t n,
                             struct ga_report_partial *out, struct ga_report_merge_problem *why)
{
    struct ga_partial **set = calloc(n, sizeof *set);
    int status = 0;

    *why = (struct ga_report_merge_problem){ .no_memory = true };
    memcpy(out, &parts[0], sizeof *out);
    out->nformats = 0;
    out->shard = out->shards = 1;
    if (!set)
        return -1;
    for (size_t k = 1; k < n; k++)
        if (!same_report(&parts[0], &parts[k])) {
            *why = (struct ga_report_merge_problem){
                .index = k, .what = "not a shard of the same report (another program, formats, "
                "domain, oracle or set of implementations) as" };
            free(set);
            return -1;
        }
    for (size_t i = 0; i < parts[0].nformats && status == 0; i++) {
        size_t count = parts[0].format[i].count;
        if (ga_report_partial_add_format(out, parts[0].format[i].format, count) != 0) {
            status = -1;
            break;
        }
        out->format[i].graded = parts[0].format[i].graded;
        memcpy(out->format[i].graded_libraries, parts[0].format[i].graded_libraries,
               sizeof out->format[i].graded_libraries);
        memcpy(out->format[i].graded_not_measured, parts[0].format[i].graded_not_measured,
               sizeof out->format[i].graded_not_measured);
        memcpy(out->format[i].graded_machine, parts[0].format[i].graded_machine,
               sizeof out->format[i].graded_machine);
        for (size_t j = 0; j < count && status == 0; j++)
            status = merge_one(parts, n, i, j, set, &out->format[i], why);
        if (status == 0 && parts[0].format[i].backward)
            status = merge_backward(parts, n, i, &out->format[i], why);
    }
    free(set);
    return status;
}

/* --- writing --- */

static void put_profile(struct ga_byte_writer *w, const struct ga_profile *p)
{
    uint32_t points = p->point ? (uint32_t)ga_encoding_count(p->format) : 0, n = 0;

    ga_bytes_put_u32(w, points);
    for (uint32_t i = 0; i < points; i++)
        n += !(p->point[i] == -1);  /* visited, NaN included */
    ga_bytes_put_u32(w, n);
    for (uint32_t i = 0; i < points; i++)
        if (!(p->point[i] == -1)) {
            ga_bytes_put_u32(w, i);
            ga_bytes_put_f64(w, p->point[i]);
        }
    n = 0;
    for (int b = 0; b < GA_PROFILE_BINS; b++)
        n += p->bin_count[b] > 0;
    ga_bytes_put_u32(w, n);
    for (uint32_t b = 0; b < GA_PROFILE_BINS; b++)
        if (p->bin_count[b] > 0) {
            ga_bytes_put_u32(w, b);
            ga_bytes_put_f64(w, p->bin_max[b]);
            ga_bytes_put_u64(w, p->bin_count[b]);
            ga_bytes_put_u64(w, (uint64_t)p->bin_sum[b]);
            ga_bytes_put_u64(w, (uint64_t)(p->bin_sum[b] >> 64));
        }
}

enum ga_io_status ga_report_partial_encode(const struct ga_report_partial *rp,
                                           unsigned char **data, size_t *size,
                                           struct ga_io_error *err)
{
    struct ga_byte_writer w = { 0 };
    enum ga_io_status s = GA_IO_OK;

    ga_bytes_put_frame_head(&w, MAGIC, VERSION);
    ga_bytes_put_str(&w, rp->program);
    ga_bytes_put_str(&w, rp->formats);
    ga_bytes_put_str(&w, rp->float32_domain);
    ga_bytes_put_str(&w, rp->real_float32_domain);
    ga_bytes_put_str(&w, rp->float64_domain);
    ga_bytes_put_u8(&w, rp->no_backward);
    for (int k = 0; k < 3; k++)
        ga_bytes_put_str(&w, rp->backward_domain[k]);
    ga_header_put_oracle(&w, rp->oracle);
    ga_bytes_put_u32(&w, rp->shard);
    ga_bytes_put_u32(&w, rp->shards);
    ga_bytes_put_u32(&w, (uint32_t)rp->nformats);
    for (size_t i = 0; i < rp->nformats && s == GA_IO_OK; i++) {
        const struct ga_report_partial_format *e = &rp->format[i];
        ga_header_put_format(&w, e->format);
        ga_bytes_put_u32(&w, (uint32_t)e->count);
        ga_bytes_put_u32(&w, (uint32_t)e->graded);
        ga_bytes_put_str(&w, e->graded_libraries);
        ga_bytes_put_str(&w, e->graded_not_measured);
        ga_bytes_put_str(&w, e->graded_machine);
        for (size_t j = 0; j < e->count && s == GA_IO_OK; j++) {
            unsigned char *part;
            size_t n;
            if ((s = ga_partial_encode(e->parts[j], &part, &n, err)) != GA_IO_OK)
                break;
            ga_bytes_put_u32(&w, (uint32_t)n);
            ga_bytes_put_raw(&w, part, n);
            free(part);
            ga_bytes_put_u8(&w, e->profiles[j] != NULL);
            if (e->profiles[j])
                put_profile(&w, e->profiles[j]);
        }
        ga_bytes_put_u8(&w, e->backward != NULL);
        if (e->backward)
            ga_backward_partial_put(&w, e->backward);
    }
    if (s != GA_IO_OK) {
        ga_bytes_writer_free(&w);
        return s;
    }
    return ga_bytes_close_frame(&w, data, size, err);
}

/* --- reading --- */

static struct ga_profile *get_profile(struct ga_byte_reader *r, const struct ga_format *f)
{
    struct ga_profile *p = ga_profile_new(f);
    uint32_t points, n, at = 0;

    if (!p) {
        ga_bytes_fail(r, "out of memory");
        return NULL;
    }
    points = ga_bytes_get_u32(r);
    ga_bytes_need(r, points == (p->point ? ga_encoding_count(f) : 0), "a profile of another format");
    n = ga_bytes_get_u32(r);
    ga_bytes_need(r, n <= points, "more profile points than encodings");
    for (uint32_t k = 0; k < n && !r->failure; k++) {
        uint32_t i = ga_bytes_get_u32(r);
        ga_bytes_need(r, i < points && (k == 0 || i >= at), "profile points out of order");
        at = i + 1;
        if (!r->failure)
            p->point[i] = ga_bytes_get_f64(r);
    }
    n = ga_bytes_get_u32(r);
    ga_bytes_need(r, n <= GA_PROFILE_BINS, "more profile bins than there are");
    at = 0;
    for (uint32_t k = 0; k < n && !r->failure; k++) {
        uint32_t b = ga_bytes_get_u32(r);
        uint64_t lo, hi;
        ga_bytes_need(r, b < GA_PROFILE_BINS && (k == 0 || b >= at), "profile bins out of order");
        at = b + 1;
        if (r->failure)
            break;
        p->bin_max[b] = ga_bytes_get_f64(r);
        p->bin_count[b] = ga_bytes_get_u64(r);
        ga_bytes_need(r, p->bin_count[b] > 0, "an empty profile bin");
        lo = ga_bytes_get_u64(r);
        hi = ga_bytes_get_u64(r);
        p->bin_sum[b] = (unsigned __int128)hi << 64 | lo;
    }
    return p;
}

enum ga_io_status ga_report_partial_decode(const unsigned char *data, size_t size,
                                           struct ga_report_partial *rp,
                                           struct ga_io_error *err)
{
    struct ga_byte_reader r;
    char name[64];
    uint32_t nformats;
    uint8_t flag;
    enum ga_io_status s;

    memset(rp, 0, sizeof *rp);
    if ((s = ga_bytes_open_frame(data, size, MAGIC, VERSION, "report partial file", &r, err))
        != GA_IO_OK)
        return s;
    ga_bytes_get_str(&r, rp->program, sizeof rp->program);
    ga_bytes_get_str(&r, rp->formats, sizeof rp->formats);
    ga_bytes_get_str(&r, rp->float32_domain, sizeof rp->float32_domain);
    ga_bytes_get_str(&r, rp->real_float32_domain, sizeof rp->real_float32_domain);
    ga_bytes_get_str(&r, rp->float64_domain, sizeof rp->float64_domain);
    flag = ga_bytes_get_u8(&r);
    ga_bytes_need(&r, flag <= 1, "a backward flag other than 0 and 1");
    rp->no_backward = flag == 1;
    for (int k = 0; k < 3; k++)
        ga_bytes_get_str(&r, rp->backward_domain[k], sizeof rp->backward_domain[k]);
    ga_header_get_oracle(&r, name, sizeof name, &rp->oracle, "an unknown oracle");
    rp->shard = ga_bytes_get_u32(&r);
    rp->shards = ga_bytes_get_u32(&r);
    ga_bytes_need(&r, rp->shard >= 1 && rp->shard <= rp->shards && rp->shards <= GA_SHARD_MAX,
                  "a shard outside 1 <= K <= N <= 2^20");
    nformats = ga_bytes_get_u32(&r);
    ga_bytes_need(&r, nformats >= 1 && nformats <= GA_FORMAT_COUNT, "a format count out of range");
    for (uint32_t i = 0; i < nformats && !r.failure; i++) {
        const struct ga_format *f = ga_header_get_format(&r, name, sizeof name,
                                                         "an unknown format");
        uint32_t count = ga_bytes_get_u32(&r), graded = ga_bytes_get_u32(&r);
        ga_bytes_need(&r, count <= 4096, "a measurement count out of range");
        ga_bytes_need(&r, graded <= count, "more rows graded from files than measurements");
        if (r.failure || ga_report_partial_add_format(rp, f, count) != 0) {
            ga_bytes_need(&r, false, "out of memory");
            break;
        }
        rp->format[i].graded = graded;
        ga_bytes_get_str(&r, rp->format[i].graded_libraries,
                         sizeof rp->format[i].graded_libraries);
        ga_bytes_get_str(&r, rp->format[i].graded_not_measured,
                         sizeof rp->format[i].graded_not_measured);
        ga_bytes_get_str(&r, rp->format[i].graded_machine, sizeof rp->format[i].graded_machine);
        for (uint32_t j = 0; j < count && !r.failure; j++) {
            struct ga_report_partial_format *e = &rp->format[i];
            struct ga_io_error why;
            uint32_t n = ga_bytes_get_u32(&r);
            ga_bytes_need(&r, n <= r.size - r.at, "a measurement longer than the file");
            if (r.failure)
                break;
            if (ga_partial_decode(r.data + r.at, n, &e->parts[j], &why) != GA_IO_OK) {
                ga_bytes_need(&r, false, "a measurement that is not a partial file");
                break;
            }
            ga_bytes_need(&r, e->parts[j]->format == f && e->parts[j]->shard == rp->shard
                 && e->parts[j]->shards == rp->shards, "a measurement of another shard");
            r.at += n;
            if (ga_bytes_get_u8(&r) && !r.failure)
                e->profiles[j] = get_profile(&r, f);
        }
        if (!r.failure && ga_bytes_get_u8(&r) && !r.failure) {
            struct ga_backward_partial *b = ga_backward_partial_get(&r, f);
            rp->format[i].backward = b;
            ga_bytes_need(&r, !b || (b->shard == rp->shard && b->shards == rp->shards),
                          "a backward section of another shard");
        }
    }
    return ga_bytes_close_body(&r, "bytes follow the measurements", err);
}
