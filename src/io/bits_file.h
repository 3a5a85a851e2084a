/* Text files of encodings: one hexadecimal encoding per line ("0x3f80" or
 * "3f80", no sign, at most the format's bits), blanks (spaces, tabs) around
 * it; blank lines and lines whose first non-blank character is '#' are
 * skipped.  Lines as text_line.h reads them (no NUL, CRLF allowed). */
#ifndef GA_BITS_FILE_H
#define GA_BITS_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "formats/format.h"

/* Read every encoding of path ("-" for standard input) into a malloc'ed array.
 * Returns 0, or -1 with a message naming the file and line in err. */
int ga_read_bits_file(const char *path, const struct ga_format *f, ga_bits **out,
                      size_t *count, char *err, size_t errlen);

/* The same from a stream already open (ga_input_open), named `name` in
 * messages. */
int ga_read_bits_stream(FILE *in, const char *name, const struct ga_format *f, ga_bits **out,
                        size_t *count, char *err, size_t errlen);

/* The most encodings a file lists: 2^32, as many as a sweep measures. */
#define GA_BITS_FILE_MAX ((size_t)1 << 32)

#endif
