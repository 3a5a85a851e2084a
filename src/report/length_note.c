/* The note of a long row on its other tensor lengths (length_note.h). */
#include "report/length_note.h"

#include <inttypes.h>
#include <stdio.h>

const enum ga_real_length ga_other_lengths[GA_OTHER_LENGTHS] = { GA_REAL_ONE, GA_REAL_TAIL };

/* "1", "67": the length as the notes write it. */
static const char *length_label(enum ga_real_length length)
{
    return length == GA_REAL_ONE ? "1" : "67";
}

void ga_length_note(char *note, size_t size, const struct ga_length_outcome o[GA_OTHER_LENGTHS],
                    const char *unit)
{
    size_t used = 0;

    note[0] = '\0';
    if (o[0].kind == GA_LENGTH_SAME && o[1].kind == GA_LENGTH_SAME
        && o[0].inputs == o[1].inputs) {
        snprintf(note, size, "lengths 1 and 67: the same bits on %" PRIu64 " %s", o[0].inputs,
                 unit);
        return;
    }
    for (size_t l = 0; l < GA_OTHER_LENGTHS && used < size; l++) {
        const char *sep = l ? "; " : "", *name = length_label(ga_other_lengths[l]);
        int w = o[l].kind == GA_LENGTH_SAME
                    ? snprintf(note + used, size - used, "%slength %s: the same bits on %" PRIu64
                               " %s", sep, name, o[l].inputs, unit)
                : o[l].kind == GA_LENGTH_DIFFERS
                    ? snprintf(note + used, size - used, "%slength %s: %" PRIu64 " of %" PRIu64
                               " %s differ (row %.96s)", sep, name, o[l].differ, o[l].inputs,
                               unit, o[l].row)
                    : snprintf(note + used, size - used, "%slength %s: not compared (%.200s)",
                               sep, name, o[l].why);
        used += w > 0 ? (size_t)w : 0;
    }
}
