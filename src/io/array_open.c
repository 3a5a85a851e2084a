/* Telling .npy from raw files by their first bytes. */
#include "io/array_open.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/npy.h"
#include "io/rawfile.h"

/* numpy.lib.format.MAGIC_PREFIX */
static const char npy_magic[6] = "\x93NUMPY";

/* The first bytes of a .npy whose magic was damaged: four of its six bytes
 * in place, or a header dict's 'descr' key where a header starts.  A raw
 * array begins so by chance with odds below 2^-30. */
static bool almost_npy(const unsigned char *head, size_t got)
{
    int same = 0;

    if (got < sizeof npy_magic)
        return false;
    for (size_t i = 0; i < sizeof npy_magic; i++)
        same += head[i] == (unsigned char)npy_magic[i];
    return same >= 4 || (got >= 18 && (memcmp(head + 10, "{'descr'", 8) == 0
                                       || memcmp(head + 12, "{'descr'", 6) == 0));
}

enum ga_io_status ga_file_detect(const char *path, enum ga_file_kind *kind,
                                 struct ga_io_error *err)
{
    unsigned char head[20];
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
    if (got >= sizeof npy_magic && memcmp(head, npy_magic, sizeof npy_magic) == 0) {
        *kind = GA_FILE_NPY;
        return ga_io_ok(err);
    }
    if (almost_npy(head, got))
        return ga_io_fail(err, GA_IO_MALFORMED, "%s: bytes 0-5 are %02x %02x %02x %02x %02x "
                          "%02x, not the .npy magic 93 4e 55 4d 50 59 (\\x93NUMPY) but close "
                          "to it: a damaged .npy, not read as raw", path, head[0], head[1],
                          head[2], head[3], head[4], head[5]);
    *kind = GA_FILE_RAW;
    return ga_io_ok(err);
}

/* The bytes of in (from where it stands) into an unlinked temporary file,
 * at most max of them; its descriptor, or -1 with the reason in err. */
static int spool(FILE *in, const char *name, uint64_t max, struct ga_io_error *err)
{
    FILE *copy = tmpfile();
    char buf[65536];
    uint64_t total = 0;
    size_t got;
    int fd;

    if (!copy) {
        ga_io_fail(err, GA_IO_SYSTEM, "%s: no temporary file to hold it: %s", name,
                   strerror(errno));
        return -1;
    }
    while ((got = fread(buf, 1, sizeof buf, in)) > 0) {
        if (total + got > max) {
            fclose(copy);
            ga_io_fail(err, GA_IO_RANGE, "%s: more than %" PRIu64 " bytes, beyond the largest "
                       ".npy of %s read through a pipe", name, max, GA_NPY_STREAM_WHAT);
            return -1;
        }
        if (fwrite(buf, 1, got, copy) != got) {
            fclose(copy);
            ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot hold it in a temporary file: %s", name,
                       strerror(errno));
            return -1;
        }
        total += got;
    }
    if (ferror(in) || fflush(copy) != 0 || (fd = dup(fileno(copy))) < 0) {
        ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot read: %s", name, strerror(errno));
        fclose(copy);
        return -1;
    }
    fclose(copy);
    return fd;
}

enum ga_io_status ga_npy_read_stream(FILE *in, const char *name, const struct ga_format *f,
                                     ga_bits **v, size_t *n, struct ga_io_error *err)
{
    struct ga_array_reader r;
    struct stat st;
    enum ga_io_status s;
    int fd;

    *v = NULL;
    *n = 0;
    if (fstat(fileno(in), &st) != 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot stat: %s", name, strerror(errno));
    /* A regular file is read where it lies; a pipe is held whole first. */
    fd = S_ISREG(st.st_mode) ? dup(fileno(in)) : spool(in, name, GA_NPY_STREAM_MAX, err);
    if (fd < 0)
        return S_ISREG(st.st_mode) ? ga_io_fail(err, GA_IO_SYSTEM, "%s: %s", name,
                                                strerror(errno))
                                   : err ? err->status : GA_IO_SYSTEM;
    s = ga_npy_open_fd(fd, name, f, &r, err);
    if (s != GA_IO_OK)
        return s;
    if (r.length > GA_NPY_STREAM_ELEMENTS) {
        ga_array_close(&r);
        return ga_io_fail(err, GA_IO_RANGE, "%s: %" PRIu64 " elements, beyond the %s a domain "
                          "holds", name, r.length, GA_NPY_STREAM_WHAT);
    }
    s = ga_array_read_all(&r, v, n, err);
    ga_array_close(&r);
    return s;
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
