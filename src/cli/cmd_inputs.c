/* gelu-acc inputs: write an input set for kernels run elsewhere. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "io/npy.h"
#include "io/rawfile.h"
#include "domain/domain.h"

static const char help[] =
    "usage: gelu-acc inputs --format FORMAT [--domain D] -o FILE [--kind npy|raw] [--force]\n"
    "\n"
    "Writes the inputs of a domain (see 'gelu-acc sweep --help'; default: all for\n"
    "16-bit formats, stride:4096 for float32) in domain order, as NumPy .npy\n"
    "(float32 '<f4', float16 '<f2', bfloat16 as uint16 '<u2') or raw little-endian.\n"
    "The kind follows the file name (.npy) unless --kind says.  An existing FILE\n"
    "is kept unless --force.  Run your kernel on it, save its outputs in the same\n"
    "order, and measure them with 'gelu-acc grade'.\n";

int ga_cmd_inputs(int argc, char **argv)
{
    static const struct option options[] = {
        { "format", required_argument, NULL, 'f' },
        { "domain", required_argument, NULL, 'd' },
        { "output", required_argument, NULL, 'o' },
        { "kind", required_argument, NULL, 'k' },
        { "force", no_argument, NULL, 'F' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *format_name = NULL, *spec = NULL, *path = NULL, *kind = NULL;
    bool force = false, npy;
    const struct ga_format *f;
    struct ga_array_writer w;
    struct ga_domain d;
    struct ga_io_error io;
    enum ga_io_status status;
    ga_bits buf[4096];
    char err[512];
    int opt;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("inputs", argc, argv, "o:", options, &seen)) != -1) {
        switch (opt) {
        case 'f': format_name = optarg; break;
        case 'd': spec = optarg; break;
        case 'o': path = optarg; break;
        case 'k': kind = optarg; break;
        case 'F': force = true; break;
        case 'h': fputs(help, stdout); return GA_EXIT_OK;
        default:
            ga_cli_error("inputs: see 'gelu-acc inputs --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("inputs: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (!(f = ga_cli_format(format_name)))
        return GA_EXIT_USAGE;
    if (!path) {
        ga_cli_error("inputs: -o FILE is required");
        return GA_EXIT_USAGE;
    }
    if (kind && strcmp(kind, "npy") != 0 && strcmp(kind, "raw") != 0) {
        ga_cli_error("inputs: unknown kind '%s' (npy, raw)", kind);
        return GA_EXIT_USAGE;
    }
    npy = kind ? strcmp(kind, "npy") == 0
               : strlen(path) >= 4 && strcmp(path + strlen(path) - 4, ".npy") == 0;
    if (ga_domain_parse(&d, spec ? spec : ga_domain_default(f), f, err, sizeof err) != 0) {
        ga_cli_error("inputs: %s", err);
        return GA_EXIT_USAGE;
    }
    status = npy ? ga_npy_create(path, f, d.size, force, &w, &io)
                 : ga_raw_create(path, f, d.size, force, &w, &io);
    for (uint64_t i = 0; status == GA_IO_OK && i < d.size; i += 4096) {
        size_t n = d.size - i < 4096 ? (size_t)(d.size - i) : 4096;
        ga_domain_fill(&d, i, n, buf);
        status = ga_array_append(&w, buf, n, &io);
        if (status != GA_IO_OK)
            ga_array_abort(&w);
    }
    if (status == GA_IO_OK)
        status = ga_array_commit(&w, &io);
    ga_domain_free(&d);
    if (status != GA_IO_OK) {
        ga_cli_error("inputs: %s%s", io.message,
                     status == GA_IO_EXISTS ? " (pass --force to replace it)" : "");
        return GA_EXIT_USAGE;
    }
    return GA_EXIT_OK;
}
