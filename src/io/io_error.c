/* Filling struct ga_io_error. */
#include "io/io_error.h"

#include <stdarg.h>
#include <stdio.h>

enum ga_io_status ga_io_fail(struct ga_io_error *err, enum ga_io_status status,
                             const char *fmt, ...)
{
    va_list ap;

    if (err == NULL)
        return status;
    err->status = status;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return status;
}

enum ga_io_status ga_io_ok(struct ga_io_error *err)
{
    if (err != NULL) {
        err->status = GA_IO_OK;
        err->message[0] = '\0';
    }
    return GA_IO_OK;
}

const char *ga_io_status_name(enum ga_io_status status)
{
    switch (status) {
    case GA_IO_OK:          return "ok";
    case GA_IO_SYSTEM:      return "system error";
    case GA_IO_EXISTS:      return "file exists";
    case GA_IO_MALFORMED:   return "malformed file";
    case GA_IO_UNSUPPORTED: return "unsupported file";
    case GA_IO_MISMATCH:    return "length mismatch";
    case GA_IO_RANGE:       return "out of range";
    case GA_IO_BAD_SPEC:    return "bad plugin spec";
    case GA_IO_LOAD:        return "plugin load failure";
    case GA_IO_KERNEL_FAULT: return "plugin constructor fault";
    }
    return "unknown status";
}
