/* Lines (io/text_line.h): an accepted line comes back without newline,
 * blanks at its ends, NUL or control characters, within GA_LINE_MAX bytes;
 * a refused one says why and where, inside the line. */
#include "fuzz.h"

#include "io/text_line.h"

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
    return 0;
}
