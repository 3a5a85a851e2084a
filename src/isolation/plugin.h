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
 * A sample of each batch is run again at other positions: 31 inputs
 * reversed after the batch in its last kernel call (no extra round trip),
 * and, for one batch in 16, the last input alone.  An output that changes
 * breaks the kernel contract (out[i] depends on in[i] alone) and fails the
 * run like a crash, with first = last = the input concerned.  Kernel calls
 * therefore hold up to max_call + 31 elements.
 *
 * When a call fails, the failing inputs are narrowed down by bisection, in
 * fresh workers:
 * - killed by a signal (or exited): failure->first and ->last are the first
 *   and the last input of the batch that fail on their own, and
 *   failure->span[] the runs of failing inputs between them (up to
 *   GA_RUN_SPANS, the last one taking the rest; a run's end is found by
 *   probing single inputs, so a gap between two probes can go unseen);
 *   about 2 log2(n) worker starts, and 2 log2 of its length per run;
 * - timed out: first = last = the first input that hangs on its own; each
 *   probe that hangs costs narrow_timeout_s, about log2(n)/2 of them.
 * - touched a guard page past an array (worker.h): as a crash, but when a
 *   call of one element does it too, the whole call, without bisection.
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
    double narrow_timeout_s;       /* per probe while narrowing a timeout (at most timeout_s) */
    size_t max_call;               /* elements per kernel call */
    bool narrow;                   /* narrow failures down (else: the whole call) */
    bool check_position;           /* re-run a sample of each batch elsewhere */
};

/* Defaults: name NULL, GA_GELU, 10 s, 1 s, 65536 elements, narrow, check
 * positions. */
void ga_plugin_default_options(struct ga_plugin_options *opt);

struct ga_plugin;

/* Split spec at its last ':' into malloc'ed *path and *symbol (free() both).
 * GA_IO_BAD_SPEC: no ':', empty path, empty symbol. */
enum ga_io_status ga_plugin_parse_spec(const char *spec, char **path, char **symbol,
                                       struct ga_io_error *err);

/* Load the library, find the symbol, check the optional ABI tag
 * (GELU_ACC_KERNEL_ABI_SYMBOL) and the optional format declaration
 * (GELU_ACC_KERNEL_F32...).  opt NULL: defaults.  GA_IO_BAD_SPEC (also: the
 * symbol is a variable), GA_IO_LOAD (with dlerror's text), GA_IO_UNSUPPORTED
 * (declared for another format), GA_IO_RANGE (bad options). */
enum ga_io_status ga_plugin_open(const char *spec, const struct ga_format *f,
                                 const struct ga_plugin_options *opt,
                                 struct ga_plugin **out, struct ga_io_error *err);

/* A backward kernel (GELU_ACC_BACKWARD_KERNEL_F32...: dx from dy and x) of
 * float32, float16 or bfloat16, in the same workers.  Besides
 * ga_plugin_open's refusals: GA_IO_LOAD for a library tagged with ABI
 * version 1 (no backward kernels), GA_IO_UNSUPPORTED for a kernel declared
 * forward, or another format. */
enum ga_io_status ga_plugin_open_backward(const char *spec, const struct ga_format *f,
                                          const struct ga_plugin_options *opt,
                                          struct ga_plugin **out, struct ga_io_error *err);

/* A backward kernel's input as the worker pool handles it: x in the low
 * half, dy in the high one.  Failures and bisection name pairs by index. */
static inline ga_bits ga_plugin_pair(ga_bits x, ga_bits dy)
{
    return dy << 32 | x;
}

/* dx[i] for (dy[i], x[i]), i < n, from a backward plugin: as the impl's
 * run() (thread-safe, failures narrowed down to the pairs responsible, the
 * position check).  0, or -1 with *failure filled in. */
int ga_plugin_run_backward(struct ga_plugin *p, const ga_bits *dy, const ga_bits *x,
                           ga_bits *dx, size_t n, struct ga_run_failure *failure);

/* The plugin as an implementation under test; valid until ga_plugin_close.
 * A backward plugin's run() takes pairs (ga_plugin_pair). */
const struct ga_impl *ga_plugin_impl(const struct ga_plugin *p);

/* Whether impl is a forward plugin's (or a copy of one: real/real.h), for
 * ga_plugin_run_many. */
bool ga_plugin_runs_many(const struct ga_impl *impl);
/* impl->run on batches k < count, in[k][0..n[k]) into out[k]: status[k]
 * and failure[k] are what that call returns and fills, and the kernel sees
 * the same calls, in the same order, in one worker round trip (most of
 * what a call of a few thousand elements costs besides the kernel).  When
 * anything fails there, the batches run again one by one, through run(),
 * so that failures read as run() words them; returns false then. */
bool ga_plugin_run_many(const struct ga_impl *impl, const struct ga_format *f,
                        const ga_bits *const *in, ga_bits *const *out, const size_t *n,
                        size_t count, int *status, struct ga_run_failure *failure);

/* Whether the library declares the kernel's format (checked by
 * ga_plugin_open); without it, a kernel of the wrong format can only be
 * caught by its faults. */
bool ga_plugin_format_declared(const struct ga_plugin *p);

/* Stop the idle workers (they restart on the next run).  No run() may be
 * in flight. */
void ga_plugin_release_workers(struct ga_plugin *p);

/* Stop all workers, unload the library, free p.  No run() may be in
 * flight.  NULL is ignored. */
void ga_plugin_close(struct ga_plugin *p);

#endif
