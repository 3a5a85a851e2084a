#include "io/bits_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/input_file.h"
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
    FILE *in = ga_input_open(path, err, errlen);
    int status;

    if (!in)
        return -1;
    status = ga_read_bits_stream(in, strcmp(path, "-") == 0 ? "<stdin>" : path, f, out, count,
                                 err, errlen);
    ga_input_close(in);
    return status;
}

int ga_read_bits_stream(FILE *in, const char *name, const struct ga_format *f, ga_bits **out,
                        size_t *count, char *err, size_t errlen)
{
    ga_bits *array = NULL;
    size_t n = 0, capacity = 0, line_number = 0, got, column;
    char line[GA_LINE_BUF];
    const char *why;
    int status = 0;

    while ((got = ga_line_read(in, line)) > 0) {
        char *text = ga_line_text(line, got, &column, &why);
        int parsed;

        line_number++;
        if (!text) {
            snprintf(err, errlen, "%s:%zu:%zu: %s", name, line_number, column, why);
            status = -1;
            break;
        }
        if (*text == '\0' || *text == '#')
            continue;
        if (n == GA_BITS_FILE_MAX) {
            snprintf(err, errlen, "%s:%zu: more than %llu encodings, beyond what a domain "
                     "holds", name, line_number, (unsigned long long)GA_BITS_FILE_MAX);
            status = -1;
            break;
        }
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
    if (status != 0) {
        free(array);
        return -1;
    }
    *out = array;
    *count = n;
    return 0;
}
