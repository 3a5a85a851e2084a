/* Raw files (io/rawfile.h): accepted exactly when the size is a whole
 * number of elements, refused with the file's name otherwise. */
#include "fuzz.h"

#include "io/rawfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path);

    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        size_t es = ga_element_size(f);
        struct ga_array_reader r;
        struct ga_io_error err = { 0 };
        ga_bits x;

        if (ga_raw_open(path, f, &r, &err) != GA_IO_OK) {
            FUZZ_ASSERT(size % es != 0);
            FUZZ_ASSERT(strncmp(err.message, path, strlen(path)) == 0);
            continue;
        }
        FUZZ_ASSERT(size % es == 0 && r.length == size / es);
        if (r.length > 0) {
            /* a byte with bits above a 6- or 4-bit format is refused */
            unsigned char last = data[size - 1];
            enum ga_io_status st = ga_array_read(&r, r.length - 1, 1, &x, &err);
            FUZZ_ASSERT(st == (es == 1 && !ga_fits(f, last) ? GA_IO_RANGE : GA_IO_OK));
            FUZZ_ASSERT(st != GA_IO_OK || ga_fits(f, x));
        }
        ga_array_close(&r);
    }
    close(fd);
    return 0;
}
