/* Manifests of real-library outputs computed elsewhere (real_outputs.h). */
#include "report/real_outputs.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/grow.h"
#include "io/section_file.h"

enum key {
    KEY_LIBRARY, KEY_VERSION, KEY_OPERATOR, KEY_FORMAT, KEY_REFERENCE, KEY_KERNEL, KEY_INPUTS,
    KEY_DOMAIN, KEY_GRAPH, KEY_GRADED, KEY_UNSUPPORTED, KEY_CPU, KEY_ISA, KEY_PATH,
    KEY_LENGTHS, KEY_COUNT
};
static const char *const key_names[KEY_COUNT] = {
    "library", "version", "operator", "format", "reference", "kernel", "inputs",
    "domain", "graph", "graded", "unsupported", "cpu", "isa", "path", "lengths",
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
    case KEY_CPU:
        return copy_value(rd, e->cpu, sizeof e->cpu, key, value);
    case KEY_ISA:
        return copy_value(rd, e->isa, sizeof e->isa, key, value);
    case KEY_PATH:
        return copy_value(rd, e->path, sizeof e->path, key, value);
    case KEY_LENGTHS:
        return copy_value(rd, e->lengths, sizeof e->lengths, key, value);
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
                                              KEY_GRADED, KEY_LENGTHS };
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

/* The callbacks of the section reader. */
struct manifest {
    struct reader rd;
    struct ga_real_outputs *ro;
    size_t capacity;
};

static int on_start(void *ctx, const char *name, int line)
{
    struct manifest *mf = ctx;
    struct ga_real_outputs *ro = mf->ro;
    struct ga_real_outputs_entry *e;

    if (!(e = ga_grow(ro->entries, ro->count, &mf->capacity, sizeof *e, 8)))
        return refuse(&mf->rd, "out of memory");
    ro->entries = e;
    e = &ro->entries[ro->count++];
    memset(e, 0, sizeof *e);
    e->line = line;
    snprintf(e->name, sizeof e->name, "%s", name);
    memset(mf->rd.seen, 0, sizeof mf->rd.seen);
    return 0;
}

static int on_setting(void *ctx, char *key, char *value, int *line)
{
    struct manifest *mf = ctx;

    mf->rd.line = *line;
    return parse_key_value(&mf->rd, &mf->ro->entries[mf->ro->count - 1], key, value);
}

static int on_finish(void *ctx, int *line)
{
    struct manifest *mf = ctx;
    int status;

    mf->rd.line = *line;
    status = finish_entry(&mf->rd, &mf->ro->entries[mf->ro->count - 1]);
    *line = mf->rd.line;
    return status;
}

int ga_real_outputs_read(const char *path, struct ga_real_outputs *ro, char *err,
                         size_t errlen)
{
    static const struct ga_section_callbacks callbacks = { on_start, on_setting, on_finish };
    const char *slash = strrchr(path, '/');
    char dir[1024] = "";
    struct manifest mf = { .rd = { .dir = dir }, .ro = ro };
    struct ga_section_file sf = {
        .cb = &callbacks, .ctx = &mf, .why = mf.rd.why, .why_size = sizeof mf.rd.why,
        .name_max = sizeof ro->entries->name - 1,
        .no_section = "a manifest lists outputs as '[name]' sections",
    };

    memset(ro, 0, sizeof *ro);
    if (slash && (size_t)(slash - path + 1) >= sizeof dir) {
        snprintf(err, errlen, "%s: the directory's name is too long", path);
        return -1;
    }
    if (slash)
        memcpy(dir, path, (size_t)(slash - path + 1));
    if (ga_section_file_read(path, &sf, err, errlen) != 0) {
        ga_real_outputs_free(ro);
        return -1;
    }
    return 0;
}

void ga_real_outputs_free(struct ga_real_outputs *ro)
{
    free(ro->entries);
    ro->entries = NULL;
    ro->count = 0;
}
