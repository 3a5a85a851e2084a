/* A directory held by one run at a time: an exclusive flock(2) on the
 * directory itself.  No lock file is written, so none is left behind, and
 * the kernel drops the lock when the process ends, however it ends: nothing
 * is stale after a SIGKILL. */
#ifndef GA_DIR_LOCK_H
#define GA_DIR_LOCK_H

#include "io/io_error.h"

/* Lock dir (which exists) for this process; *fd holds the lock until
 * ga_dir_unlock or the end of the process.  GA_IO_EXISTS when another
 * process holds it ("DIR: in use by another run"), GA_IO_SYSTEM when the
 * directory cannot be opened. */
enum ga_io_status ga_dir_lock(const char *dir, int *fd, struct ga_io_error *err);

void ga_dir_unlock(int fd);

#endif
