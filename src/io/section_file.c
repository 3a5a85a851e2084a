/* Reading files of [sections] and key = value lines (section_file.h). */
#define _GNU_SOURCE
#include "io/section_file.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/grow.h"
#include "io/input_file.h"
#include "io/text_line.h"

/* The sections read so far, for the duplicate check. */
struct seen_section {
    char *name;
    int line;
};

struct reader {
    const struct ga_section_file *sf;
    int line;
    bool in_section;
    struct seen_section *seen;
    size_t count, capacity;
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct reader *rd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(rd->sf->why, rd->sf->why_size, fmt, ap);
    va_end(ap);
    return -1;
}

/* "[name]": checked, remembered, handed on. */
static int start_section(struct reader *rd, char *text)
{
    size_t len = strlen(text);
    struct seen_section *seen;
    char *name;

    if (len < 3 || text[len - 1] != ']' || strcspn(text + 1, "[]") != len - 2)
        return refuse(rd, "expected a section header '[name]'");
    text[len - 1] = '\0';
    name = text + 1;
    if (name[0] == ' ' || name[0] == '\t' || name[len - 3] == ' ' || name[len - 3] == '\t')
        return refuse(rd, "blanks around the section name '%s'", name);
    if (len - 2 > rd->sf->name_max)
        return refuse(rd, "section name longer than %zu characters", rd->sf->name_max);
    for (size_t i = 0; i < rd->count; i++)
        if (strcmp(rd->seen[i].name, name) == 0)
            return refuse(rd, "section [%s] is given twice (first at line %d)", name,
                          rd->seen[i].line);
    if (!(seen = ga_grow(rd->seen, rd->count, &rd->capacity, sizeof *seen, 8)))
        return refuse(rd, "out of memory");
    rd->seen = seen;
    if (!(rd->seen[rd->count].name = strdup(name)))
        return refuse(rd, "out of memory");
    rd->seen[rd->count++].line = rd->line;
    rd->in_section = true;
    return rd->sf->cb->start(rd->sf->ctx, name, rd->line);
}

/* One line, already without its newline and blanks. */
static int parse_line(struct reader *rd, char *text)
{
    char *eq;

    for (char *c = text; (c = strchr(c, '#')) != NULL; c++)
        if (c == text || c[-1] == ' ' || c[-1] == '\t') {
            *c = '\0';
            break;
        }
    text = ga_trim(text);
    if (*text == '\0')
        return 0;
    if (*text == '[') {
        if (rd->in_section && rd->sf->cb->finish(rd->sf->ctx, &rd->line) != 0)
            return -1;
        return start_section(rd, text);
    }
    if (!rd->in_section)
        return refuse(rd, "a setting before the first section '[name]'");
    if (!(eq = strchr(text, '=')) || eq == text)
        return refuse(rd, "expected 'key = value'");
    *eq = '\0';
    return rd->sf->cb->setting(rd->sf->ctx, ga_trim(text), ga_trim(eq + 1), &rd->line);
}

/* The sections of stream `in`, named `name` in messages; its first line is
 * numbered first_line. */
static int read_stream(FILE *in, const char *name, int first_line,
                       const struct ga_section_file *sf, char *err, size_t errlen)
{
    struct reader rd = { .sf = sf, .line = first_line - 1 };
    char line[GA_LINE_BUF];
    int status = 0;
    size_t got;

    while (status == 0 && (got = ga_line_read(in, line)) > 0) {
        size_t column;
        const char *why;
        char *text = ga_line_text(line, got, &column, &why);

        if (rd.line == INT_MAX) {
            snprintf(err, errlen, "%s: more than %d lines", name, INT_MAX);
            status = -1;
            break;
        }
        rd.line++;
        if (!text) {
            snprintf(err, errlen, "%s:%d:%zu: %s", name, rd.line, column, why);
            status = -1;
        } else if (parse_line(&rd, text) != 0) {
            snprintf(err, errlen, "%s:%d: %s", name, rd.line, sf->why);
            status = -1;
        }
    }
    if (status == 0 && ferror(in)) {
        snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
        status = -1;
    }
    if (status == 0 && rd.in_section && sf->cb->finish(sf->ctx, &rd.line) != 0) {
        snprintf(err, errlen, "%s:%d: %s", name, rd.line, sf->why);
        status = -1;
    }
    if (status == 0 && rd.count == 0) {
        snprintf(err, errlen, "%s: no section: %s", name, sf->no_section);
        status = -1;
    }
    for (size_t i = 0; i < rd.count; i++)
        free(rd.seen[i].name);
    free(rd.seen);
    return status;
}

int ga_section_file_read(const char *path, const struct ga_section_file *sf, char *err,
                         size_t errlen)
{
    FILE *in = ga_input_open(path, err, errlen);
    int status;

    if (!in)
        return -1;
    status = read_stream(in, strcmp(path, "-") == 0 ? "<stdin>" : path, 1, sf, err, errlen);
    ga_input_close(in);
    return status;
}

int ga_section_file_read_text(const char *name, const char *text, int first_line,
                              const struct ga_section_file *sf, char *err, size_t errlen)
{
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    int status;

    if (!in) {
        snprintf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
        return -1;
    }
    status = read_stream(in, name, first_line, sf, err, errlen);
    fclose(in);
    return status;
}
