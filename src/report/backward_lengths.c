/* The tensor lengths of a backward section's real rows
 * (ga_backward_section_lengths in backward_section.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure/backward_sweep.h"
#include "measure/output_tally.h"
#include "report/backward_section.h"
#include "report/length_note.h"

/* s's length pairs: every x of a 16-bit format (the float32 section's
 * default x: every 65536th) with dy = 1, or the section's pairs where
 * fewer.  Each pair is a call of its own at length 1: every x through each
 * path, without the section's 2^20 random pairs. */
static int length_pairs(struct ga_backward_section *s, char *err, size_t errlen)
{
    const struct ga_format *f = s->format;
    const char *spec = f->bits <= 16 ? "all" : GA_BACKWARD_DOMAIN_32;
    char why[512];

    if (ga_pairs_parse(&s->length_pairs, spec, f, ga_encode(f, 1.0), why, sizeof why) != 0) {
        snprintf(err, errlen, "the backward lengths' pairs %s: %s", spec, why);
        return -1;
    }
    if (s->pairs.size <= s->length_pairs.size) {
        ga_pairs_free(&s->length_pairs);
        if (ga_pairs_parse(&s->length_pairs, s->domain, f, ga_encode(f, 1.0), why, sizeof why)
            != 0) {
            snprintf(err, errlen, "the backward lengths' pairs %s: %s", s->domain, why);
            return -1;
        }
    }
    s->has_length_pairs = true;
    return 0;
}

/* Real row i of s at length, beside the long kernel, over the length pairs;
 * a row of its own appended to s where they differ. */
static int check_length(struct ga_backward_section *s, size_t i, enum ga_real_length length,
                        int threads, const struct ga_grad_value *table, struct ga_length_outcome *o,
                        char *err, size_t errlen)
{
    struct ga_backward_real_row *row = &s->real[i], *added = &s->real[s->n_real];
    struct ga_plugin *at = NULL, *whole = NULL;
    struct gelu_acc_real_info about;
    struct ga_backward_stats stats[2];
    struct ga_output_tally tally = { s->format, 0, 0 };
    struct ga_io_error io;
    int status = 0;

    memset(o, 0, sizeof *o);
    if (s->n_real >= GA_BACKWARD_REAL_MAX) {
        snprintf(o->why, sizeof o->why, "no room for more rows");
        return 0;
    }
    if (ga_real_open_backward_at(row->desc, s->format, length, NULL, &at, &about, &io)
            != GA_IO_OK
        || ga_real_open_backward(row->desc, s->format, NULL, &whole, &about, &io) != GA_IO_OK) {
        snprintf(o->why, sizeof o->why, "%.200s", io.message);
        ga_plugin_close(at);
        return 0;
    }
    struct ga_backward_sweep sweeps[2] = {
        { .name = row->name, .plugin = at, .reference = row->desc->approximates,
          .pairs = &s->length_pairs, .threads = threads, .grad_table = table,
          .observe = ga_output_tally_observe, .observe_ctx = &tally },
        { .name = row->name, .plugin = whole, .reference = row->desc->approximates,
          .pairs = &s->length_pairs, .threads = threads, .grad_table = table },
    };
    if (ga_backward_sweep_rows(sweeps, 2, stats, err, errlen) != 0) {
        status = -1;
    } else if (stats[0].failed_batches || stats[1].failed_batches) {
        snprintf(o->why, sizeof o->why, "a call failed");
    } else if (tally.differ == 0) {
        *o = (struct ga_length_outcome){ .kind = GA_LENGTH_SAME, .inputs = tally.inputs };
    } else {
        *o = (struct ga_length_outcome){ .kind = GA_LENGTH_DIFFERS, .inputs = tally.inputs,
                                          .differ = tally.differ };
        *added = (struct ga_backward_real_row){ .desc = row->desc, .length = length,
                                                .about = row->about, .stats = stats[0] };
        snprintf(added->name, sizeof added->name, "%s%s", row->desc->name,
                 ga_real_length_suffix(length));
        snprintf(o->row, sizeof o->row, "%s", added->name);
        s->n_real++;
    }
    ga_plugin_close(at);
    ga_plugin_close(whole);
    return status;
}

int ga_backward_section_lengths(struct ga_backward_section *s, int threads, char *err,
                                size_t errlen)
{
    const struct ga_format *f = s->format;
    struct ga_grad_value *tables[2] = { NULL, NULL };  /* gelu_grad, gelu_tanh_grad */
    size_t n_long = s->n_real;
    int status = 0;

    if (n_long == 0)
        return 0;
    if (length_pairs(s, err, errlen) != 0)
        return -1;
    /* d(x) of every 16-bit x once per derivative, for all the sweeps */
    for (int k = 0; k < 2 && f->bits <= 16 && status == 0; k++)
        if (!(tables[k] = ga_backward_grad_table(k ? GA_GELU_TANH_GRAD : GA_GELU_GRAD, f))) {
            snprintf(err, errlen, "the derivative was not decided for some %s input, or out "
                     "of memory", f->name);
            status = -1;
        }
    for (size_t i = 0; i < n_long && status == 0; i++) {
        struct ga_length_outcome o[GA_OTHER_LENGTHS];
        const struct ga_grad_value *table = tables[s->real[i].desc->approximates != GA_GELU_GRAD];
        if (!ga_real_has_lengths(s->real[i].desc))
            continue;
        for (size_t l = 0; l < GA_OTHER_LENGTHS && status == 0; l++)
            status = check_length(s, i, ga_other_lengths[l], threads, table, &o[l], err, errlen);
        if (status == 0)
            ga_length_note(s->real[i].lengths, GA_BACKWARD_LENGTHS_NOTE, o, "pairs");
    }
    free(tables[0]);
    free(tables[1]);
    return status;
}
