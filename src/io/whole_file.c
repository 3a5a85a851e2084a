#include "io/whole_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"
#include "io/input_file.h"

enum ga_io_status ga_whole_file_read(const char *path, size_t max, const char *what,
                                     unsigned char **out, size_t *out_size,
                                     struct ga_io_error *err)
{
    FILE *in = fopen(path, "rb");
    unsigned char *data = NULL;
    size_t size = 0, cap = 0;

    *out = NULL;
    *out_size = 0;
    char why[600];

    if (!in)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: %s", path, strerror(errno));
    if (ga_input_check(fileno(in), path, why, sizeof why) != 0) {
        fclose(in);
        return ga_io_fail(err, GA_IO_MALFORMED, "%s", why);
    }
    for (;;) {
        size_t got;
        if (size == cap) {
            unsigned char *grown = cap < max ? realloc(data, cap ? 2 * cap : 65536) : NULL;
            if (!grown) {
                free(data);
                fclose(in);
                return cap < max ? ga_io_fail(err, GA_IO_SYSTEM, "out of memory")
                     : ga_io_fail(err, GA_IO_MALFORMED, "%s: larger than any %s", path, what);
            }
            data = grown;
            cap = cap ? 2 * cap : 65536;
        }
        got = fread(data + size, 1, cap - size, in);
        size += got;
        if (got == 0)
            break;
    }
    if (ferror(in)) {
        free(data);
        fclose(in);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s: cannot read it", path);
    }
    fclose(in);
    *out = data;
    *out_size = size;
    return ga_io_ok(err);
}

enum ga_io_status ga_whole_file_write(const char *path, const void *data, size_t size,
                                      bool overwrite, struct ga_io_error *err)
{
    struct ga_atomic_file file;
    enum ga_io_status s = ga_atomic_open(&file, path, overwrite, err);

    if (s != GA_IO_OK)
        return s;
    if ((s = ga_atomic_write(&file, data, size, err)) == GA_IO_OK)
        return ga_atomic_commit(&file, err);
    ga_atomic_abort(&file);
    return s;
}

enum ga_io_status ga_whole_file_save(const char *path, ga_whole_file_encoder encode,
                                     const void *object, struct ga_io_error *err)
{
    unsigned char *data;
    size_t size;
    enum ga_io_status s = encode(object, &data, &size, err);

    if (s != GA_IO_OK)
        return s;
    s = ga_whole_file_write(path, data, size, true, err);
    free(data);
    return s;
}

enum ga_io_status ga_whole_file_load(const char *path, size_t max, const char *what,
                                     ga_whole_file_decoder decode, void *object,
                                     struct ga_io_error *err)
{
    unsigned char *data;
    size_t size;
    struct ga_io_error why;
    enum ga_io_status s = ga_whole_file_read(path, max, what, &data, &size, err);

    if (s != GA_IO_OK)
        return s;
    s = decode(data, size, object, &why);
    free(data);
    if (s != GA_IO_OK)
        return ga_io_fail(err, s, "%s: %s", path, why.message);
    return ga_io_ok(err);
}
