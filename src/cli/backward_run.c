/* What sweep --backward and grade --backward share: the --reference of a
 * derivative, and running the sweep into its printed result (under mpirun,
 * each rank sweeping its shard of the pairs and rank 0 printing them
 * merged). */
#include "cli/backward_run.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/ranks.h"
#include "io/bytes.h"
#include "report/backward_print.h"
#include "sweep/backward_partial.h"
#include "sweep/backward_sweep_file.h"

int ga_cli_derivative(const char *cmd, const char *name, enum ga_function *fn)
{
    if (ga_oracle_function_by_name(name, fn) == 0 && !ga_function_is_forward(*fn))
        return 0;
    ga_cli_error("%s: --reference of --backward is gelu_grad or gelu_tanh_grad, not '%s'",
                 cmd, name);
    return -1;
}

/* Rank 0: every rank's shard (bytes of ga_backward_partial_put) merged into
 * *st.  0, or -1 with a message. */
static int merge_ranks(const struct ga_format *f, unsigned char **all, const size_t *sizes,
                       struct ga_backward_stats *st, char *err, size_t errlen)
{
    unsigned ranks = ga_ranks_count(), got = 0;
    struct ga_backward_partial **parts = calloc(ranks, sizeof *parts), *merged = NULL;
    const char *why = "out of memory";
    size_t index = 0;
    int status = -1;

    for (; parts && got < ranks; got++) {
        struct ga_byte_reader r = { .data = all[got], .size = sizes[got] };
        if (!(parts[got] = ga_backward_partial_get(&r, f)) || r.at != r.size) {
            why = r.failure ? r.failure : "bytes after its shard";
            index = got++;
            break;
        }
    }
    if (parts && got == ranks && ga_backward_partials_merge(parts, ranks, &merged, &why, &index) == 0) {
        *st = merged->row[0].stats;
        status = 0;
    }
    if (status != 0)
        snprintf(err, errlen, "the shard of rank %zu: %s", index, why);
    for (unsigned k = 0; parts && k < got; k++)
        ga_backward_partial_free(parts[k]);
    ga_backward_partial_free(merged);
    free(parts);
    return status;
}

/* Shard k of n of s's pairs swept (one row, each chunk's sums kept), or
 * NULL with a message. */
static struct ga_backward_partial *sweep_shard(const struct ga_backward_sweep *s, uint32_t k,
                                               uint32_t n, char *err, size_t errlen)
{
    struct ga_backward_partial *p = ga_backward_partial_new(s->pairs->format, s->pairs->spec,
                                                            s->pairs->size, k, n, 1);

    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (ga_backward_sweep_share(s, 1, p->first, p->end, &p->row[0].stats, p->sums, err,
                                errlen) != 0) {
        ga_backward_partial_free(p);
        return NULL;
    }
    snprintf(p->row[0].impl, sizeof p->row[0].impl, "%s", s->name);
    p->row[0].reference = s->reference;
    return p;
}

/* Under mpirun: this rank's shard of s's pairs, handed to rank 0, which
 * merges every rank's into *st (the bits of one process).  0, or -1 with a
 * message. */
static int sweep_ranks(const struct ga_backward_sweep *s, struct ga_backward_stats *st, char *err,
                       size_t errlen)
{
    struct ga_backward_partial *mine = sweep_shard(s, ga_ranks_rank() + 1, ga_ranks_count(), err,
                                                   errlen);
    struct ga_byte_writer w = { 0 };
    unsigned char **all = NULL;
    size_t *sizes = NULL;
    int status;

    if (!mine)
        return -1;
    ga_backward_partial_put(&w, mine);
    ga_backward_partial_free(mine);
    if (w.failed || ga_ranks_gather(w.data, w.size, &all, &sizes) != 0) {
        ga_bytes_writer_free(&w);
        snprintf(err, errlen, "out of memory, or a shard too large to send");
        return -1;
    }
    ga_bytes_writer_free(&w);
    status = ga_ranks_rank() == 0 ? merge_ranks(s->pairs->format, all, sizes, st, err, errlen)
                                  : 0;
    ga_ranks_gather_free(all, sizes);
    return status;
}

int ga_cli_backward_save(const struct ga_backward_sweep *s, const struct ga_backward_sweep_id *id,
                         uint32_t k, uint32_t n, const char *path)
{
    struct ga_backward_sweep_file file = { .id = *id };
    struct ga_io_error io;
    char err[512];
    int status = GA_EXIT_OK;

    if (!(file.part = sweep_shard(s, k, n, err, sizeof err))) {
        ga_cli_error("sweep: %s", err);
        return GA_EXIT_INTERNAL;
    }
    if (ga_backward_sweep_file_write(path, &file, &io) != GA_IO_OK) {
        ga_cli_error("sweep: partial: %s", io.message);
        status = GA_EXIT_USAGE;
    }
    ga_backward_sweep_file_free(&file);
    return status;
}

int ga_cli_backward_run(const char *cmd, const struct ga_backward_sweep *s, bool json,
                        const char *(*read_error)(const void *ctx), const void *ctx)
{
    struct ga_backward_stats st;
    char err[512];
    int failed = ga_ranks_count() > 1 ? sweep_ranks(s, &st, err, sizeof err)
                                      : ga_backward_sweep_run(s, &st, err, sizeof err);

    if (failed) {
        const char *why = read_error ? read_error(ctx) : NULL;
        ga_cli_error("%s: %s", cmd, why ? why : err);
        return why ? GA_EXIT_USAGE : GA_EXIT_INTERNAL;
    }
    if (ga_ranks_rank() != 0)
        return GA_EXIT_OK;  /* rank 0 prints, and says whether a batch failed */
    if ((json ? ga_backward_print_json : ga_backward_print_text)(stdout, s, &st) != 0) {
        ga_cli_error("%s: writing the results failed", cmd);
        return GA_EXIT_USAGE;
    }
    return st.failed_batches > 0 ? GA_EXIT_REGRESSION : GA_EXIT_OK;
}
