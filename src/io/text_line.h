/* Lines of the plain-text files the suite reads (encodings, baselines).
 * A line ends with "\n" or "\r\n" (or the end of the file), holds at most
 * GA_LINE_MAX bytes, and no control character but tabs: a NUL would hide
 * the rest of the line from C string functions, so it is refused, not cut. */
#ifndef GA_TEXT_LINE_H
#define GA_TEXT_LINE_H

#include <stddef.h>
#include <stdio.h>

#define GA_LINE_MAX 4096
/* Room for a line ga_line_read may hand over: GA_LINE_MAX bytes, "\r\n"
 * and a terminating NUL. */
#define GA_LINE_BUF (GA_LINE_MAX + 3)

/* One line of in into buf, without reading past what can be refused: at
 * most GA_LINE_MAX + 2 bytes, and no byte after a NUL or control character
 * (but tabs and carriage returns), so /dev/zero or a file of one endless line
 * costs a few kilobytes, and ga_line_text then names the first offending
 * byte.  Returns the bytes read (with the newline, if one ended the line),
 * NUL-terminated; 0 at the end of the file or on a read error (ferror). */
size_t ga_line_read(FILE *in, char buf[GA_LINE_BUF]);

/* A line as getline read it (len bytes, with its newline if any), without
 * the newline and without blanks (spaces, tabs) at both ends, cut in place.
 * NULL when the line is refused: *why says why and *column (from 1) where. */
char *ga_line_text(char *line, size_t len, size_t *column, const char **why);

/* s without blanks (spaces, tabs) at both ends (trailing ones cut in place). */
char *ga_trim(char *s);

#endif
