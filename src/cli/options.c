/* The options sweep, grade and their --backward forms share (options.h). */
#include "cli/options.h"

#include <stdio.h>
#include <string.h>

#include "io/atomic_file.h"
#include "state/ranks.h"
#include "state/shard.h"

void ga_cli_options_init(struct ga_cli_options *o, const char *cmd, const char *help,
                         bool backward, bool one_form)
{
    *o = (struct ga_cli_options){
        .cmd = cmd, .help = help, .backward = backward, .one_form = one_form,
        .reference = backward ? GA_GELU_GRAD : GA_GELU, .oracle = GA_ORACLE_FAST,
        .form = GA_CLI_TEXT,
    };
    ga_plugin_default_options(&o->plugin);
    ga_run_share_init(&o->share);
}

/* --reference of a backward measurement: a derivative. */
static int derivative(const char *cmd, const char *name, enum ga_function *fn)
{
    if (ga_oracle_function_by_name(name, fn) == 0 && !ga_function_is_forward(*fn))
        return 0;
    ga_cli_error("%s: --reference of --backward is gelu_grad or gelu_tanh_grad, not '%s'",
                 cmd, name);
    return -1;
}

static int reference(struct ga_cli_options *o, const char *arg)
{
    o->have_reference = true;
    return o->backward ? derivative(o->cmd, arg, &o->reference)
                       : ga_cli_function(arg, &o->reference);
}

static int form(struct ga_cli_options *o, enum ga_cli_form chosen)
{
    if (o->one_form)
        return ga_cli_choose_form(o->cmd, chosen == GA_CLI_JSON ? 'j' : 'c', &o->form);
    o->form = chosen;
    return 0;
}

static int shard(struct ga_cli_options *o, const char *arg)
{
    if (ga_shard_parse(arg, &o->share.shard, &o->share.shards) == 0)
        return 0;
    ga_cli_error("%s: --shard takes K/N with 1 <= K <= N <= %u, not '%s'", o->cmd, GA_SHARD_MAX,
                 arg);
    return -1;
}

int ga_cli_option(struct ga_cli_options *o, int opt, const char *arg)
{
    int bad = 0;

    switch (opt) {
    case GA_CLI_OPT_FORMAT: o->format = arg; break;
    case GA_CLI_OPT_DOMAIN: o->domain = arg; break;
    case GA_CLI_OPT_IMPL: o->impl = arg; break;
    case GA_CLI_OPT_KERNEL: o->kernel = arg; break;
    case GA_CLI_OPT_NAME: o->name = arg; break;
    case GA_CLI_OPT_BACKWARD: break;  /* what brought the command to its --backward form */
    case GA_CLI_OPT_TIMEOUT: bad = ga_cli_timeout(o->cmd, arg, &o->plugin.timeout_s); break;
    case GA_CLI_OPT_REFERENCE: bad = reference(o, arg); break;
    case GA_CLI_OPT_ORACLE: bad = ga_cli_oracle(arg, &o->oracle); break;
    case GA_CLI_OPT_THREADS: bad = ga_cli_threads(o->cmd, arg, &o->threads); break;
    case GA_CLI_OPT_SHARD: bad = shard(o, arg); break;
    case GA_CLI_OPT_PARTIAL: o->share.partial = arg; break;
    case GA_CLI_OPT_CHECKPOINT: o->share.checkpoint = arg; break;
    case GA_CLI_OPT_CHECKPOINT_INTERVAL:
        bad = ga_cli_checkpoint_interval(o->cmd, arg, &o->share.interval_s);
        o->interval = arg;
        break;
    case GA_CLI_OPT_JSON: bad = form(o, GA_CLI_JSON); break;
    case GA_CLI_OPT_CSV: bad = form(o, GA_CLI_CSV); break;
    case GA_CLI_OPT_HELP:
        fputs(o->help, stdout);
        return GA_EXIT_OK;
    default:
        ga_cli_error("%s: see 'gelu-acc %s%s --help'", o->cmd, o->cmd,
                     o->backward ? " --backward" : "");
        return GA_EXIT_USAGE;
    }
    return bad ? GA_EXIT_USAGE : GA_CLI_GO_ON;
}

int ga_cli_no_operands(const struct ga_cli_options *o, int argc, char **argv)
{
    if (optind < argc) {
        ga_cli_error("%s: unexpected argument '%s'", o->cmd, argv[optind]);
        return -1;
    }
    return 0;
}

int ga_cli_writable(const char *cmd, const char *what, const char *path)
{
    struct ga_atomic_file probe;
    struct ga_io_error err;

    if (!path)
        return 0;
    if (ga_atomic_open(&probe, path, true, &err) != GA_IO_OK) {
        ga_cli_error("%s: %s: %s", cmd, what, err.message);
        return -1;
    }
    ga_atomic_abort(&probe);
    return 0;
}

int ga_cli_share(struct ga_cli_options *o)
{
    if (o->share.shards > 1 && !o->share.partial) {
        ga_cli_error("%s: --shard needs --partial FILE (then 'gelu-acc merge' the files)", o->cmd);
        return -1;
    }
    if (o->interval && !o->share.checkpoint) {
        ga_cli_error("%s: --checkpoint-interval needs --checkpoint FILE", o->cmd);
        return -1;
    }
    if (ga_ranks_count() > 1 && o->share.shards > 1) {
        ga_cli_error("%s: under mpirun the ranks are the shards: --shard cannot be used", o->cmd);
        return -1;
    }
    ga_run_share_ranks(&o->share);
    /* before the run, not after it */
    if (ga_cli_writable(o->cmd, "partial", o->share.partial) != 0
        || ga_cli_writable(o->cmd, "checkpoint", o->share.checkpoint) != 0)
        return -1;
    return 0;
}

bool ga_cli_wants_backward(int argc, char **argv)
{
    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "--backward") == 0)
            return true;
    return false;
}
