/* The marker file of a report directory, DIR/.gelu-acc-report: written by
 * 'gelu-acc report', it says that the directory is a report's and, for each
 * format, over which domain its tables were measured.  The index states
 * those domains, and a sampled run can refuse to replace an exhaustive
 * table.  The file is its first line, then one line per format:
 * "FORMAT COUNT DOMAIN" (DOMAIN as the tables print it, to the line's end). */
#ifndef GA_REPORT_MARKER_H
#define GA_REPORT_MARKER_H

#include <stdbool.h>
#include <stdint.h>

#include "formats/format.h"
#include "io/io_error.h"
#include "domain/domain.h"

#define GA_REPORT_MARKER ".gelu-acc-report"

struct ga_report_domain {
    bool known;          /* the marker has a line for this format */
    uint64_t count;      /* inputs measured */
    char domain[GA_DOMAIN_SPEC_LEN];  /* "all", "stride:4096", ... */
};

struct ga_report_marker {
    struct ga_report_domain format[GA_FORMAT_COUNT];  /* by enum ga_format_id */
};

/* Whether a measured domain covers every input of its format. */
bool ga_report_domain_exhaustive(const struct ga_report_domain *d);

/* Read DIR's marker into *m.  A missing file or one without format lines
 * leaves every format unknown (GA_IO_OK); a line that is not
 * "FORMAT COUNT DOMAIN" is GA_IO_MALFORMED, naming the file and line. */
enum ga_io_status ga_report_marker_read(const char *dir, struct ga_report_marker *m,
                                        struct ga_io_error *err);

/* Write DIR's marker (atomically) with the known formats of *m. */
enum ga_io_status ga_report_marker_write(const char *dir, const struct ga_report_marker *m,
                                         struct ga_io_error *err);

#endif
