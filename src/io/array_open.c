/* Telling .npy from raw files by their first bytes. */
#include "io/array_open.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io/npy.h"
#include "io/rawfile.h"

/* numpy.lib.format.MAGIC_PREFIX */
static const char npy_magic[6] = "\x93NUMPY";

enum ga_io_status ga_file_detect(const char *path, enum ga_file_kind *kind,
                                 struct ga_io_error *err)
{
    char head[sizeof npy_magic];
    size_t got = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot open: %s", path, strerror(errno));
    while (got < sizeof head) {
        ssize_t r = read(fd, head + got, sizeof head - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot read: %s", path, strerror(e));
        }
        if (r == 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    *kind = got == sizeof head && memcmp(head, npy_magic, sizeof head) == 0
            ? GA_FILE_NPY : GA_FILE_RAW;
    return ga_io_ok(err);
}

enum ga_io_status ga_file_open(const char *path, enum ga_file_kind kind,
                               const struct ga_format *f, struct ga_array_reader *r,
                               struct ga_io_error *err)
{
    enum ga_io_status st;

    r->fd = -1;
    r->path = NULL;
    if (kind == GA_FILE_AUTO) {
        st = ga_file_detect(path, &kind, err);
        if (st != GA_IO_OK)
            return st;
    }
    if (kind == GA_FILE_NPY)
        return ga_npy_open(path, f, r, err);
    if (f == NULL)
        return ga_io_fail(err, GA_IO_UNSUPPORTED,
                          "%s: a raw file does not say its format: give one (%s)",
                          path, ga_format_names());
    return ga_raw_open(path, f, r, err);
}

enum ga_io_status ga_file_read(const char *path, enum ga_file_kind kind,
                               const struct ga_format *f, ga_bits **v, size_t *n,
                               struct ga_io_error *err)
{
    struct ga_array_reader r;
    enum ga_io_status st;

    *v = NULL;
    *n = 0;
    st = ga_file_open(path, kind, f, &r, err);
    if (st != GA_IO_OK)
        return st;
    st = ga_array_read_all(&r, v, n, err);
    ga_array_close(&r);
    return st;
}

enum ga_io_status ga_file_write(const char *path, enum ga_file_kind kind,
                                const struct ga_format *f, const ga_bits *v, size_t n,
                                bool overwrite, struct ga_io_error *err)
{
    struct ga_array_writer w;
    enum ga_io_status st;

    st = kind == GA_FILE_NPY ? ga_npy_create(path, f, n, overwrite, &w, err)
                             : ga_raw_create(path, f, n, overwrite, &w, err);
    if (st != GA_IO_OK)
        return st;
    st = ga_array_append(&w, v, n, err);
    if (st != GA_IO_OK) {
        ga_array_abort(&w);
        return st;
    }
    return ga_array_commit(&w, err);
}
