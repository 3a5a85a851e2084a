/* Manifests of real-library outputs computed elsewhere (real_outputs.h). */
#include "report/real_outputs.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text_line.h"

enum key {
    KEY_LIBRARY, KEY_VERSION, KEY_OPERATOR, KEY_FORMAT, KEY_REFERENCE, KEY_KERNEL, KEY_INPUTS,
    KEY_DOMAIN, KEY_GRAPH, KEY_GRADED, KEY_UNSUPPORTED, KEY_COUNT
};
static const char *const key_names[KEY_COUNT] = {
    "library", "version", "operator", "format", "reference", "kernel", "inputs",
    "domain", "graph", "graded", "unsupported",
};

struct reader {
    const char *dir;          /* the manifest's directory, with its '/'; "" for the cwd */
    int line;
    int seen[KEY_COUNT];      /* line of each key in the current section; 0: not seen */
    char why[512];
};

__attribute__((format(printf, 2, 3)))
static int refuse(struct reader *rd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(rd->why, sizeof rd->why, fmt, ap);
    va_end(ap);
    return -1;
}

static int copy_value(struct reader *rd, char *field, size_t size, const char *key,
                      const char *value)
{
    if (strlen(value) >= size)
        return refuse(rd, "'%s' is longer than %zu characters", key, size - 1);
    strcpy(field, value);
    return 0;
}

/* A file named in the manifest, relative to the manifest's directory. */
static int copy_path(struct reader *rd, char *field, size_t size, const char *key,
                     const char *value)
{
    const char *dir = value[0] == '/' ? "" : rd->dir;

    if (value[0] == '\0')
        return refuse(rd, "'%s' names no file", key);
    if ((size_t)snprintf(field, size, "%s%s", dir, value) >= size)
        return refuse(rd, "'%s' is longer than %zu characters with the manifest's directory",
                      key, size - 1);
    return 0;
}

static int parse_key_value(struct reader *rd, struct ga_real_outputs_entry *e,
                           const char *key, const char *value)
{
    int k;

    for (k = 0; k < KEY_COUNT && strcmp(key, key_names[k]) != 0; k++)
        continue;
    if (k == KEY_COUNT)
        return refuse(rd, "unknown key '%s'", key);
    if (rd->seen[k])
        return refuse(rd, "'%s' is given twice in this section (first at line %d)", key,
                      rd->seen[k]);
    rd->seen[k] = rd->line;
    if (value[0] == '\0')
        return refuse(rd, "'%s' has no value", key);
    switch ((enum key)k) {
    case KEY_LIBRARY:
        return copy_value(rd, e->library, sizeof e->library, key, value);
    case KEY_VERSION:
        return copy_value(rd, e->version, sizeof e->version, key, value);
    case KEY_OPERATOR:
        return copy_value(rd, e->operator_text, sizeof e->operator_text, key, value);
    case KEY_GRAPH:
        return copy_value(rd, e->graph, sizeof e->graph, key, value);
    case KEY_UNSUPPORTED:
        return copy_value(rd, e->unsupported, sizeof e->unsupported, key, value);
    case KEY_DOMAIN:
        return copy_value(rd, e->domain, sizeof e->domain, key, value);
    case KEY_FORMAT:
        if (!(e->format = ga_format_by_name(value)))
            return refuse(rd, "unknown format '%s' (known: %s)", value, ga_format_names());
        return 0;
    case KEY_REFERENCE:
        if (ga_function_by_name(value, &e->reference) != 0
            || (e->reference != GA_GELU && e->reference != GA_GELU_TANH))
            return refuse(rd, "reference '%s': gelu or gelu_tanh", value);
        return 0;
    case KEY_KERNEL:
        if (strncmp(value, "outputs:", 8) != 0)
            return refuse(rd, "kernel '%s': a manifest lists outputs files ('outputs:FILE')",
                          value);
        return copy_path(rd, e->outputs, sizeof e->outputs, key, value + 8);
    case KEY_INPUTS:
        return copy_path(rd, e->inputs, sizeof e->inputs, key, value);
    case KEY_GRADED:
    case KEY_COUNT:
        break;
    }
    return 0;
}

/* The section is complete: what it needs is there, and nothing that would
 * be ignored. */
static int finish_entry(struct reader *rd, const struct ga_real_outputs_entry *e)
{
    static const enum key required[] = { KEY_LIBRARY, KEY_VERSION, KEY_OPERATOR, KEY_FORMAT,
                                         KEY_REFERENCE };
    static const enum key measured[] = { KEY_KERNEL, KEY_INPUTS, KEY_DOMAIN };
    static const enum key only_measured[] = { KEY_KERNEL, KEY_INPUTS, KEY_DOMAIN, KEY_GRAPH,
                                              KEY_GRADED };
    int header = e->line;

    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!rd->seen[required[i]]) {
            rd->line = header;
            return refuse(rd, "section [%s] has no '%s'", e->name, key_names[required[i]]);
        }
    if (rd->seen[KEY_UNSUPPORTED]) {
        for (size_t i = 0; i < sizeof only_measured / sizeof only_measured[0]; i++)
            if (rd->seen[only_measured[i]]) {
                rd->line = rd->seen[only_measured[i]];
                return refuse(rd, "section [%s]: '%s' with 'unsupported' (nothing was run)",
                              e->name, key_names[only_measured[i]]);
            }
        return 0;
    }
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++)
        if (!rd->seen[measured[i]]) {
            rd->line = header;
            return refuse(rd, "section [%s] has neither '%s' nor 'unsupported'", e->name,
                          key_names[measured[i]]);
        }
    return 0;
}

