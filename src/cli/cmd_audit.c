/* gelu-acc audit: the MPFR-only oracle against the fast oracle on every
 * input of a domain (audit/audit.h), in shards, with checkpoints, over the
 * ranks of mpirun; a summary on stdout and a page to publish. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "cli/measure.h"
#include "cli/ranks.h"
#include "io/whole_file.h"
#include "report/audit_page.h"
#include "audit/audit.h"
#include "state/shard.h"

static const char help[] =
    "usage: gelu-acc audit [--function FUNCTION] [--format FORMAT] [--domain D]\n"
    "                      [--threads N] [--out PAGE.md] [--shard K/N --partial FILE]\n"
    "                      [--checkpoint FILE [--checkpoint-interval SECONDS]]\n"
    "       gelu-acc audit --merge [--out PAGE.md] FILE...\n"
    "\n"
    "Audits the oracles: on every input of the domain (default: the format's, as\n"
    "for sweep; --domain all for every encoding), computes the correctly rounded\n"
    "function (gelu, gelu_tanh, gelu_grad or gelu_tanh_grad: default gelu; format\n"
    "default float32) with the MPFR-only oracle\n"
    "and with the fast oracle that every sweep uses, and compares the rounded\n"
    "results and the directions bit for bit.  Prints the inputs audited, the\n"
    "disagreements (the first 64 listed) and the CPU time, and with --out writes\n"
    "them as a Markdown page (for reports/; a file that is not such a page is\n"
    "never replaced).\n"
    "--shard K/N --partial FILE audits shard K of N into a state file, and\n"
    "--merge FILE... merges the N files; --checkpoint FILE saves the state every\n"
    "--checkpoint-interval seconds (default 10) and a rerun resumes from it.\n"
    "Under mpirun (a gelu-acc built with MPI) rank R audits shard R+1 of P and\n"
    "rank 0 prints; --checkpoint FILE keeps FILE.K-of-P per rank.\n"
    "See doc/audit.md.\n"
    "Exit status: 0 no disagreement, 2 usage or input error, 3 a disagreement or\n"
    "an undecided input (please report it).\n";

struct audit_request {
    enum ga_function fn;
    const char *format, *domain, *partial, *checkpoint, *out;
    uint32_t shard, shards;
    double interval_s;
    int threads;
};

static int save_checkpoint(void *ctx, const struct ga_audit *a)
{
    struct ga_io_error err;

    if (ga_audit_write(ctx, a, &err) != GA_IO_OK) {
        ga_cli_error("audit: checkpoint: %s", err.message);
        return -2;
    }
    return 0;
}

/* A checkpoint to resume from, when there is one: refused when it is of
 * another audit or shard.  0, or -1 after a message. */
static int resume(struct ga_audit *a, const char *checkpoint)
{
    struct ga_audit *saved = malloc(sizeof *saved);
    struct ga_io_error err;
    struct stat st;
    int field, status = -1;

    if (!saved) {
        ga_cli_error("audit: out of memory");
        return -1;
    }
    if (stat(checkpoint, &st) != 0 && errno == ENOENT) {
        status = 0;
    } else if (ga_audit_read(checkpoint, saved, &err) != GA_IO_OK) {
        ga_cli_error("audit: checkpoint %s", err.message);
    } else if ((field = ga_audit_differs(saved, a)) >= 0) {
        ga_cli_error("audit: checkpoint %s belongs to another audit: its %s differs (remove "
                     "the file to start afresh)", checkpoint, ga_audit_field_name(field));
    } else if (saved->shard != a->shard || saved->shards != a->shards) {
        ga_cli_error("audit: checkpoint %s holds shard %u/%u, this audit is shard %u/%u "
                     "(remove the file to start afresh)", checkpoint, saved->shard,
                     saved->shards, a->shard, a->shards);
    } else {
        *a = *saved;
        status = 0;
    }
    free(saved);
    return status;
}

/* Name the shards none of parts[0..n) is (the first 16 of them). */
static void report_missing(const struct ga_audit *const *parts, size_t n)
{
    uint32_t first[16];
    char list[16 * 24] = "";
    size_t count = ga_audits_missing(parts, n, first, 16);

    for (size_t i = 0; i < count && i < 16; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%" PRIu32 "/%" PRIu32,
                 i ? ", " : "", first[i], parts[0]->shards);
    ga_cli_error("audit: %s %s%s %s missing (%zu of %" PRIu32 ")",
                 count > 1 ? "shards" : "shard", list, count > 16 ? ", ..." : "",
                 count > 1 ? "are" : "is", count, parts[0]->shards);
}

/* Merge parts[0..n) into *all, naming the file (or shard) that does not fit. */
static int merge(const struct ga_audit *const *parts, size_t n, char *const *names,
                 struct ga_audit *all)
{
    size_t bad;
    const char *why;

