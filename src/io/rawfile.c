/* Raw little-endian element files. */
#include "io/rawfile.h"

#include <inttypes.h>

enum ga_io_status ga_raw_open(const char *path, const struct ga_format *f,
                              struct ga_array_reader *r, struct ga_io_error *err)
{
    size_t es = ga_element_size(f);
    uint64_t size;
    enum ga_io_status st;

    st = ga_array_open_fd(r, path, f, GA_FILE_RAW, &size, err);
    if (st != GA_IO_OK)
        return st;
    if (size % es != 0) {
        ga_array_close(r);
        return ga_io_fail(err, GA_IO_MALFORMED,
                          "%s: %" PRIu64 " bytes is not a whole number of %zu-byte %s "
                          "elements (%" PRIu64 " bytes left over at byte %" PRIu64 ")",
                          path, size, es, f->name, size % es, size - size % es);
    }
    r->data_offset = 0;
    r->length = size / es;
    return ga_io_ok(err);
}

enum ga_io_status ga_raw_create(const char *path, const struct ga_format *f,
                                uint64_t length, bool overwrite,
                                struct ga_array_writer *w, struct ga_io_error *err)
{
    return ga_array_start_writer(w, path, f, GA_FILE_RAW, length, overwrite, err);
}
