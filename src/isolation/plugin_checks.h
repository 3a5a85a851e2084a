/* What a plugin library must be for its kernel to be measured: loadable,
 * the symbol a function, declared (when it declares anything) for the
 * format and the direction asked for, built for a kernel ABI this gelu-acc
 * knows.  Run in the load probe's child (load_probe.h), never in gelu-acc's
 * own process: loading runs the library's code. */
#ifndef GA_PLUGIN_CHECKS_H
#define GA_PLUGIN_CHECKS_H

#include <stdbool.h>

#include "formats/format.h"
#include "io/io_error.h"

/* dlopen(path) in this process, then the checks on symbol; *declared says
 * whether the library declares the kernel's format.  GA_IO_OK, or the
 * status and the one-line message "plugin 'SPEC': ..." of the first check
 * that fails.  The library stays loaded. */
enum ga_io_status ga_plugin_load_checked(const char *spec, const char *path, const char *symbol,
                                         const struct ga_format *f, bool backward,
                                         bool *declared, struct ga_io_error *err);

#endif