    if (ga_audits_merge(parts, n, all, &bad, &why) == 0)
        return 0;
    if (bad < n && names)
        ga_cli_error("audit: %s: %s", names[bad], why);
    else if (bad < n)
        ga_cli_error("audit: the state of rank %zu: %s", bad, why);
    else
        report_missing(parts, n);
    return -1;
}

/* Under mpirun: every rank's state merged into *a on rank 0. */
static int merge_ranks(struct ga_audit *a)
{
    unsigned char *data, **all = NULL;
    size_t size, *sizes = NULL;
    unsigned ranks = ga_ranks_count();
    struct ga_audit *parts = calloc(ranks, sizeof *parts);
    const struct ga_audit **list = calloc(ranks, sizeof *list);
    struct ga_io_error err;
    int status = -1;

    if (!parts || !list || ga_audit_encode(a, &data, &size, &err) != GA_IO_OK) {
        ga_cli_error("audit: out of memory");
    } else {
        status = ga_ranks_gather(data, size, &all, &sizes);
        free(data);
        for (unsigned r = 0; status == 0 && all && r < ranks; r++) {
            if (ga_audit_decode(all[r], sizes[r], &parts[r], &err) != GA_IO_OK) {
                ga_cli_error("audit: the state of rank %u: %s", r, err.message);
                status = -1;
            }
            list[r] = &parts[r];
        }
        if (status == 0 && all)
            status = merge(list, ranks, NULL, a);
        ga_ranks_gather_free(all, sizes);
    }
    free(parts);
    free(list);
    return status;
}

/* A file --out may replace: none there, or a page an audit wrote. */
static int out_replaceable(const char *path)
{
    char line[64] = "";
    FILE *in = fopen(path, "r");

    if (!in)
        return errno == ENOENT ? 0 : -1;
    if (!fgets(line, sizeof line, in))
        line[0] = '\0';
    fclose(in);
    if (strncmp(line, GA_AUDIT_PAGE_TITLE, strlen(GA_AUDIT_PAGE_TITLE)) == 0)
        return 0;
    ga_cli_error("audit: --out %s: the file exists and is not a page of gelu-acc audit: "
                 "it is not replaced", path);
    return -1;
}

/* The summary on stdout, the page in --out; 3 when the oracles disagree. */
static int publish(const struct ga_audit *a, const char *out)
{
    char command[GA_DOMAIN_SPEC_LEN + 128], *text = NULL;
    size_t size = 0;
    struct ga_io_error err;
    FILE *page;

    if (ga_write_audit_text(stdout, a) != 0 || fflush(stdout) != 0) {
        ga_cli_error("audit: cannot write the results to standard output");
        return GA_EXIT_USAGE;
    }
    if (out) {
        snprintf(command, sizeof command, "gelu-acc audit --function %s --format %s --domain %s",
                 ga_function_name(a->fn), a->format->name, a->domain);
        if (!(page = open_memstream(&text, &size))) {
            ga_cli_error("audit: out of memory");
            return GA_EXIT_INTERNAL;
        }
        ga_write_audit_markdown(page, a, command);
        fclose(page);
        if (ga_whole_file_write(out, text, size, true, &err) != GA_IO_OK) {
            ga_cli_error("audit: %s", err.message);
            free(text);
            return GA_EXIT_USAGE;
        }
        free(text);
    }
    if (a->disagreements) {
        ga_cli_error("audit: the oracles disagree on %llu inputs (please report it)",
                     (unsigned long long)a->disagreements);
        return GA_EXIT_INTERNAL;
    }
    return GA_EXIT_OK;
}

/* --merge FILE...: the states of every shard, merged and published. */
static int merge_files(char **names, int n, const char *out)
{
    struct ga_audit *parts = calloc((size_t)n, sizeof *parts), all;
    const struct ga_audit **list = calloc((size_t)n, sizeof *list);
    struct ga_io_error err;
    int status = GA_EXIT_USAGE;

    if (!parts || !list) {
        ga_cli_error("audit: out of memory");
        status = GA_EXIT_INTERNAL;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (ga_audit_read(names[i], &parts[i], &err) != GA_IO_OK) {
            ga_cli_error("audit: %s", err.message);
            goto done;
        }
        list[i] = &parts[i];
    }
    if (merge(list, (size_t)n, names, &all) == 0)
        status = publish(&all, out);
done:
    free(parts);
    free(list);
    return status;
}

/* Audit the share the request names (or this rank's); publish on rank 0, or
 * write the state (--partial). */
