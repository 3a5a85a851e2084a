/* gelu-acc grade: measure outputs computed anywhere (a GPU, PyTorch, JAX). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep/graded.h"
#include "cli/measure.h"

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
        { "format", required_argument, NULL, 'f' },
        { "inputs", required_argument, NULL, 'i' },
        { "outputs", required_argument, NULL, 'o' },
        { "reference", required_argument, NULL, 'r' },
        { "name", required_argument, NULL, 'n' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "json", no_argument, NULL, 'j' },
        { "csv", no_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *format_name = NULL, *in_path = NULL, *out_path = NULL, *name = NULL;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST };
    struct ga_measurement m = { 0 };
    struct ga_result *result = NULL;
    struct ga_io_error io;
    struct ga_domain d;
    const struct ga_format *f;
    enum ga_cli_form form = GA_CLI_TEXT;
    struct ga_graded g;
    int opt, status;

    for (int a = 1; a < argc; a++)
        if (strcmp(argv[a], "--backward") == 0)
            return ga_cmd_grade_backward(argc, argv);
    m.reference = GA_GELU;
    m.want_shape = true;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'f': format_name = optarg; break;
        case 'i': in_path = optarg; break;
        case 'o': out_path = optarg; break;
        case 'n': name = optarg; break;
        case 'j': form = GA_CLI_JSON; break;
        case 'c': form = GA_CLI_CSV; break;
        case 'r':
            if (ga_cli_function(optarg, &m.reference) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'O':
            if (ga_cli_oracle(optarg, &so.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("grade", optarg, &so.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'h': fputs(help, stdout); return GA_EXIT_OK;
        default:
            ga_cli_error("grade: see 'gelu-acc grade --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("grade: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(format_name)))
        return GA_EXIT_USAGE;
    if (!in_path || !out_path) {
        ga_cli_error("grade: --inputs FILE and --outputs FILE are required");
        return GA_EXIT_USAGE;
    }
    if (ga_graded_open(&g, in_path, out_path, f, &io) != GA_IO_OK) {
        ga_cli_error("grade: %s", io.message);
        return GA_EXIT_USAGE;
    }
    ga_graded_attach(&g, in_path, &d, &m);
    if (!(result = malloc(sizeof *result)))
        status = GA_EXIT_INTERNAL;
    else if ((status = ga_cli_measure("grade", f, &d, &m, &so, name ? name : out_path,
                                      result)) == GA_EXIT_OK)
        status = ga_cli_print_result(result, form);
    free(result);
    ga_domain_free(&d);
    ga_graded_close(&g);
    return status;
}
