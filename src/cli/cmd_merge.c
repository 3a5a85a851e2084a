/* gelu-acc merge: the shards of a sweep (sweep --shard K/N --partial FILE)
 * merged into what one sweep prints, byte for byte. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/measure.h"
#include "io/bytes.h"
#include "state/backward_sweep_file.h"
#include "state/partial_run.h"

static const char help[] =
    "usage: gelu-acc merge [--json | --csv] PARTIAL...\n"
    "       gelu-acc merge --out DIR [--force] REPORT-PARTIAL...\n"
    "\n"
    "Merges the partial files that 'gelu-acc sweep --shard K/N --partial FILE'\n"
    "(or 'sweep --backward --shard K/N --partial FILE') wrote for K = 1 .. N,\n"
    "and prints what the sweep of the whole domain prints (text, --json or\n"
    "--csv; a backward sweep: text or --json), byte for byte.  Every shard\n"
    "must be given once, and every file must come from the same program\n"
    "version, format, kernel,\n"
    "reference, oracle, domain and options; a missing or repeated shard, or a\n"
    "file of another sweep, is refused with the file and the field named.\n"
    "A file: domain is read again (from the same path) for the failing inputs.\n"
    "With --out, merges the files of 'gelu-acc report --shard K/N --partial FILE'\n"
    "and writes into DIR the pages, tables and plots one report writes, byte for\n"
    "byte (--force as for report); merge where the same real libraries run.\n"
    "File format: doc/partial-format.md.\n"
    "Exit status: 0 merged, 1 the kernel failed in some shard, 2 usage or input\n"
    "error.\n";

/* The domain of the merged sweep, as the sweep saw it. */
static int open_domain(const struct ga_partial *all, struct ga_domain *d)
{
    char message[512];

    if (ga_domain_parse(d, all->id.domain, all->format, message, sizeof message) != 0) {
        ga_cli_error("merge: %s", message);
        return -1;
    }
    if (d->size != all->id.domain_size
        || ga_partial_domain_digest(d) != all->id.domain_digest) {
        ga_cli_error("merge: domain '%s' is not what the shards measured (%" PRIu64 " inputs "
                     "then, %" PRIu64 " now%s)", all->id.domain, all->id.domain_size, d->size,
                     d->size == all->id.domain_size ? ", other encodings" : "");
        ga_domain_free(d);
        return -1;
    }
    return 0;
}

/* Whether the file at path starts as a backward sweep's partial file (an
 * unreadable one is left to the reader of sweep partials to report). */
static bool is_backward(const char *path)
{
    unsigned char head[GA_FRAME_MAGIC_LEN];
    FILE *in = fopen(path, "rb");
    size_t got = in ? fread(head, 1, sizeof head, in) : 0;

    if (in)
        fclose(in);
    return ga_backward_sweep_file_is(head, got);
}

int ga_cmd_merge(int argc, char **argv)
{
    static const struct option options[] = {
        { "json", no_argument, NULL, 'j' },
        { "csv", no_argument, NULL, 'c' },
        { "out", required_argument, NULL, 'o' },
        { "force", no_argument, NULL, 'F' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    enum ga_cli_form form = GA_CLI_TEXT;
    struct ga_partial *all = NULL;
    struct ga_domain d;
    const char *dir = NULL;
    char why[GA_RUN_WHY];
    bool force = false;
    int opt, status = GA_EXIT_USAGE;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("merge", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'j':
        case 'c':
            if (ga_cli_choose_form("merge", opt, &form) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'o': dir = optarg; break;
        case 'F': force = true; break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("merge: see 'gelu-acc merge --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        ga_cli_error("merge: give the partial files of every shard (see 'gelu-acc merge --help')");
        return GA_EXIT_USAGE;
    }
    if (dir && form != GA_CLI_TEXT) {
        ga_cli_error("merge: --out writes a report's pages: --json and --csv do not apply");
        return GA_EXIT_USAGE;
    }
    if (dir)
        return ga_cli_report_merge(argv + optind, (size_t)(argc - optind), dir, force);
    if (force) {
        ga_cli_error("merge: --force goes with --out DIR");
        return GA_EXIT_USAGE;
    }
    if (is_backward(argv[optind])) {
        if (form == GA_CLI_CSV) {
            ga_cli_error("merge: a backward sweep prints text or --json");
            return GA_EXIT_USAGE;
        }
        return ga_cli_backward_merge(argv + optind, (size_t)(argc - optind), form == GA_CLI_JSON);
    }
    if (ga_run_merge_files(&ga_partial_run_kind, argv + optind, (size_t)(argc - optind),
                           (void **)&all, why, sizeof why) != 0) {
        ga_cli_error("merge: %s", why);
        status = strcmp(why, "out of memory") == 0 ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
    } else if (open_domain(all, &d) == 0) {
        status = ga_cli_print_partial("merge", all, &d, form, NULL);
        ga_domain_free(&d);
    }
    ga_partial_free(all);
    return status;
}
