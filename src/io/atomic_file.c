/* Atomic file creation: temporary file, fsync, rename. */
#define _GNU_SOURCE
#include "io/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Distinguishes temporary files of one process (several threads may write). */
static atomic_uint tmp_counter;

static void release(struct ga_atomic_file *a)
{
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
    free(a->path);
    free(a->tmp_path);
    a->path = a->tmp_path = NULL;
}

/* ".NAME.PID.N.tmp" in the directory of path: same file system, so rename
 * is atomic; the leading dot keeps it out of globs if we are killed. */
static char *tmp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    unsigned n = atomic_fetch_add(&tmp_counter, 1);
    char *name;

    if (asprintf(&name, "%.*s.%s.%ld.%u.tmp", (int)dir_len, path,
                 path + dir_len, (long)getpid(), n) < 0)
        return NULL;
    return name;
}

enum ga_io_status ga_atomic_open(struct ga_atomic_file *a, const char *path,
                                 bool overwrite, struct ga_io_error *err)
{
    struct stat st;

    a->fd = -1;
    a->overwrite = overwrite;
    a->path = a->tmp_path = NULL;
    if (path[0] == '\0' || path[strlen(path) - 1] == '/')
        return ga_io_fail(err, GA_IO_SYSTEM, "'%s': not a file name", path);
    if (!overwrite && lstat(path, &st) == 0)
        return ga_io_fail(err, GA_IO_EXISTS,
                          "%s: exists; not overwritten (ask to overwrite to replace it)", path);
    a->path = strdup(path);
    for (int attempt = 0; a->path != NULL && attempt < 100; attempt++) {
        a->tmp_path = tmp_name(path);
        if (a->tmp_path == NULL)
            break;
        /* 0666: the user's umask decides, as for any new file. */
        a->fd = open(a->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (a->fd >= 0)
            return ga_io_ok(err);
        if (errno != EEXIST) {
            int e = errno;
            ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot create temporary file %s: %s",
                       path, a->tmp_path, strerror(e));
            release(a);
            return GA_IO_SYSTEM;
        }
        free(a->tmp_path);
        a->tmp_path = NULL;
    }
    release(a);
    return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot create a temporary file next to it", path);
}

enum ga_io_status ga_atomic_write(struct ga_atomic_file *a, const void *buf,
                                  size_t len, struct ga_io_error *err)
{
    const char *p = buf;

    while (len > 0) {
        ssize_t w = write(a->fd, p, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return ga_io_fail(err, GA_IO_SYSTEM, "%s: write to %s failed: %s",
                              a->path, a->tmp_path, strerror(errno));
        }
        p += w;
        len -= (size_t)w;
    }
    return ga_io_ok(err);
}

/* Rename tmp to path unless path exists, atomically. */
static int rename_noreplace(const char *tmp, const char *path)
{
    struct stat st;

    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    /* File systems without RENAME_NOREPLACE: link fails with EEXIST atomically. */
    if (link(tmp, path) == 0) {
        unlink(tmp);
        return 0;
    }
    if (errno == EEXIST)
        return -1;
    /* Nor hard links (e.g. some FUSE and network file systems): best effort. */
    if (lstat(path, &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return rename(tmp, path);
}

/* The rename is durable once the directory entry is on disk. */
static void sync_directory(const char *path)
{
    char *copy = strdup(path);
    int fd;

    if (copy == NULL)
        return;
    fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);   /* some file systems refuse fsync on directories: not an error */
        close(fd);
    }
    free(copy);
}

enum ga_io_status ga_atomic_commit(struct ga_atomic_file *a, struct ga_io_error *err)
{
    enum ga_io_status st = GA_IO_OK;
    int r;

    if (fsync(a->fd) != 0)
        st = ga_io_fail(err, GA_IO_SYSTEM, "%s: fsync of %s failed: %s",
                        a->path, a->tmp_path, strerror(errno));
    r = close(a->fd);
    a->fd = -1;
    if (st == GA_IO_OK && r != 0)
        st = ga_io_fail(err, GA_IO_SYSTEM, "%s: close of %s failed: %s",
                        a->path, a->tmp_path, strerror(errno));
    if (st == GA_IO_OK) {
        r = a->overwrite ? rename(a->tmp_path, a->path)
                         : rename_noreplace(a->tmp_path, a->path);
        if (r != 0 && errno == EEXIST)
            st = ga_io_fail(err, GA_IO_EXISTS,
                            "%s: appeared while it was being written; not overwritten",
                            a->path);
        else if (r != 0)
            st = ga_io_fail(err, GA_IO_SYSTEM, "%s: rename from %s failed: %s",
                            a->path, a->tmp_path, strerror(errno));
    }
    if (st != GA_IO_OK) {
        unlink(a->tmp_path);
        release(a);
        return st;
    }
    sync_directory(a->path);
    release(a);
    return ga_io_ok(err);
}

void ga_atomic_abort(struct ga_atomic_file *a)
{
    if (a->tmp_path != NULL)
        unlink(a->tmp_path);
    release(a);
}
