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
#include "cli/options.h"
#include "state/ranks.h"
#include "io/whole_file.h"
#include "report/audit_page.h"
#include "engine/run_audit.h"

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
    const char *format, *domain, *out;
    struct ga_run_share share;
    int threads;
};

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
    struct ga_audit *all;
    char why[GA_ENGINE_WHY];
    int status = ga_run_audit_merge(names, (size_t)n, &all, why, sizeof why);

    if (status != GA_ENGINE_OK)
        ga_cli_error("audit: %s", why);
    else
        status = publish(all, out);
    free(all);
    return status;
}

/* Audit the share the request names (or this rank's); publish on rank 0, or
 * write the state (--partial). */
static int audit(const struct audit_request *rq)
{
    const struct ga_format *f = ga_cli_format(rq->format);
    struct ga_audit *a = NULL;
    struct ga_domain d;
    struct ga_audit_job job = { .fn = rq->fn, .domain = &d,
                                .version = PACKAGE_NAME " " PACKAGE_VERSION,
                                .share = rq->share, .threads = rq->threads };
    char why[GA_ENGINE_WHY];
    int status;

    if (!f)
        return GA_EXIT_USAGE;
    if (ga_domain_parse(&d, rq->domain ? rq->domain : ga_domain_default(f), f, why,
                        sizeof why) != 0) {
        ga_cli_error("audit: %s", why);
        return GA_EXIT_USAGE;
    }
    status = ga_run_audit(&job, &a, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_cli_error("audit: %s", why);
    else if (ga_ranks_rank() != 0)
        ;  /* rank 0 writes or publishes */
    else if (rq->share.partial) {
        if (ga_run_save(&ga_audit_run_kind, rq->share.partial, a, why, sizeof why) != 0) {
            ga_cli_error("audit: partial: %s", why);
            status = GA_EXIT_USAGE;
        }
    } else {
        status = publish(a, rq->out);
    }
    ga_domain_free(&d);
    free(a);
    return status;
}

int ga_cmd_audit(int argc, char **argv)
{
    static const struct option options[] = {
        { "function", required_argument, NULL, 'F' },
        GA_CLI_OPTION_FORMAT,
        GA_CLI_OPTION_DOMAIN,
        GA_CLI_OPTION_THREADS,
        { "out", required_argument, NULL, 'o' },
        GA_CLI_OPTIONS_SHARE,
        { "merge", no_argument, NULL, 'M' },
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    struct audit_request rq = { .fn = GA_GELU };
    struct ga_cli_options o;
    bool merging = false;
    int opt, status;

    ga_cli_options_init(&o, "audit", help, false, false);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("audit", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'F':
            if (ga_oracle_function_by_name(optarg, &rq.fn) != 0) {
                ga_cli_error("audit: unknown function '%s' (known: gelu, gelu_tanh, gelu_grad, "
                             "gelu_tanh_grad)", optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'o': rq.out = optarg; break;
        case 'M': merging = true; break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
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
    if (ga_cli_no_operands(&o, argc, argv) != 0 || ga_cli_share(&o) != 0)
        return GA_EXIT_USAGE;
    if (o.share.partial && rq.out) {
        ga_cli_error("audit: --partial writes a state file; give --out to 'audit --merge'");
        return GA_EXIT_USAGE;
    }
    rq.format = o.format ? o.format : "float32";
    rq.domain = o.domain;
    rq.threads = o.threads;
    rq.share = o.share;
    return audit(&rq);
}
