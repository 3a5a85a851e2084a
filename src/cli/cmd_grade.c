/* gelu-acc grade: measure outputs computed anywhere (a GPU, PyTorch, JAX). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure/graded.h"
#include "cli/options.h"

static const char help[] =
    "usage: gelu-acc grade --format FORMAT --inputs FILE --outputs FILE\n"
    "                      [--reference gelu|gelu_tanh] [--name NAME] [--json | --csv]\n"
    "                      [--oracle fast|mpfr] [--threads N]\n"
    "\n"
    "Measures outputs[i] as the result for inputs[i], with the statistics and\n"
    "report formats of 'gelu-acc sweep'.  Files are NumPy .npy (float32 '<f4',\n"
    "float16 '<f2', bfloat16 stored as uint16 '<u2') or raw little-endian,\n"
    "recognised by their first bytes.  Exit status 2 for a file that is\n"
    "unreadable, malformed, truncated, of the wrong dtype or byte order, or of\n"
    "another length than the other, or that fails to read midway.  Files are\n"
    "read a chunk at a time as the sweep goes: their length is not bounded by\n"
    "memory (an exhaustive float32 pair is 2 x 16 GiB).\n"
    "--backward grades backward outputs (x, dy and dx files): see\n"
    "'gelu-acc grade --backward --help'.\n";

int ga_cmd_grade(int argc, char **argv)
{
    static const struct option options[] = {
        GA_CLI_OPTION_FORMAT,
        { "inputs", required_argument, NULL, 'i' },
        { "outputs", required_argument, NULL, 'o' },
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_NAME,
        GA_CLI_OPTION_ORACLE,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_CSV,
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    const char *in_path = NULL, *out_path = NULL;
    struct ga_cli_options o;
    struct ga_sweep_options so;
    struct ga_measurement m = { 0 };
    struct ga_result *result = NULL;
    struct ga_io_error io;
    struct ga_domain d;
    const struct ga_format *f;
    struct ga_graded g;
    int opt, status;

    if (ga_cli_wants_backward(argc, argv))
        return ga_cmd_grade_backward(argc, argv);
    ga_cli_options_init(&o, "grade", help, false, false);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("grade", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'i': in_path = optarg; break;
        case 'o': out_path = optarg; break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
        }
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0)
        return GA_EXIT_USAGE;
    if (!(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    if (!in_path || !out_path) {
        ga_cli_error("grade: --inputs FILE and --outputs FILE are required");
        return GA_EXIT_USAGE;
    }
    if (ga_graded_open(&g, in_path, out_path, f, &io) != GA_IO_OK) {
        ga_cli_error("grade: %s", io.message);
        return GA_EXIT_USAGE;
    }
    m.reference = o.reference;
    m.want_shape = true;
    so = (struct ga_sweep_options){ .oracle = o.oracle, .threads = o.threads };
    ga_graded_attach(&g, in_path, &d, &m);
    if (!(result = malloc(sizeof *result)))
        status = GA_EXIT_INTERNAL;
    else if ((status = ga_cli_measure("grade", f, &d, &m, &so, o.name ? o.name : out_path,
                                      result)) == GA_EXIT_OK)
        status = ga_cli_print_result(result, o.form);
    free(result);
    ga_domain_free(&d);
    ga_graded_close(&g);
    return status;
}
