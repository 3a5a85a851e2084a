/* Backward kernels named by a spec, as the command line and baselines write
 * them, the twin of kernel_spec.h for backward sweeps:
 *   NAME                 a backward catalogue model (impls/backward.h), or a
 *                        real library's backward kernel (real/real.h), run
 *                        in isolation;
 *   plugin:PATH:SYMBOL   a backward kernel in a shared library, run in
 *                        isolation (isolation/plugin.h);
 * with the pairs it is swept over (domain/pairs.h): a pair domain, or a
 * forward domain of x with a fixed dy. */
#ifndef GA_BACKWARD_KERNEL_H
#define GA_BACKWARD_KERNEL_H

#include <stdbool.h>

#include "io/io_error.h"
#include "measure/backward_sweep.h"
#include "real/real.h"

struct ga_backward_request {
    const char *spec;
    const struct ga_format *format;
    enum ga_function reference;   /* used when have_reference: else the kernel's own */
    bool have_reference;
    const char *domain;           /* NULL: pairs:all in a 16-bit format, else the format's */
    const char *dy;               /* the fixed dy of a forward domain; NULL: "1" */
    const char *base_dir;         /* plugin paths relative to it; NULL: the current directory */
    const char *name;             /* the sweep's name in reports; NULL: the spec's */
    const struct ga_plugin_options *plugin_options;  /* NULL: the defaults */
    int threads;
};

struct ga_backward_kernel {
    struct ga_backward_sweep sweep;  /* .pairs points at pairs */
    struct ga_pairs pairs;
    ga_bits dy;                      /* the fixed dy (1 for pair domains) */
    bool has_pairs;
    /* a real library's kernel: which, at what length, and what its module
     * says (version, code path); real NULL otherwise */
    const struct ga_real_desc *real;
    enum ga_real_length length;
    struct gelu_acc_real_info about;
};

/* Open what the request names: GA_IO_BAD_SPEC for an unknown name, a model
 * without the format, a bad dy or domain; the statuses of plugin.h and
 * real.h otherwise.  On failure nothing stays open; close is harmless. */
enum ga_io_status ga_backward_kernel_open(struct ga_backward_kernel *k,
                                          const struct ga_backward_request *rq,
                                          struct ga_io_error *err);
void ga_backward_kernel_close(struct ga_backward_kernel *k);

#endif
