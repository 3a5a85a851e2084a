/* Kernels named by a spec, as baselines and the command line write them:
 *   NAME                 a catalogue implementation (impls/impl.h), or a real
 *                        library's (real/real.h), run in isolation;
 *   plugin:PATH:SYMBOL   a kernel in a shared library, run in isolation
 *                        (isolation/plugin.h);
 *   outputs:FILE         outputs computed elsewhere, graded against an
 *                        inputs file (measure/graded.h).
 * This is the one place that tells them apart.  Relative paths (the plugin,
 * the outputs and inputs files, a file: domain) resolve against base_dir, a
 * baseline's directory, or the current directory when base_dir is NULL. */
#ifndef GA_SWEEP_KERNEL_SPEC_H
#define GA_SWEEP_KERNEL_SPEC_H

#include <stdbool.h>

#include "formats/format.h"
#include "io/io_error.h"
#include "isolation/plugin.h"
#include "real/real.h"
#include "domain/domain.h"
#include "measure/graded.h"
#include "measure/sweep.h"

struct ga_kernel_request {
    const char *spec;
    const struct ga_format *format;
    enum ga_function reference;
    const char *domain;       /* catalogue and plugin kernels; NULL: the format's default */
    const char *inputs;       /* outputs: kernels only */
    const char *base_dir;     /* NULL: the current directory */
    const struct ga_plugin_options *plugin_options;  /* NULL: the defaults */
};

/* A kernel ready to sweep: `measurement` over `domain`. */
struct ga_kernel {
    struct ga_measurement measurement;
    struct ga_domain domain;
    struct ga_plugin *plugin;  /* plugin: kernels */
    struct ga_real_kernel *real;  /* real libraries */
    struct ga_graded graded;   /* outputs: kernels */
    bool has_domain, has_graded;
};

/* Open what the request names.  GA_IO_BAD_SPEC for an unknown name, a
 * catalogue entry without a version for the format, an unparsable domain or
 * a missing inputs file; the statuses of plugin.h, real.h and graded.h
 * otherwise.
 * On failure nothing stays open and ga_kernel_close is harmless. */
enum ga_io_status ga_kernel_open(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                 struct ga_io_error *err);

void ga_kernel_close(struct ga_kernel *k);

/* path resolved against base_dir (NULL: unchanged); malloc'ed, NULL when out of memory. */
char *ga_kernel_resolve_path(const char *base_dir, const char *path);

#endif
