/* What a real kernel's other tensor lengths gave against its long tensors
 * (real/call_length.h), and the sentence a page's long row says of it:
 * "lengths 1 and 67: the same bits on N inputs", or one clause per length.
 * Shared by the forward rows (engine/report_lengths.c) and the backward
 * ones (backward_lengths.c), which count inputs and pairs. */
#ifndef GA_LENGTH_NOTE_H
#define GA_LENGTH_NOTE_H

#include <stddef.h>
#include <stdint.h>

#include "real/call_length.h"

/* The lengths besides long tensors, in the order the notes name them. */
enum { GA_OTHER_LENGTHS = 2 };
extern const enum ga_real_length ga_other_lengths[GA_OTHER_LENGTHS];

struct ga_length_outcome {
    enum { GA_LENGTH_NOT_RUN, GA_LENGTH_SAME, GA_LENGTH_DIFFERS } kind;
    uint64_t inputs, differ;   /* compared, and whose bits differ */
    char row[96];              /* differs: the row of its own */
    char why[512];             /* not run: why */
};

/* The note of a long row from the outcome of each other length; unit
 * names what was compared ("inputs", "pairs"). */
void ga_length_note(char *note, size_t size, const struct ga_length_outcome o[GA_OTHER_LENGTHS],
                    const char *unit);

#endif
