/* What is done with a measurement once a sweep has filled it: merged with
 * another's chunks, summarised, cleared; and the failing spans it keeps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/sweep.h"

void ga_measurement_keep_span(struct ga_measurement *m, uint64_t start, uint64_t first,
                              uint64_t last, const char *what)
{
    size_t at = m->failure_count, kept;

    m->failure_spans++;
    while (at > 0 && m->failures[at - 1].first > first)
        at--;
    if (at == GA_FAILURES_KEPT)
        return;
    kept = m->failure_count < GA_FAILURES_KEPT ? m->failure_count : GA_FAILURES_KEPT - 1;
    memmove(&m->failures[at + 1], &m->failures[at], (kept - at) * sizeof m->failures[0]);
    m->failures[at].start = start;
    m->failures[at].first = first;
    m->failures[at].last = last;
    snprintf(m->failures[at].what, sizeof m->failures[at].what, "%s", what);
    m->failure_count = kept + 1;
}

int ga_measurement_merge(struct ga_measurement *into, const struct ga_measurement *from)
{
    int status;

    /* a run that measured nothing (an empty shard) has no shape yet */
    if (from->shape && !into->shape) {
        if (!(into->shape = malloc(sizeof *into->shape)))
            return GA_SWEEP_NO_MEMORY;
        ga_shape_init(into->shape, from->shape->format, from->shape->reference,
                      from->shape->monotone, from->shape->odd);
    }
    if (from->shape && (into->shape->format != from->shape->format
                        || into->shape->monotone != from->shape->monotone
                        || into->shape->odd != from->shape->odd))
        return GA_SWEEP_BAD_FORMAT;
    status = ga_stats_merge(into->stats, from->stats);
    if (status != GA_STATS_OK)
        return status == GA_STATS_FULL ? GA_SWEEP_TOO_LARGE : GA_SWEEP_BAD_FORMAT;
    if (from->shape)
        ga_shape_merge(into->shape, from->shape);
    into->failed |= from->failed;
    into->failed_inputs += from->failed_inputs;
    into->failed_batches += from->failed_batches;
    into->skipped_inputs += from->skipped_inputs;
    /* the spans beyond from's kept ones lie after them: they count, and
     * would be dropped here too */
    into->failure_spans += from->failure_spans - from->failure_count;
    for (size_t i = 0; i < from->failure_count; i++) {
        const struct ga_failure_record *rec = &from->failures[i];
        ga_measurement_keep_span(into, rec->start, rec->first, rec->last, rec->what);
    }
    return GA_SWEEP_OK;
}

void ga_measurement_clear(struct ga_measurement *m)
{
    ga_stats_free(m->stats);
    ga_profile_free(m->profile);
    free(m->shape);
    m->stats = NULL;
    m->profile = NULL;
    m->shape = NULL;
}

int ga_measurement_summary(const struct ga_measurement *m, enum ga_region r,
                           struct ga_summary *out)
{
    return ga_stats_summary(m->stats, m->reference, r, out);
}
