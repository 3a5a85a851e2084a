/* gelu-acc merge: the shards of a sweep (sweep --shard K/N --partial FILE)
 * merged into what one sweep prints, byte for byte. */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backward_run.h"
#include "cli/measure.h"
#include "io/bytes.h"
#include "state/partial.h"

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

/* The message for a set of partials that is not one sweep. */
static void explain(const struct ga_partial_set_problem *why, struct ga_partial *const *parts,
                    char *const *names)
{
    const struct ga_partial *p = parts[why->index];

    switch (why->status) {
    case GA_PARTIALS_DIFFERENT: {
        static struct ga_partial_field a[GA_PARTIAL_FIELDS], b[GA_PARTIAL_FIELDS];
        ga_partial_fields(&parts[0]->id, a);
        ga_partial_fields(&p->id, b);
        ga_cli_error("merge: %s: not a shard of the same sweep as %s: its %s is '%s', not '%s'",
                     names[why->index], names[0], a[why->field].name, b[why->field].text,
                     a[why->field].text);
        break;
    }
    case GA_PARTIALS_SHARD_COUNT:
        ga_cli_error("merge: %s: shard %" PRIu32 "/%" PRIu32 " of %" PRIu32 " shards, but %s "
                     "cuts the domain in %" PRIu32, names[why->index], p->shard, p->shards,
                     p->shards, names[0], parts[0]->shards);
        break;
    case GA_PARTIALS_INCOMPLETE:
        ga_cli_error("merge: %s: shard %" PRIu32 "/%" PRIu32 " is unfinished (a checkpoint: "
                     "%" PRIu64 " of its %" PRIu64 " chunks measured); run its sweep again",
                     names[why->index], p->shard, p->shards, p->next - p->first,
                     p->end - p->first);
        break;
    case GA_PARTIALS_DUPLICATE:
        ga_cli_error("merge: shard %" PRIu32 "/%" PRIu32 " is given twice: %s and %s", p->shard,
                     p->shards, names[why->other], names[why->index]);
        break;
    case GA_PARTIALS_MISSING: {
        char list[GA_PARTIALS_MISSING_LISTED * 24] = "";
        for (size_t i = 0; i < why->missing_count && i < GA_PARTIALS_MISSING_LISTED; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%" PRIu32 "/%" PRIu32,
                     i ? ", " : "", why->missing[i], parts[0]->shards);
        ga_cli_error("merge: %s %s%s %s missing (%zu of %" PRIu32 ")",
                     why->missing_count > 1 ? "shards" : "shard", list,
                     why->missing_count > GA_PARTIALS_MISSING_LISTED ? ", ..." : "",
                     why->missing_count > 1 ? "are" : "is", why->missing_count,
                     parts[0]->shards);
        break;
    }
    case GA_PARTIALS_TOO_LARGE:
        ga_cli_error("merge: %s: one region would count 2^32 inputs or more", names[why->index]);
        break;
    default:
        ga_cli_error("merge: out of memory");
        break;
    }
}

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
    struct ga_partial **parts, *all = NULL;
    struct ga_partial_set_problem why;
    struct ga_domain d;
    const char *dir = NULL;
    bool force = false;
    size_t n = 0;
    int opt, status = GA_EXIT_USAGE;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
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
    if (!(parts = calloc((size_t)(argc - optind), sizeof *parts))) {
        ga_cli_error("merge: out of memory");
        return GA_EXIT_INTERNAL;
    }
    for (; optind + (int)n < argc; n++) {
        struct ga_io_error err;
        if (ga_partial_read(argv[optind + (int)n], &parts[n], &err) != GA_IO_OK) {
            ga_cli_error("merge: %s", err.message);
            goto out;
        }
    }
    if (ga_partials_merge(parts, n, &all, &why) != GA_PARTIALS_OK) {
        explain(&why, parts, argv + optind);
        status = why.status == GA_PARTIALS_NO_MEMORY ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
    } else if (open_domain(all, &d) == 0) {
        status = ga_cli_print_partial("merge", all, &d, form);
        ga_domain_free(&d);
    }
out:
    for (size_t i = 0; i < n; i++)
        ga_partial_free(parts[i]);
    free(parts);
    ga_partial_free(all);
    return status;
}
