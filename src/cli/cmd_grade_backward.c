/* gelu-acc grade --backward: backward outputs computed anywhere, graded
 * against RN_F(dy * d(x)) with the statistics of sweep --backward. */
#include "cli/options.h"
#include "engine/run_backward.h"
#include "measure/graded.h"
#include "report/backward_print.h"
#include "state/ranks.h"

static const char help[] =
    "usage: gelu-acc grade --backward --format FORMAT --x FILE --dy FILE --dx FILE\n"
    "                      [--reference gelu_grad|gelu_tanh_grad] [--name NAME] [--json]\n"
    "                      [--threads N]\n"
    "\n"
    "Measures dx[i] as a backward kernel's result for (x[i], dy[i]) against\n"
    "RN_FORMAT(dy * d(x)), d = gelu_grad (default) or gelu_tanh_grad, with the\n"
    "statistics and output of 'gelu-acc sweep --backward'.  The three files are\n"
    "read as 'gelu-acc grade' reads its own: NumPy .npy or raw, of one length.\n"
    "Exit status: 0 graded, 2 a file unreadable, malformed, of the wrong dtype\n"
    "or of another length than x, 3 a truth not decided.\n";

/* A file that failed to read midway, for ga_run_backward_sweep. */
static const char *read_error(const void *g)
{
    return ga_graded_error(g);
}

int ga_cmd_grade_backward(int argc, char **argv)
{
    static const struct option options[] = {
        GA_CLI_OPTION_BACKWARD,
        GA_CLI_OPTION_FORMAT,
        { "x", required_argument, NULL, 'x' },
        { "dy", required_argument, NULL, 'y' },
        { "dx", required_argument, NULL, 'd' },
        GA_CLI_OPTION_REFERENCE,
        GA_CLI_OPTION_NAME,
        GA_CLI_OPTION_JSON,
        GA_CLI_OPTION_THREADS,
        GA_CLI_OPTION_HELP,
        { NULL, 0, NULL, 0 },
    };
    const char *x_path = NULL, *dy_path = NULL, *dx_path = NULL;
    struct ga_cli_options o;
    struct ga_backward_sweep s = { 0 };
    struct ga_pairs pairs;
    struct ga_graded g;
    struct ga_io_error io;
    const struct ga_format *f;
    int opt, status;

    ga_cli_options_init(&o, "grade", help, true, false);
    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("grade", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'x': x_path = optarg; break;
        case 'y': dy_path = optarg; break;
        case 'd': dx_path = optarg; break;
        default:
            if ((status = ga_cli_option(&o, opt, optarg)) != GA_CLI_GO_ON)
                return status;
        }
    }
    if (ga_cli_no_operands(&o, argc, argv) != 0)
        return GA_EXIT_USAGE;
    if (!(f = ga_cli_format(o.format)))
        return GA_EXIT_USAGE;
    if (f->id != GA_FLOAT32 && f->id != GA_FLOAT16 && f->id != GA_BFLOAT16) {
        ga_cli_error("grade: --backward grades float32, float16 or bfloat16, not %s", f->name);
        return GA_EXIT_USAGE;
    }
    if (!x_path || !dy_path || !dx_path) {
        ga_cli_error("grade: --backward needs --x FILE, --dy FILE and --dx FILE");
        return GA_EXIT_USAGE;
    }
    if (ga_graded_open_backward(&g, x_path, dy_path, dx_path, f, &io) != GA_IO_OK) {
        ga_cli_error("grade: %s", io.message);
        return GA_EXIT_USAGE;
    }
    ga_graded_attach_backward(&g, x_path, &pairs, &s.dx);
    s.pairs = &pairs;
    s.reference = o.reference;
    s.threads = o.threads;
    s.name = o.name ? o.name : dx_path;
    status = ga_cli_print_backward("grade", &s, o.form == GA_CLI_JSON, read_error, &g);
    ga_pairs_free(&pairs);
    ga_graded_close(&g);
    return status;
}
