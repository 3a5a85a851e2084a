/* The options that sweep, grade and their --backward forms share: each one
 * parsed, and its message written, here.  A command lists the entries it
 * takes in its getopt_long table, handles its own options first and hands
 * every other one to ga_cli_option. */
#ifndef GA_CLI_OPTIONS_H
#define GA_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "cli/measure.h"
#include "state/run.h"

/* getopt_long's values for the shared options: above every character, so
 * that a command's own options keep their letters. */
enum ga_cli_option_id {
    GA_CLI_OPT_FORMAT = 256,
    GA_CLI_OPT_DOMAIN,
    GA_CLI_OPT_IMPL,
    GA_CLI_OPT_KERNEL,
    GA_CLI_OPT_TIMEOUT,
    GA_CLI_OPT_REFERENCE,
    GA_CLI_OPT_ORACLE,
    GA_CLI_OPT_NAME,
    GA_CLI_OPT_THREADS,
    GA_CLI_OPT_JSON,
    GA_CLI_OPT_CSV,
    GA_CLI_OPT_BACKWARD,
    GA_CLI_OPT_SHARD,
    GA_CLI_OPT_PARTIAL,
    GA_CLI_OPT_CHECKPOINT,
    GA_CLI_OPT_CHECKPOINT_INTERVAL,
    GA_CLI_OPT_HELP,
};

/* The table entries of the shared options. */
#define GA_CLI_OPTION_FORMAT { "format", required_argument, NULL, GA_CLI_OPT_FORMAT }
#define GA_CLI_OPTION_DOMAIN { "domain", required_argument, NULL, GA_CLI_OPT_DOMAIN }
#define GA_CLI_OPTION_IMPL { "impl", required_argument, NULL, GA_CLI_OPT_IMPL }
#define GA_CLI_OPTION_KERNEL { "kernel", required_argument, NULL, GA_CLI_OPT_KERNEL }
#define GA_CLI_OPTION_TIMEOUT { "timeout", required_argument, NULL, GA_CLI_OPT_TIMEOUT }
#define GA_CLI_OPTION_REFERENCE { "reference", required_argument, NULL, GA_CLI_OPT_REFERENCE }
#define GA_CLI_OPTION_ORACLE { "oracle", required_argument, NULL, GA_CLI_OPT_ORACLE }
#define GA_CLI_OPTION_NAME { "name", required_argument, NULL, GA_CLI_OPT_NAME }
#define GA_CLI_OPTION_THREADS { "threads", required_argument, NULL, GA_CLI_OPT_THREADS }
#define GA_CLI_OPTION_JSON { "json", no_argument, NULL, GA_CLI_OPT_JSON }
#define GA_CLI_OPTION_CSV { "csv", no_argument, NULL, GA_CLI_OPT_CSV }
#define GA_CLI_OPTION_BACKWARD { "backward", no_argument, NULL, GA_CLI_OPT_BACKWARD }
#define GA_CLI_OPTION_HELP { "help", no_argument, NULL, GA_CLI_OPT_HELP }
/* The run's share (state/run.h): --shard K/N, --partial FILE, --checkpoint
 * FILE, --checkpoint-interval SECONDS. */
#define GA_CLI_OPTIONS_SHARE                                                     \
    { "shard", required_argument, NULL, GA_CLI_OPT_SHARD },                      \
    { "partial", required_argument, NULL, GA_CLI_OPT_PARTIAL },                  \
    { "checkpoint", required_argument, NULL, GA_CLI_OPT_CHECKPOINT },            \
    { "checkpoint-interval", required_argument, NULL, GA_CLI_OPT_CHECKPOINT_INTERVAL }

struct ga_cli_options {
    /* The command, set by ga_cli_options_init. */
    const char *cmd;        /* "sweep" or "grade": the start of every message */
    const char *help;       /* what --help prints */
    bool backward;          /* --reference names a derivative */
    bool one_form;          /* a second --json or --csv refused (sweep); else the last wins */
    /* The values given; NULL or the defaults when not. */
    const char *format, *domain, *impl, *kernel, *name;
    enum ga_function reference;  /* gelu, or gelu_grad for --backward */
    bool have_reference;
    enum ga_oracle oracle;       /* fast */
    enum ga_cli_form form;       /* text */
    int threads;                 /* 0: OpenMP's choice */
    struct ga_plugin_options plugin;  /* ga_plugin_default_options, --timeout */
    struct ga_run_share share;   /* --shard, --partial, --checkpoint (ga_run_share_init) */
    const char *interval;        /* --checkpoint-interval as given */
};

void ga_cli_options_init(struct ga_cli_options *o, const char *cmd, const char *help,
                         bool backward, bool one_form);

/* What ga_cli_option answers when parsing goes on. */
#define GA_CLI_GO_ON (-1)

/* Take option opt of getopt_long (arg: its optarg): a shared option's value,
 * --help (printed), or an unknown option.  Returns GA_CLI_GO_ON, or the exit
 * status to return: GA_EXIT_OK after --help, GA_EXIT_USAGE after a message. */
int ga_cli_option(struct ga_cli_options *o, int opt, const char *arg);

/* After the options: 0, or -1 and a message when an operand is left. */
int ga_cli_no_operands(const struct ga_cli_options *o, int argc, char **argv);

/* The share options as a command may take them: --shard needs --partial,
 * --checkpoint-interval needs --checkpoint; under mpirun the ranks are the
 * shards (--shard refused) and each rank keeps its own checkpoint
 * (ga_run_share_ranks).  0, or -1 and a message. */
int ga_cli_share(struct ga_cli_options *o);

/* 0 when a file can be written at path (NULL: nothing to write), tried by
 * creating and removing its temporary file; else a message and -1. */
int ga_cli_writable(const char *cmd, const char *what, const char *path);

/* Whether argv asks for the --backward form of a command. */
bool ga_cli_wants_backward(int argc, char **argv);

#endif
