/* Lines of the plain-text files the suite reads (encodings, baselines).
 * A line ends with "\n" or "\r\n" (or the end of the file), holds at most
 * GA_LINE_MAX bytes, and no control character but tabs: a NUL would hide
 * the rest of the line from C string functions, so it is refused, not cut. */
#ifndef GA_TEXT_LINE_H
#define GA_TEXT_LINE_H

#include <stddef.h>

#define GA_LINE_MAX 4096

/* A line as getline read it (len bytes, with its newline if any), without
 * the newline and without blanks (spaces, tabs) at both ends, cut in place.
 * NULL when the line is refused: *why says why and *column (from 1) where. */
char *ga_line_text(char *line, size_t len, size_t *column, const char **why);

/* s without blanks (spaces, tabs) at both ends (trailing ones cut in place). */
char *ga_trim(char *s);

#endif
