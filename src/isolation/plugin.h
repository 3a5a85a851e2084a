/* Kernels from shared libraries ("plugins"), measured like the built-in
 * implementations.
 *
 * A spec "path/to/lib.so:symbol" names a kernel of the ABI in
 * <gelu-acc/kernel.h> for one format, given by the caller.  The plugin is
 * wrapped in a struct ga_impl whose run() hands batches to worker processes
 * (worker.h): a kernel that crashes or hangs fails that run() with the input
 * range responsible, and the next run() gets a fresh worker.
 *
 * run() is thread-safe: concurrent callers (OpenMP threads) each take a
 * worker from a pool, so there are as many workers as concurrent calls.
 * A batch is passed in kernel calls of at most max_call elements; the
 * timeout applies to each kernel call.
 *
 * When a call fails, the failing inputs are narrowed down by bisection, in
 * fresh workers:
 * - killed by a signal (or exited): failure->first and ->last are the first
 *   and the last input of the batch that fail on their own (those between
 *   may not); about 2 log2(n) worker starts;
 * - timed out: first = last = the first input that hangs on its own; each
 *   probe that hangs costs narrow_timeout_s, about log2(n)/2 of them.
 * A failure that no smaller range reproduces (a kernel with state), or that
 * could not be narrowed (no worker could start), is reported for the whole
 * kernel call, with a note in failure->what.
 *
 * The caller must not ignore SIGCHLD or reap unknown children (worker.h). */
#ifndef GA_PLUGIN_H
#define GA_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/format.h"
#include "impls/impl.h"
#include "io/io_error.h"
#include "truth/function.h"

struct ga_plugin_options {
    const char *name;              /* the impl's name; NULL: the spec */
    enum ga_function approximates; /* what the kernel is meant to compute */
    double timeout_s;              /* per kernel call */
    double narrow_timeout_s;       /* per probe while narrowing a timeout */
    size_t max_call;               /* elements per kernel call */
    bool narrow;                   /* narrow failures down (else: the whole call) */
};

/* Defaults: name NULL, GA_GELU, 10 s, 1 s, 65536 elements, narrow. */
void ga_plugin_default_options(struct ga_plugin_options *opt);

struct ga_plugin;

/* Split spec at its last ':' into malloc'ed *path and *symbol (free() both).
 * GA_IO_BAD_SPEC: no ':', empty path, empty symbol. */
enum ga_io_status ga_plugin_parse_spec(const char *spec, char **path, char **symbol,
                                       struct ga_io_error *err);

/* Load the library, find the symbol, check the optional ABI tag
 * (GELU_ACC_KERNEL_ABI_SYMBOL).  opt NULL: defaults.  GA_IO_BAD_SPEC,
 * GA_IO_LOAD (with dlerror's text), GA_IO_RANGE (bad options). */
enum ga_io_status ga_plugin_open(const char *spec, const struct ga_format *f,
                                 const struct ga_plugin_options *opt,
                                 struct ga_plugin **out, struct ga_io_error *err);

/* The plugin as an implementation under test; valid until ga_plugin_close. */
const struct ga_impl *ga_plugin_impl(const struct ga_plugin *p);

/* Stop the idle workers (they restart on the next run).  No run() may be
 * in flight. */
void ga_plugin_release_workers(struct ga_plugin *p);

/* Stop all workers, unload the library, free p.  No run() may be in
 * flight.  NULL is ignored. */
void ga_plugin_close(struct ga_plugin *p);

#endif
