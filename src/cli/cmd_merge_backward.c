/* gelu-acc merge of backward partial files ('sweep --backward --shard K/N
 * --partial FILE'): the shards of one backward sweep merged into what the
 * sweep prints, byte for byte. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backward_run.h"
#include "cli/cli.h"
#include "report/backward_print.h"
#include "state/partial.h"

/* The pairs the shards measured, parsed again (a file: x domain read
 * again): 0, or -1 after a message. */
static int open_pairs(const struct ga_backward_sweep_id *id, const struct ga_format *f,
                      struct ga_pairs *pairs)
{
    char message[512];

    if (ga_pairs_parse(pairs, id->domain, f, id->dy, message, sizeof message) != 0) {
        ga_cli_error("merge: %s", message);
        return -1;
    }
    if (pairs->size != id->pairs
        || (pairs->kind == GA_PAIRS_FIXED_DY ? ga_partial_domain_digest(&pairs->x) : 0)
               != id->digest) {
        ga_cli_error("merge: domain '%s' is not what the shards measured (%" PRIu64 " pairs "
                     "then, %" PRIu64 " now%s)", id->domain, id->pairs, pairs->size,
                     pairs->size == id->pairs ? ", other encodings" : "");
        ga_pairs_free(pairs);
        return -1;
    }
    return 0;
}

/* The files names[0..n) read into files[], checked to be one sweep. */
static int read_shards(char *const *names, size_t n, struct ga_backward_sweep_file *files)
{
    static char a[GA_DOMAIN_SPEC_LEN], b[GA_DOMAIN_SPEC_LEN];

    for (size_t i = 0; i < n; i++) {
        struct ga_io_error io;
        const char *field;
        if (ga_backward_sweep_file_read(names[i], &files[i], &io) != GA_IO_OK) {
            ga_cli_error("merge: %s", io.message);
            return -1;
        }
        if (i > 0 && (field = ga_backward_sweep_id_differs(&files[0].id, &files[i].id, a, b,
                                                           sizeof a))) {
            ga_cli_error("merge: %s: not a shard of the same sweep as %s: its %s is '%s', not "
                         "'%s'", names[i], names[0], field, b, a);
            return -1;
        }
    }
    return 0;
}

int ga_cli_backward_merge(char *const *names, size_t n, bool json)
{
    struct ga_backward_sweep_file *files = calloc(n, sizeof *files);
    struct ga_backward_partial **parts = calloc(n, sizeof *parts), *merged = NULL;
    const struct ga_format *f;
    struct ga_pairs pairs;
    const char *why;
    size_t index;
    int status = GA_EXIT_USAGE;

    if (!files || !parts) {
        ga_cli_error("merge: out of memory");
        status = GA_EXIT_INTERNAL;
        goto out;
    }
    if (read_shards(names, n, files) != 0)
        goto out;
    for (size_t i = 0; i < n; i++)
        parts[i] = files[i].part;
    if (ga_backward_partials_merge(parts, n, &merged, &why, &index) != 0) {
        if (strcmp(why, "shards are missing") == 0)
            ga_cli_error("merge: %s: %zu of %" PRIu32 " shards given", why, n, parts[0]->shards);
        else
            ga_cli_error("merge: %s: %s", names[index], why);
        status = strcmp(why, "out of memory") == 0 ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
        goto out;
    }
    f = merged->format;
    if (open_pairs(&files[0].id, f, &pairs) == 0) {
        struct ga_backward_sweep s = { .name = files[0].id.kernel,
                                       .reference = files[0].id.reference, .pairs = &pairs };
        const struct ga_backward_stats *st = &merged->row[0].stats;
        if ((json ? ga_backward_print_json : ga_backward_print_text)(stdout, &s, st) != 0) {
            ga_cli_error("merge: writing the results failed");
            status = GA_EXIT_USAGE;
        } else {
            status = st->failed_batches > 0 ? GA_EXIT_REGRESSION : GA_EXIT_OK;
        }
        ga_pairs_free(&pairs);
    }
out:
    for (size_t i = 0; files && i < n; i++)
        ga_backward_sweep_file_free(&files[i]);
    free(files);
    free(parts);
    ga_backward_partial_free(merged);
    return status;
}
