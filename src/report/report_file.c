#include "report/report_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/atomic_file.h"

enum ga_io_status ga_write_report_file(const char *dir, const char *name, bool overwrite,
                                       ga_report_writer writer, const void *ctx,
                                       struct ga_io_error *err)
{
    char *buf = NULL, *path = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    struct ga_atomic_file file;
    enum ga_io_status status;
    int rendered;

    if (!mem)
        return ga_io_fail(err, GA_IO_SYSTEM, "%s/%s: out of memory", dir, name);
    rendered = writer(mem, ctx);
    if (fclose(mem) != 0 || rendered != 0) {
        free(buf);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s/%s: could not render the report", dir, name);
    }
    path = malloc(strlen(dir) + strlen(name) + 2);
    if (!path) {
        free(buf);
        return ga_io_fail(err, GA_IO_SYSTEM, "%s/%s: out of memory", dir, name);
    }
    sprintf(path, "%s/%s", dir, name);
    status = ga_atomic_open(&file, path, overwrite, err);
    if (status == GA_IO_OK) {
        status = ga_atomic_write(&file, buf, len, err);
        if (status == GA_IO_OK)
            status = ga_atomic_commit(&file, err);
        else
            ga_atomic_abort(&file);
    }
    free(path);
    free(buf);
    return status;
}
