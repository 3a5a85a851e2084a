/* compare_test.sh's helper: the outputs of a catalogue implementation on
 * every encoding of a format of 16 bits or fewer, in encoding order, as a
 * raw little-endian file, so that the test recounts compare's figures from
 * the two sides' outputs without going through compare.
 *   compare_dump NAME FORMAT FILE
 * or a backward model's over a pair domain (domain/pairs.h): PREFIX.x,
 * PREFIX.dy and PREFIX.dx, in the domain's order.
 *   compare_dump --backward NAME FORMAT DOMAIN PREFIX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain/pairs.h"
#include "impls/backward.h"
#include "impls/impl.h"

/* n encodings of f to PREFIX.SUFFIX; 0, or 2. */
static int write_raw(const struct ga_format *f, const ga_bits *v, size_t n, const char *prefix,
                     const char *suffix)
{
    char path[4096];
    FILE *out;

    snprintf(path, sizeof path, "%s%s", prefix, suffix);
    if (!(out = fopen(path, "wb")))
        return 2;
    for (size_t i = 0; i < n; i++) {
        unsigned char b[2] = { (unsigned char)(v[i] & 0xff), (unsigned char)(v[i] >> 8) };
        fwrite(b, 1, f->bits > 8 ? 2 : 1, out);
    }
    return fclose(out) == 0 ? 0 : 2;
}

static int dump_backward(char **argv)
{
    const struct ga_backward_impl *impl = ga_backward_catalogue_find(argv[2]);
    const struct ga_format *f = ga_format_by_name(argv[3]);
    struct ga_pairs pairs;
    char why[512];
    ga_bits *x, *dy, *dx;
    size_t n;
    int status = 2;

    if (!impl || !f || f->bits > 16 || !ga_backward_supports(impl, f)
        || ga_pairs_parse(&pairs, argv[4], f, ga_encode(f, 1.0), why, sizeof why) != 0) {
        fprintf(stderr, "usage: compare_dump --backward NAME FORMAT DOMAIN PREFIX (a backward "
                "model, a 16-bit format it supports, a pair domain of at most 2^24 pairs)\n");
        return 2;
    }
    n = (size_t)pairs.size;
    x = malloc(n * sizeof *x);
    dy = malloc(n * sizeof *dy);
    dx = malloc(n * sizeof *dx);
    if (n <= ((size_t)1 << 24) && x && dy && dx && ga_pairs_fill(&pairs, 0, n, x, dy) == 0) {
        ga_backward_run(impl, f, dy, x, dx, n);
        status = write_raw(f, x, n, argv[5], ".x") | write_raw(f, dy, n, argv[5], ".dy")
                 | write_raw(f, dx, n, argv[5], ".dx");
    }
    ga_pairs_free(&pairs);
    free(x);
    free(dy);
    free(dx);
    return status;
}

int main(int argc, char **argv)
{
    const struct ga_impl *impl = argc == 4 ? ga_catalogue_find(argv[1]) : NULL;
    const struct ga_format *f = argc == 4 ? ga_format_by_name(argv[2]) : NULL;
    struct ga_run_failure failure;
    ga_bits *x, *y;
    size_t n;

    if (argc == 6 && strcmp(argv[1], "--backward") == 0)
        return dump_backward(argv);
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
    n = (size_t)write_raw(f, y, n, argv[3], "");
    free(y);
    return (int)n;
}
