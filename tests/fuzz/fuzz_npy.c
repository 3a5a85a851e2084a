/* NumPy .npy files (io/npy.h), with the format named by the dtype and with
 * each format given: a refusal names the file; an accepted file is exactly
 * its header (without NUL bytes) and its elements, which read back. */
#include "fuzz.h"

#include "io/npy.h"

static void open_as(const char *path, const struct ga_format *f, const uint8_t *data,
                    size_t size)
{
    struct ga_array_reader r;
    struct ga_io_error err = { 0 };
    ga_bits x;

    if (ga_npy_open(path, f, &r, &err) != GA_IO_OK) {
        FUZZ_ASSERT(err.status != GA_IO_OK);
        FUZZ_ASSERT(strncmp(err.message, path, strlen(path)) == 0);
        return;
    }
    FUZZ_ASSERT(f == NULL || r.format == f);
    FUZZ_ASSERT(r.data_offset + r.length * ga_element_size(r.format) == size);
    /* a NUL in the header text (after the magic, version and length: 10
     * bytes in version 1, 12 in version 2) would hide the rest of a string */
    size_t text_at = data[6] == 1 ? 10 : 12;
    FUZZ_ASSERT(r.data_offset >= text_at
                && memchr(data + text_at, '\0', r.data_offset - text_at) == NULL);
    if (r.length > 0) {
        /* a byte of a 6- or 4-bit format may set bits above its width: that
         * element is refused when read, naming the file */
        enum ga_io_status st = ga_array_read(&r, r.length - 1, 1, &x, &err);
        FUZZ_ASSERT(st == GA_IO_OK || (r.format->bits % 8 != 0
                                       && strncmp(err.message, path, strlen(path)) == 0));
        FUZZ_ASSERT(st != GA_IO_OK || ga_fits(r.format, x));
    }
    ga_array_close(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path);

    open_as(path, NULL, data, size);
    for (int id = 0; id < GA_FORMAT_COUNT; id++)
        open_as(path, ga_format_get((enum ga_format_id)id), data, size);
    close(fd);
    return 0;
}
