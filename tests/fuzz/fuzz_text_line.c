/* Lines (io/text_line.h): an accepted line comes back without newline,
 * blanks at its ends, NUL or control characters, within GA_LINE_MAX bytes;
 * a refused one says why and where, inside the line.  ga_line_read over the
 * same bytes as a stream hands them all on, in order, in pieces of at most
 * GA_LINE_MAX + 2 bytes that end at a newline, a refused byte, the limit or
 * the end. */
#include "fuzz.h"

#include "io/text_line.h"

static void read_as_stream(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    char buf[GA_LINE_BUF];
    size_t at = 0, got;

    if (size == 0 || in == NULL)
        return;
    while ((got = ga_line_read(in, buf)) > 0) {
        unsigned char last = (unsigned char)buf[got - 1];
        FUZZ_ASSERT(got <= GA_LINE_MAX + 2 && at + got <= size);
        FUZZ_ASSERT(memcmp(buf, data + at, got) == 0 && buf[got] == '\0');
        at += got;
        FUZZ_ASSERT(last == '\n' || last == 0 || last == 0x7f || (last < 0x20 && last != '\t'
                    && last != '\r') || got == GA_LINE_MAX + 2 || at == size);
    }
    FUZZ_ASSERT(at == size && !ferror(in));
    fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = malloc(size + 1);
    const char *why = NULL;
    size_t column = 0;
    char *text;

    FUZZ_ASSERT(line != NULL);
    memcpy(line, data, size);
    line[size] = '\0';
    text = ga_line_text(line, size, &column, &why);
    if (!text) {
        FUZZ_ASSERT(why != NULL && why[0] != '\0');
        FUZZ_ASSERT(column >= 1 && column <= size);
    } else {
        size_t len = strlen(text);
        FUZZ_ASSERT(len <= GA_LINE_MAX);
        FUZZ_ASSERT(len == 0 || (text[0] != ' ' && text[0] != '\t' && text[len - 1] != ' '
                                 && text[len - 1] != '\t'));
        for (size_t i = 0; i < len; i++)
            FUZZ_ASSERT((unsigned char)text[i] >= 0x20 || text[i] == '\t');
        FUZZ_ASSERT(text >= line && text + len <= line + size);
    }
    free(line);
    read_as_stream(data, size);
    return 0;
}
