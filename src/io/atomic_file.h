/* Writing a file so that readers see either nothing or all of it: the bytes
 * go to a temporary file in the same directory, which is fsync'ed and then
 * renamed over the final name.  An existing file is kept unless the caller
 * asks to overwrite it; without that, the check and the rename are one atomic
 * step (renameat2 RENAME_NOREPLACE, or link where that is missing), so two
 * writers racing for one name cannot both win. */
#ifndef GA_ATOMIC_FILE_H
#define GA_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "io/io_error.h"

struct ga_atomic_file {
    int fd;            /* of the temporary file; -1 once committed or aborted */
    char *path;        /* final name */
    char *tmp_path;    /* ".NAME.PID.N.tmp" next to it */
    bool overwrite;
};

/* Create the temporary file.  Fails early with GA_IO_EXISTS when path exists
 * and overwrite is false (checked again at commit). */
enum ga_io_status ga_atomic_open(struct ga_atomic_file *a, const char *path,
                                 bool overwrite, struct ga_io_error *err);

/* Append len bytes. */
enum ga_io_status ga_atomic_write(struct ga_atomic_file *a, const void *buf,
                                  size_t len, struct ga_io_error *err);

/* fsync, close, rename into place, fsync the directory.  Releases a in every
 * case; on failure the temporary file is removed. */
enum ga_io_status ga_atomic_commit(struct ga_atomic_file *a, struct ga_io_error *err);

/* Remove the temporary file and release a. */
void ga_atomic_abort(struct ga_atomic_file *a);

#endif
