/* gelu-acc: tells the truth about how accurately GELU is computed. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cli/cli.h"
#include "state/ranks.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int ranks;  /* runs over the ranks of mpirun (state/ranks.h) */
} commands[] = {
    { "truth", ga_cmd_truth, "correctly rounded GELU of given inputs (MPFR ground truth)", 0 },
    { "list", ga_cmd_list, "the built-in implementations and what they model", 0 },
    { "sweep", ga_cmd_sweep, "measure one implementation over a domain of inputs", 1 },
    { "merge", ga_cmd_merge, "merge the partial files of a sharded sweep into its results", 0 },
    { "audit", ga_cmd_audit, "check the fast oracle against MPFR on every input of a domain", 1 },
    { "report", ga_cmd_report, "error tables of the whole catalogue, per format", 1 },
    { "inputs", ga_cmd_inputs, "write an input set for kernels run elsewhere", 0 },
    { "grade", ga_cmd_grade, "measure outputs computed elsewhere (GPU, PyTorch, JAX)", 0 },
    { "compare", ga_cmd_compare, "compare two kernels input by input (improved, worsened)", 0 },
    { "check", ga_cmd_check, "regression-test kernels against a baseline file", 0 },
    { "facts", ga_cmd_facts, "facts about GELU (minimum, gaps, -0 thresholds), computed with MPFR", 0 },
};

static void usage(FILE *out)
{
    fprintf(out, "usage: gelu-acc COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'gelu-acc COMMAND --help' describes a command.\n"
                 "Exit status: 0 success, 1 accuracy regression or kernel failure,\n"
                 "2 usage or input error, 3 oracle failure.\n");
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return GA_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return GA_EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gelu-acc (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
        return GA_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        if (ga_ranks_count() > 1 && !commands[i].ranks) {
            ga_cli_error("%s does not run over the ranks of mpirun: run it as one process",
                         argv[1]);
            return GA_EXIT_USAGE;
        }
        return commands[i].run(argc - 1, argv + 1);
    }
    ga_cli_error("unknown command '%s' (try 'gelu-acc --help')", argv[1]);
    return GA_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (ga_ranks_start(&argc, &argv) != 0) {
        fputs("gelu-acc: MPI could not be initialized\n", stderr);
        return GA_EXIT_USAGE;
    }
    return ga_ranks_finish(run(argc, argv));
}
