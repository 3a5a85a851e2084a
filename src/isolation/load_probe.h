/* A plugin library loaded first in a child process: its constructors run
 * there, so one that crashes, aborts, exits, hangs or writes to stdout is
 * refused with what it did, and gelu-acc's own process, output and other
 * measurements are kept.  (A library that misbehaves only on some loads can
 * still get through: the probe loads it once.) */
#ifndef GA_LOAD_PROBE_H
#define GA_LOAD_PROBE_H

#include "io/io_error.h"

/* GA_IO_OK when dlopen(path) in a child returns within timeout_s, exits
 * cleanly and writes nothing to stdout; else GA_IO_KERNEL_FAULT with "plugin 'SPEC':
 * loading PATH ..." saying what happened. */
enum ga_io_status ga_load_probe(const char *spec, const char *path, double timeout_s,
                                struct ga_io_error *err);

#endif
