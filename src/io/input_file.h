/* Opening a file the user named for reading.  A regular file, a pipe, a
 * socket or a terminal is read; a directory or another device is refused
 * before a byte is read (reading /dev/zero or /dev/urandom never ends). */
#ifndef GA_INPUT_FILE_H
#define GA_INPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* 0 when the open descriptor fd can be read as the file `path`; else -1
 * with "PATH: is a directory, not a file" (or "a device") in err. */
int ga_input_check(int fd, const char *path, char *err, size_t errlen);

/* path opened for reading ("-": standard input, not closed by
 * ga_input_close), checked as above; NULL with the reason in err. */
FILE *ga_input_open(const char *path, char *err, size_t errlen);

/* Close what ga_input_open returned (standard input stays open). */
void ga_input_close(FILE *in);

#endif
