/* Writing a report file atomically: the writer renders into memory, and the
 * bytes reach the final name through a temporary file and a rename, so a
 * reader never sees half a report. */
#ifndef GA_REPORT_FILE_H
#define GA_REPORT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "io/io_error.h"

typedef int (*ga_report_writer)(FILE *out, const void *ctx);

/* Render with writer(ctx) and write dir/name; overwrite says whether an
 * existing file may be replaced.  Returns GA_IO_OK or a status with err set. */
enum ga_io_status ga_write_report_file(const char *dir, const char *name, bool overwrite,
                                       ga_report_writer writer, const void *ctx,
                                       struct ga_io_error *err);

#endif
