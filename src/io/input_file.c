#include "io/input_file.h"

#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ga_input_check(int fd, const char *path, char *err, size_t errlen)
{
    struct stat st;

    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: is a directory, not a file", path);
        return -1;
    }
    if ((S_ISCHR(st.st_mode) && !isatty(fd)) || S_ISBLK(st.st_mode)) {
        snprintf(err, errlen, "%s: is a device, not a file (give a regular file, a pipe "
                 "or a terminal)", path);
        return -1;
    }
    return 0;
}

FILE *ga_input_open(const char *path, char *err, size_t errlen)
{
    bool from_stdin = strcmp(path, "-") == 0;
    int fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    FILE *in;

    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (ga_input_check(fd, from_stdin ? "<stdin>" : path, err, errlen) != 0) {
        if (!from_stdin)
            close(fd);
        return NULL;
    }
    if (from_stdin)
        return stdin;
    if (!(in = fdopen(fd, "r"))) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return in;
}

void ga_input_close(FILE *in)
{
    if (in && in != stdin)
        fclose(in);
}
