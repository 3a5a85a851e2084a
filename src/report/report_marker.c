#include "report/report_marker.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text_line.h"
#include "report/report_file.h"

static const char first_line[] = "This directory is written by 'gelu-acc report'.";

bool ga_report_domain_exhaustive(const struct ga_report_domain *d)
{
    return d->known && strcmp(d->domain, "all") == 0;
}

/* "FORMAT COUNT DOMAIN" into m; -1 when the line is not that. */
static int parse_line(char *line, struct ga_report_marker *m)
{
    char *name = line, *count, *domain, *end;
    const struct ga_format *f;
    unsigned long long n;

    count = strchr(name, ' ');
    if (!count)
        return -1;
    *count++ = '\0';
    domain = strchr(count, ' ');
    if (!domain)
        return -1;
    *domain++ = '\0';
    domain = ga_trim(domain);
    f = ga_format_by_name(name);
    errno = 0;
    n = strtoull(count, &end, 10);
    if (!f || errno != 0 || end == count || *end != '\0' || !*domain
        || strlen(domain) >= sizeof m->format[0].domain)
        return -1;
    m->format[f->id].known = true;
    m->format[f->id].count = n;
    strcpy(m->format[f->id].domain, domain);
    return 0;
}

enum ga_io_status ga_report_marker_read(const char *dir, struct ga_report_marker *m,
                                        struct ga_io_error *err)
{
    char path[4096], line[GA_LINE_BUF];
    unsigned long lineno = 0;
    enum ga_io_status status = GA_IO_OK;
    FILE *in;

    memset(m, 0, sizeof *m);
    snprintf(path, sizeof path, "%s/%s", dir, GA_REPORT_MARKER);
    if (!(in = fopen(path, "r")))
        return errno == ENOENT ? ga_io_ok(err)
                               : ga_io_fail(err, GA_IO_SYSTEM, "%s: %s", path, strerror(errno));
    /* The first line only marks the directory (older markers end there). */
    size_t len;
    while (status == GA_IO_OK && (len = ga_line_read(in, line)) > 0) {
        size_t column;
        const char *why;
        char *text = ga_line_text(line, len, &column, &why);
        ++lineno;
        if (!text)
            status = ga_io_fail(err, GA_IO_MALFORMED, "%s:%lu:%zu: %s", path, lineno, column, why);
        else if (lineno == 1 || !*text)
            continue;
        else if (parse_line(text, m) != 0)
            status = ga_io_fail(err, GA_IO_MALFORMED,
                                "%s:%lu: expected 'FORMAT COUNT DOMAIN'", path, lineno);
    }
    if (status == GA_IO_OK && ferror(in))
        status = ga_io_fail(err, GA_IO_SYSTEM, "%s: %s", path, strerror(errno));
    fclose(in);
    return status == GA_IO_OK ? ga_io_ok(err) : status;
}

static int write_marker(FILE *out, const void *ctx)
{
    const struct ga_report_marker *m = ctx;

    fprintf(out, "%s\n", first_line);
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_report_domain *d = &m->format[id];
        if (d->known)
            fprintf(out, "%s %" PRIu64 " %s\n", ga_format_get((enum ga_format_id)id)->name,
                    d->count, d->domain);
    }
    return ferror(out) ? -1 : 0;
}

enum ga_io_status ga_report_marker_write(const char *dir, const struct ga_report_marker *m,
                                         struct ga_io_error *err)
{
    return ga_write_report_file(dir, GA_REPORT_MARKER, true, write_marker, m, err);
}
