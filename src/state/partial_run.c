/* A sweep's partial as the run protocol handles it (run.h): its file, how a
 * checkpoint differs from the sweep about to start, and why shards do not
 * merge, in the words the command line prints. */
#include "state/partial_run.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

__attribute__((format(printf, 3, 4)))
static int say(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return 1;
}

static enum ga_io_status encode(const void *state, unsigned char **data, size_t *size,
                                struct ga_io_error *err)
{
    return ga_partial_encode(state, data, size, err);
}

static enum ga_io_status decode(const unsigned char *data, size_t size, void **state,
                                struct ga_io_error *err)
{
    return ga_partial_decode(data, size, (struct ga_partial **)state, err);
}

static void free_state(void *state)
{
    ga_partial_free(state);
}

static int differs(const void *saved, const void *fresh, char *why, size_t len)
{
    /* static: two arrays of 16 fields of GA_DOMAIN_SPEC_LEN bytes each */
    static _Thread_local struct ga_partial_field there[GA_PARTIAL_FIELDS], here[GA_PARTIAL_FIELDS];
    const struct ga_partial *s = saved, *f = fresh;
    int field = ga_partial_identity_differs(&s->id, &f->id);

    if (field >= 0) {
        ga_partial_fields(&s->id, there);
        ga_partial_fields(&f->id, here);
        return say(why, len, "its %s is '%s', this command's '%s'", here[field].name,
                   there[field].text, here[field].text);
    }
    if (s->shard != f->shard || s->shards != f->shards)
        return say(why, len, "it holds shard %u/%u, this command measures shard %u/%u",
                   s->shard, s->shards, f->shard, f->shards);
    return 0;
}

/* The message for a set of partials that is not one sweep. */
static void explain(const struct ga_partial_set_problem *p, struct ga_partial *const *parts,
                    const char *const *names, char *why, size_t len)
{
    static _Thread_local struct ga_partial_field a[GA_PARTIAL_FIELDS], b[GA_PARTIAL_FIELDS];
    const struct ga_partial *q = parts[p->index];
    char list[GA_PARTIALS_MISSING_LISTED * 24] = "";

    switch (p->status) {
    case GA_PARTIALS_DIFFERENT:
        ga_partial_fields(&parts[0]->id, a);
        ga_partial_fields(&q->id, b);
        say(why, len, "%s: not a shard of the same sweep as %s: its %s is '%s', not '%s'",
            names[p->index], names[0], a[p->field].name, b[p->field].text, a[p->field].text);
        break;
    case GA_PARTIALS_SHARD_COUNT:
        say(why, len, "%s: shard %" PRIu32 "/%" PRIu32 " of %" PRIu32 " shards, but %s cuts "
            "the domain in %" PRIu32, names[p->index], q->shard, q->shards, q->shards, names[0],
            parts[0]->shards);
        break;
    case GA_PARTIALS_INCOMPLETE:
        say(why, len, "%s: shard %" PRIu32 "/%" PRIu32 " is unfinished (a checkpoint: %" PRIu64
            " of its %" PRIu64 " chunks measured); run its sweep again", names[p->index],
            q->shard, q->shards, q->next - q->first, q->end - q->first);
        break;
    case GA_PARTIALS_DUPLICATE:
        say(why, len, "shard %" PRIu32 "/%" PRIu32 " is given twice: %s and %s", q->shard,
            q->shards, names[p->other], names[p->index]);
        break;
    case GA_PARTIALS_MISSING:
        for (size_t i = 0; i < p->missing_count && i < GA_PARTIALS_MISSING_LISTED; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%" PRIu32 "/%" PRIu32,
                     i ? ", " : "", p->missing[i], parts[0]->shards);
        say(why, len, "%s %s%s %s missing (%zu of %" PRIu32 ")",
            p->missing_count > 1 ? "shards" : "shard", list,
            p->missing_count > GA_PARTIALS_MISSING_LISTED ? ", ..." : "",
            p->missing_count > 1 ? "are" : "is", p->missing_count, parts[0]->shards);
        break;
    case GA_PARTIALS_TOO_LARGE:
        say(why, len, "%s: one region would count 2^32 inputs or more", names[p->index]);
        break;
    default:
        say(why, len, "out of memory");
        break;
    }
}

static int merge(void *const *parts, const char *const *names, size_t n, void **merged,
                 char *why, size_t len)
{
    struct ga_partial_set_problem problem;

    if (ga_partials_merge((struct ga_partial *const *)parts, n, (struct ga_partial **)merged,
                          &problem) == GA_PARTIALS_OK)
        return 0;
    explain(&problem, (struct ga_partial *const *)parts, names, why, len);
    return -1;
}

const struct ga_run_kind ga_partial_run_kind = {
    .name = "partial file",
    .max_bytes = GA_PARTIAL_MAX_FILE_BYTES,
    .encode = encode,
    .decode = decode,
    .free = free_state,
    .differs = differs,
    .merge = merge,
};
