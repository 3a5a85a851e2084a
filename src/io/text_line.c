#include "io/text_line.h"

#include <string.h>

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* A byte after which the line is refused whatever follows. */
static int is_refused(int c)
{
    return c == '\0' || (c < 0x20 && c != '\t' && c != '\r') || c == 0x7f;
}

size_t ga_line_read(FILE *in, char buf[GA_LINE_BUF])
{
    size_t len = 0;
    int c;

    while (len < GA_LINE_MAX + 2 && (c = getc_unlocked(in)) != EOF) {
        buf[len++] = (char)c;
        if (c == '\n' || is_refused(c))
            break;
    }
    buf[len] = '\0';
    return len;
}

char *ga_line_text(char *line, size_t len, size_t *column, const char **why)
{
    if (len > 0 && line[len - 1] == '\n')
        line[--len] = '\0';
    if (len > 0 && line[len - 1] == '\r')  /* CRLF */
        line[--len] = '\0';
    if (len > GA_LINE_MAX) {
        *column = GA_LINE_MAX + 1;
        *why = "line longer than 4096 bytes";
        return NULL;
    }
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\0' || (c < 0x20 && c != '\t') || c == 0x7f) {
            *column = i + 1;
            *why = c == '\0' ? "NUL byte" : c == '\r' ? "carriage return inside the line"
                                                      : "control character";
            return NULL;
        }
    }
    return ga_trim(line);
}

char *ga_trim(char *s)
{
    char *end;

    while (is_blank(*s))
        s++;
    end = s + strlen(s);
    while (end > s && is_blank(end[-1]))
        *--end = '\0';
    return s;
}
