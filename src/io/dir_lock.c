#include "io/dir_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

enum ga_io_status ga_dir_lock(const char *dir, int *fd, struct ga_io_error *err)
{
    int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

    *fd = -1;
    if (d < 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot open the directory: %s", dir,
                          strerror(errno));
    while (flock(d, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e == EINTR)
            continue;
        close(d);
        return e == EWOULDBLOCK
                   ? ga_io_fail(err, GA_IO_EXISTS, "%s: in use by another gelu-acc run "
                                "writing there; wait for it to end, or choose another "
                                "directory", dir)
                   : ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot lock the directory: %s", dir,
                                strerror(e));
    }
    *fd = d;
    return ga_io_ok(err);
}

void ga_dir_unlock(int fd)
{
    if (fd >= 0)
        close(fd);  /* the lock goes with the descriptor */
}