static int start_entry(struct reader *rd, struct ga_real_outputs *ro, size_t *capacity,
                       char *text)
{
    size_t len = strlen(text);
    struct ga_real_outputs_entry *e;

    if (len < 3 || text[len - 1] != ']' || strcspn(text + 1, "[]") != len - 2)
        return refuse(rd, "expected a section header '[name]'");
    text[len - 1] = '\0';
    text++;
    if (text[0] == ' ' || text[0] == '\t' || text[len - 3] == ' ' || text[len - 3] == '\t')
        return refuse(rd, "blanks around the section name '%s'", text);
    if (len - 2 >= sizeof e->name)
        return refuse(rd, "section name longer than %zu characters", sizeof e->name - 1);
    for (size_t i = 0; i < ro->count; i++)
        if (strcmp(ro->entries[i].name, text) == 0)
            return refuse(rd, "section [%s] is given twice (first at line %d)", text,
                          ro->entries[i].line);
    if (ro->count == *capacity) {
        size_t wanted = *capacity ? 2 * *capacity : 8;
        struct ga_real_outputs_entry *bigger = realloc(ro->entries, wanted * sizeof *bigger);
        if (!bigger)
            return refuse(rd, "out of memory");
        ro->entries = bigger;
        *capacity = wanted;
    }
    e = &ro->entries[ro->count++];
    memset(e, 0, sizeof *e);
    e->line = rd->line;
    strcpy(e->name, text);
    memset(rd->seen, 0, sizeof rd->seen);
    return 0;
}

static int parse_line(struct reader *rd, struct ga_real_outputs *ro, size_t *capacity,
                      char *text)
{
    struct ga_real_outputs_entry *e = ro->count ? &ro->entries[ro->count - 1] : NULL;
    char *eq;

    /* a comment runs from a '#' that starts the line or follows a blank */
    for (char *c = text; (c = strchr(c, '#')) != NULL; c++)
        if (c == text || c[-1] == ' ' || c[-1] == '\t') {
            *c = '\0';
            break;
        }
    text = ga_trim(text);
    if (*text == '\0')
        return 0;
    if (*text == '[') {
        if (e && finish_entry(rd, e) != 0)
            return -1;
        return start_entry(rd, ro, capacity, text);
    }
    if (!e)
        return refuse(rd, "a setting before the first section '[name]'");
    if (!(eq = strchr(text, '=')) || eq == text)
        return refuse(rd, "expected 'key = value'");
    *eq = '\0';
    return parse_key_value(rd, e, ga_trim(text), ga_trim(eq + 1));
}

int ga_real_outputs_read(const char *path, struct ga_real_outputs *ro, char *err,
                         size_t errlen)
{
    const char *slash = strrchr(path, '/');
    char dir[1024] = "";
    struct reader rd = { .dir = dir };
    char *line = NULL;
    size_t length = 0, capacity = 0;
    int status = 0;
    ssize_t got;
    FILE *in;

    memset(ro, 0, sizeof *ro);
    if (slash && (size_t)(slash - path + 1) >= sizeof dir) {
        snprintf(err, errlen, "%s: the directory's name is too long", path);
        return -1;
    }
    if (slash)
        memcpy(dir, path, (size_t)(slash - path + 1));
    if (!(in = fopen(path, "r"))) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while (status == 0 && (got = getline(&line, &length, in)) != -1) {
        size_t column;
        const char *why;
        char *text = ga_line_text(line, (size_t)got, &column, &why);

        if (rd.line == INT_MAX) {
            snprintf(err, errlen, "%s: more than %d lines", path, INT_MAX);
            status = -1;
            break;
        }
        rd.line++;
        if (!text) {
            snprintf(err, errlen, "%s:%d:%zu: %s", path, rd.line, column, why);
            status = -1;
        } else if (parse_line(&rd, ro, &capacity, text) != 0) {
            snprintf(err, errlen, "%s:%d: %s", path, rd.line, rd.why);
            status = -1;
        }
    }
    if (status == 0 && ferror(in)) {
        snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
        status = -1;
    }
    if (status == 0 && ro->count && finish_entry(&rd, &ro->entries[ro->count - 1]) != 0) {
        snprintf(err, errlen, "%s:%d: %s", path, rd.line, rd.why);
        status = -1;
    }
    if (status == 0 && ro->count == 0) {
        snprintf(err, errlen, "%s: no section: a manifest lists outputs as '[name]' sections",
                 path);
        status = -1;
    }
    free(line);
    fclose(in);
    if (status != 0)
        ga_real_outputs_free(ro);
    return status;
}

void ga_real_outputs_free(struct ga_real_outputs *ro)
{
    free(ro->entries);
    ro->entries = NULL;
    ro->count = 0;
}
