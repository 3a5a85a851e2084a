#include "io/bits_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text_line.h"

static int grow(ga_bits **array, size_t *capacity)
{
    size_t wanted = *capacity ? *capacity * 2 : 1024;
    ga_bits *bigger = realloc(*array, wanted * sizeof **array);

    if (!bigger)
        return -1;
    *array = bigger;
    *capacity = wanted;
    return 0;
}

int ga_read_bits_file(const char *path, const struct ga_format *f, ga_bits **out,
                      size_t *count, char *err, size_t errlen)
{
    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    FILE *in = from_stdin ? stdin : fopen(path, "r");
    ga_bits *array = NULL;
    size_t n = 0, capacity = 0, line_number = 0, length = 0, column;
    char *line = NULL;
    const char *why;
    ssize_t got;
    int status = 0;

    if (!in) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    while ((got = getline(&line, &length, in)) != -1) {
        char *text = ga_line_text(line, (size_t)got, &column, &why);
        int parsed;

        line_number++;
        if (!text) {
            snprintf(err, errlen, "%s:%zu:%zu: %s", name, line_number, column, why);
            status = -1;
            break;
        }
        if (*text == '\0' || *text == '#')
            continue;
        if (n == capacity && grow(&array, &capacity) != 0) {
            snprintf(err, errlen, "%s:%zu: out of memory", name, line_number);
            status = -1;
            break;
        }
        parsed = ga_parse_bits(f, text, &array[n]);
        if (parsed == -2)
            snprintf(err, errlen, "%s:%zu: encoding '%.40s' is wider than %s's %d bits",
                     name, line_number, text, f->name, f->bits);
        else if (parsed != 0)
            snprintf(err, errlen, "%s:%zu: '%.40s' is not a hexadecimal encoding "
                     "(one per line: hex digits after an optional 0x)", name, line_number, text);
        if (parsed != 0) {
            status = -1;
            break;
        }
        n++;
    }
    if (status == 0 && ferror(in)) {
        snprintf(err, errlen, "%s: read error: %s", name, strerror(errno));
        status = -1;
    }
    free(line);
    if (!from_stdin)
        fclose(in);
    if (status != 0) {
        free(array);
        return -1;
    }
    *out = array;
    *count = n;
    return 0;
}
