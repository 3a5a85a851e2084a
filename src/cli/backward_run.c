/* What sweep --backward and grade --backward share: the --reference of a
 * derivative, and running the sweep into its printed result (under mpirun,
 * each rank sweeping its shard of the pairs and rank 0 printing them
 * merged). */
#include "cli/backward_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/ranks.h"
#include "io/bytes.h"
#include "report/backward_print.h"
#include "state/backward_partial.h"
#include "state/backward_sweep_file.h"

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

/* Shard k of n of s's pairs, its one row named (s's kernel against its
 * reference), every chunk counted as measured: NULL when out of memory. */
static struct ga_backward_partial *one_row_shard(const struct ga_backward_sweep *s, uint32_t k,
                                                 uint32_t n)
{
    struct ga_backward_partial *p = ga_backward_partial_new(s->pairs->format, s->pairs->spec,
                                                            s->pairs->size, k, n, 1);

    if (p) {
        snprintf(p->row[0].impl, sizeof p->row[0].impl, "%s", s->name);
        p->row[0].reference = s->reference;
    }
    return p;
}

/* Shard k of n of s's pairs swept (one row, each chunk's sums kept), or
 * NULL with a message. */
static struct ga_backward_partial *sweep_shard(const struct ga_backward_sweep *s, uint32_t k,
                                               uint32_t n, char *err, size_t errlen)
{
    struct ga_backward_partial *p = one_row_shard(s, k, n);

    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (ga_backward_sweep_share(s, 1, p->first, p->end, &p->row[0].stats, p->sums, err,
                                errlen) != 0) {
        ga_backward_partial_free(p);
        return NULL;
    }
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

/* A checkpointed sweep runs whole runs of chunks between saves: from one
 * chunk, doubled while a run takes less than an eighth of the interval, so
 * that saves come on time for slow kernels and cost nothing for fast ones. */
#define RUN_CHUNKS_MAX 1024

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The state to start from: the checkpoint's when there is one (it must be
 * this command's), else nothing measured of shard k of n.  0, or a
 * GA_EXIT_* status after a message. */
static int start_state(const struct ga_backward_sweep *s, const struct ga_backward_sweep_id *id,
                       uint32_t k, uint32_t n, const char *checkpoint,
                       struct ga_backward_sweep_file *file)
{
    static char a[GA_DOMAIN_SPEC_LEN], b[GA_DOMAIN_SPEC_LEN];
    struct ga_io_error io;
    const char *field;

    if (checkpoint && access(checkpoint, F_OK) == 0) {
        if (ga_backward_sweep_file_read(checkpoint, file, &io) != GA_IO_OK) {
            ga_cli_error("sweep: checkpoint: %s", io.message);
            return GA_EXIT_USAGE;
        }
        if ((field = ga_backward_sweep_id_differs(id, &file->id, a, b, sizeof a))) {
            ga_cli_error("sweep: checkpoint %s is of another command: its %s is '%s', not '%s'",
                         checkpoint, field, b, a);
            return GA_EXIT_USAGE;
        }
        if (file->part->shard != k || file->part->shards != n) {
            ga_cli_error("sweep: checkpoint %s is of shard %u/%u, not %u/%u", checkpoint,
                         (unsigned)file->part->shard, (unsigned)file->part->shards,
                         (unsigned)k, (unsigned)n);
            return GA_EXIT_USAGE;
        }
        return GA_EXIT_OK;
    }
    file->id = *id;
    if (!(file->part = one_row_shard(s, k, n))) {
        ga_cli_error("sweep: out of memory");
        return GA_EXIT_INTERNAL;
    }
    file->part->next = file->part->first;
    return GA_EXIT_OK;
}

/* The chunks of file's shard not measured yet, run by run, the state saved
 * to checkpoint (when given) every interval_s seconds and at the end. */
static int sweep_rest(const struct ga_backward_sweep *s, struct ga_backward_sweep_file *file,
                      const char *checkpoint, double interval_s)
{
    struct ga_backward_partial *p = file->part;
    double saved = seconds_now();
    struct ga_io_error io;
    char err[512];

    uint64_t chunks = 1;

    while (p->next < p->end) {
        uint64_t stop = p->end - p->next > chunks ? p->next + chunks : p->end;
        double started = seconds_now();
        struct ga_backward_stats run;
        if (ga_backward_sweep_share(s, 1, p->next, stop, &run, p->sums + (p->next - p->first),
                                    err, sizeof err) != 0) {
            ga_cli_error("sweep: %s", err);
            return GA_EXIT_INTERNAL;
        }
        ga_backward_stats_merge(&p->row[0].stats, &run);  /* runs in chunk order */
        p->next = stop;
        if (chunks < RUN_CHUNKS_MAX && seconds_now() - started < interval_s / 8)
            chunks *= 2;
        if (checkpoint && (p->next == p->end || seconds_now() - saved >= interval_s)) {
            if (ga_backward_sweep_file_write(checkpoint, file, &io) != GA_IO_OK) {
                ga_cli_error("sweep: checkpoint: %s", io.message);
                return GA_EXIT_USAGE;
            }
            saved = seconds_now();
        }
    }
    return GA_EXIT_OK;
}

int ga_cli_backward_shard(const struct ga_backward_sweep *s, const struct ga_backward_sweep_id *id,
                          uint32_t k, uint32_t n, const char *partial, const char *checkpoint,
                          double interval_s, bool json)
{
    struct ga_backward_sweep_file file = { .part = NULL };
    struct ga_backward_partial *merged = NULL;
    struct ga_io_error io;
    const char *why;
    size_t index;
    int status = start_state(s, id, k, n, checkpoint, &file);

    if (status == GA_EXIT_OK)
        status = sweep_rest(s, &file, checkpoint, interval_s);
    if (status == GA_EXIT_OK && partial) {
        if (ga_backward_sweep_file_write(partial, &file, &io) != GA_IO_OK) {
            ga_cli_error("sweep: partial: %s", io.message);
            status = GA_EXIT_USAGE;
        }
    } else if (status == GA_EXIT_OK) {  /* shard 1/1: the sweep's result */
        if (ga_backward_partials_merge(&file.part, 1, &merged, &why, &index) != 0) {
            ga_cli_error("sweep: %s", why);
            status = GA_EXIT_INTERNAL;
        } else if ((json ? ga_backward_print_json : ga_backward_print_text)(
                       stdout, s, &merged->row[0].stats) != 0) {
            ga_cli_error("sweep: writing the results failed");
            status = GA_EXIT_USAGE;
        } else if (merged->row[0].stats.failed_batches > 0) {
            status = GA_EXIT_REGRESSION;
        }
    }
    ga_backward_partial_free(merged);
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
