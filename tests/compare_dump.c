/* compare_test.sh's helper: the outputs of a catalogue implementation on
 * every encoding of a format of 16 bits or fewer, in encoding order, as a
 * raw little-endian file, so that the test recounts compare's figures from
 * the two sides' outputs without going through compare.
 *   compare_dump NAME FORMAT FILE */
#include <stdio.h>
#include <stdlib.h>

#include "impls/impl.h"

int main(int argc, char **argv)
{
    const struct ga_impl *impl = argc == 4 ? ga_catalogue_find(argv[1]) : NULL;
    const struct ga_format *f = argc == 4 ? ga_format_by_name(argv[2]) : NULL;
    struct ga_run_failure failure;
    ga_bits *x, *y;
    size_t n;
    FILE *out;

    if (!impl || !f || f->bits > 16 || !ga_impl_supports(impl, f)) {
        fprintf(stderr, "usage: compare_dump NAME FORMAT FILE (a catalogue entry, a format of "
                "16 bits or fewer that it supports)\n");
        return 2;
    }
    n = (size_t)1 << f->bits;
    x = malloc(n * sizeof *x);
    y = malloc(n * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        x[i] = i;
    if (impl->run(impl, f, x, y, n, &failure) != 0) {
        fprintf(stderr, "compare_dump: %s failed: %s\n", impl->name, failure.what);
        free(x);
        free(y);
        return 1;
    }
    free(x);
    if (!(out = fopen(argv[3], "wb"))) {
        free(y);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char b[2] = { (unsigned char)(y[i] & 0xff), (unsigned char)(y[i] >> 8) };
        fwrite(b, 1, f->bits > 8 ? 2 : 1, out);
    }
    free(y);
    return fclose(out) == 0 ? 0 : 2;
}
