/* Plain-text files of sections, the syntax of baselines (check/baseline.h)
 * and of manifests of real-library outputs (report/real_outputs.h):
 *
 *   # a comment runs from a '#' that starts the line or follows a blank
 *   [name]          a section: unique in the file, no blanks inside the brackets' ends
 *   key = value     a setting of the section above (blanks around both cut)
 *
 * Lines as text_line.h reads them.  What the keys mean is the caller's: the
 * reader hands each section and setting to callbacks, which refuse what does
 * not hold by writing why into the file's `why` buffer and returning -1. */
#ifndef GA_SECTION_FILE_H
#define GA_SECTION_FILE_H

#include <stddef.h>

struct ga_section_callbacks {
    /* A section [name] starts at `line` (its name is new to the file). */
    int (*start)(void *ctx, const char *name, int line);
    /* key = value in the current section, at *line (the callback may move
     * *line to the line its reason is about). */
    int (*setting)(void *ctx, char *key, char *value, int *line);
    /* The current section ends (another starts, or the file ends); *line is
     * the line being read, the callback may move it. */
    int (*finish)(void *ctx, int *line);
};

struct ga_section_file {
    const struct ga_section_callbacks *cb;
    void *ctx;
    char *why;              /* the callbacks' reasons, and the reader's */
    size_t why_size;
    size_t name_max;        /* the longest section name */
    const char *no_section; /* an empty file: "no section: " then this */
};

/* Read path through sf's callbacks.  Returns 0, or -1 with
 * "PATH:LINE[:COLUMN]: why" (or "PATH: why") in err. */
int ga_section_file_read(const char *path, const struct ga_section_file *sf, char *err,
                         size_t errlen);

/* The same from text in memory, named `name` in messages, its first line
 * numbered first_line (a caller that puts lines of its own before the
 * user's numbers them from 1 - their count). */
int ga_section_file_read_text(const char *name, const char *text, int first_line,
                              const struct ga_section_file *sf, char *err, size_t errlen);

#endif
