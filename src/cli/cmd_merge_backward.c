/* gelu-acc merge of backward partial files ('sweep --backward --shard K/N
 * --partial FILE'): the shards of one backward sweep merged into what the
 * sweep prints, byte for byte. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure.h"
#include "state/backward_sweep_file.h"
#include "state/partial.h"
#include "state/run.h"

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

int ga_cli_backward_merge(char *const *names, size_t n, bool json)
{
    struct ga_backward_sweep_file *merged;
    struct ga_pairs pairs;
    char why[GA_RUN_WHY];
    int status = GA_EXIT_USAGE;

    if (ga_run_merge_files(&ga_backward_sweep_run_kind, names, n, (void **)&merged, why,
                           sizeof why) != 0) {
        ga_cli_error("merge: %s", why);
        status = strcmp(why, "out of memory") == 0 ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
    } else if (open_pairs(&merged->id, merged->part->format, &pairs) == 0) {
        struct ga_backward_sweep s = { .name = merged->id.kernel,
                                       .reference = merged->id.reference, .pairs = &pairs };
        status = ga_cli_print_backward_stats("merge", &s, &merged->part->row[0].stats, json,
                                             NULL);
        ga_pairs_free(&pairs);
    }
    ga_backward_sweep_run_kind.free(merged);
    return status;
}