static int audit(const struct audit_request *rq)
{
    const struct ga_format *f = ga_cli_format(rq->format);
    struct ga_audit *a = malloc(sizeof *a);
    struct ga_domain d;
    struct ga_io_error err;
    char message[512], *checkpoint = NULL;
    unsigned ranks = ga_ranks_count();
    uint32_t k = ranks > 1 ? ga_ranks_rank() + 1 : rq->shard;
    uint32_t n = ranks > 1 ? ranks : rq->shards;
    int status = GA_EXIT_USAGE;

    if (!f || !a) {
        free(a);
        return f ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
    }
    if (ga_domain_parse(&d, rq->domain ? rq->domain : ga_domain_default(f), f, message,
                        sizeof message) != 0) {
        ga_cli_error("audit: %s", message);
        free(a);
        return GA_EXIT_USAGE;
    }
    if (ga_audit_init(a, PACKAGE_NAME " " PACKAGE_VERSION, rq->fn, &d, k, n) != 0) {
        ga_cli_error("audit: %s has no fast oracle in %s: there is nothing to audit",
                     ga_function_name(rq->fn), f->name);
        goto done;
    }
    if (rq->checkpoint && ranks > 1) {
        size_t len = strlen(rq->checkpoint) + 32;
        if (!(checkpoint = malloc(len)))
            goto done;
        snprintf(checkpoint, len, "%s.%u-of-%u", rq->checkpoint, k, n);
    } else if (rq->checkpoint && !(checkpoint = strdup(rq->checkpoint))) {
        goto done;
    }
    if (checkpoint && resume(a, checkpoint) != 0)
        goto done;
    switch (ga_audit_run(a, &d, rq->threads, checkpoint ? save_checkpoint : NULL, checkpoint,
                         rq->interval_s)) {
    case 0: break;
    case -1:
        ga_cli_error("audit: the domain could not be read (or out of memory)");
        goto done;
    default: goto done;  /* the checkpoint's message is out */
    }
    if (ranks > 1 && merge_ranks(a) != 0)
        goto done;
    if (ga_ranks_rank() != 0) {
        status = GA_EXIT_OK;
    } else if (rq->partial) {
        status = GA_EXIT_OK;
        if (ga_audit_write(rq->partial, a, &err) != GA_IO_OK) {
            ga_cli_error("audit: partial: %s", err.message);
            status = GA_EXIT_USAGE;
        }
    } else {
        status = publish(a, rq->out);
    }
done:
    free(checkpoint);
    ga_domain_free(&d);
    free(a);
    return status;
}

int ga_cmd_audit(int argc, char **argv)
{
    static const struct option options[] = {
        { "function", required_argument, NULL, 'F' },
        { "format", required_argument, NULL, 'f' },
        { "domain", required_argument, NULL, 'd' },
        { "threads", required_argument, NULL, 't' },
        { "out", required_argument, NULL, 'o' },
        { "shard", required_argument, NULL, 'S' },
        { "partial", required_argument, NULL, 'P' },
        { "checkpoint", required_argument, NULL, 'C' },
        { "checkpoint-interval", required_argument, NULL, 'I' },
        { "merge", no_argument, NULL, 'M' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct audit_request rq = { .fn = GA_GELU, .format = "float32", .shard = 1, .shards = 1,
                                .interval_s = 10 };
    bool merging = false, interval = false;
    int opt;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'F':
            if (ga_oracle_function_by_name(optarg, &rq.fn) != 0) {
                ga_cli_error("audit: unknown function '%s' (known: gelu, gelu_tanh, gelu_grad, "
                             "gelu_tanh_grad)", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'f': rq.format = optarg; break;
        case 'd': rq.domain = optarg; break;
        case 't':
            if (ga_cli_threads("audit", optarg, &rq.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'o': rq.out = optarg; break;
        case 'S':
            if (ga_shard_parse(optarg, &rq.shard, &rq.shards) != 0) {
                ga_cli_error("audit: --shard takes K/N with 1 <= K <= N <= %u, not '%s'",
                             GA_SHARD_MAX, optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'P': rq.partial = optarg; break;
        case 'C': rq.checkpoint = optarg; break;
        case 'I':
            if (ga_cli_checkpoint_interval("audit", optarg, &rq.interval_s) != 0)
                return GA_EXIT_USAGE;
            interval = true;
            break;
        case 'M': merging = true; break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("audit: see 'gelu-acc audit --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (rq.out && out_replaceable(rq.out) != 0)
        return GA_EXIT_USAGE;
    if (merging) {
        if (optind >= argc || ga_ranks_count() > 1) {
            ga_cli_error("audit: --merge takes the state files of every shard, in one process");
            return GA_EXIT_USAGE;
        }
        return merge_files(argv + optind, argc - optind, rq.out);
    }
    if (optind < argc) {
        ga_cli_error("audit: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (rq.shards > 1 && !rq.partial) {
        ga_cli_error("audit: --shard needs --partial FILE (then 'gelu-acc audit --merge')");
        return GA_EXIT_USAGE;
    }
    if (ga_ranks_count() > 1 && rq.shards > 1) {
        ga_cli_error("audit: under mpirun the ranks are the shards: --shard cannot be used");
        return GA_EXIT_USAGE;
    }
    if (rq.partial && rq.out) {
        ga_cli_error("audit: --partial writes a state file; give --out to 'audit --merge'");
        return GA_EXIT_USAGE;
    }
    if (interval && !rq.checkpoint) {
        ga_cli_error("audit: --checkpoint-interval needs --checkpoint FILE");
        return GA_EXIT_USAGE;
    }
    return audit(&rq);
}
