/* A plugin library loaded in a child process, never in gelu-acc's own: its
 * constructors run there, so one that crashes, aborts, exits, hangs or
 * writes to stdout is refused with what it did, and gelu-acc's own process,
 * output and other measurements are kept; the kernel is checked there too
 * (plugin_checks.h), and the child tells the caller what it found.  (A
 * library that misbehaves only on some loads can still get through: the
 * probe loads it once; each worker loads it again, worker.h.) */
#ifndef GA_LOAD_PROBE_H
#define GA_LOAD_PROBE_H

#include <stdbool.h>

#include "formats/format.h"
#include "io/io_error.h"

struct ga_load_probe {
    const char *spec;              /* as the user wrote it, for messages */
    const char *path, *symbol;
    const struct ga_format *format;
    bool backward;
    double timeout_s;              /* for the load and the checks */
};

/* GA_IO_OK when dlopen(path) in a child returns within timeout_s, exits
 * cleanly, writes nothing to stdout and the kernel passes the checks of
 * ga_plugin_load_checked; *declared then says whether the library declares
 * its format.  Else GA_IO_KERNEL_FAULT with "plugin 'SPEC': loading PATH
 * ..." saying what the constructors did, or the failed check's status and
 * message. */
enum ga_io_status ga_load_probe(const struct ga_load_probe *probe, bool *declared,
                                struct ga_io_error *err);

#endif
