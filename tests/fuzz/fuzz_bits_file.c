/* Files of encodings (io/bits_file.h): a refusal names the file and the
 * line; an accepted file has no NUL byte, every encoding read fits the
 * format, and there are no more of them than lines. */
#include "fuzz.h"

#include "io/bits_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path);
    size_t lines = 1;

    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        char err[512] = "";
        ga_bits *v = NULL;
        size_t n = 0;

        if (ga_read_bits_file(path, f, &v, &n, err, sizeof err) != 0) {
            FUZZ_ASSERT(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':');
            continue;
        }
        FUZZ_ASSERT(n <= lines);
        FUZZ_ASSERT(memchr(data, '\0', size) == NULL);  /* a NUL would hide text */
        for (size_t i = 0; i < n; i++)
            FUZZ_ASSERT(ga_fits(f, v[i]));
        free(v);
    }
    close(fd);
    return 0;
}
