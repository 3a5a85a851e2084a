/* The golden of libgelu-acc for encodings read from stdin, using nothing but
 * the public header (tests/library_mpfr_test.sh builds it against the
 * build tree, tests/install_test.sh with pkg-config after 'make install').
 *
 *   library_golden FORMAT FUNCTION            stdin: one hex encoding x per line
 *   library_golden FORMAT FUNCTION backward   stdin: "x dy" per line (FUNCTION gelu or gelu_tanh)
 *
 * prints "x result" per line, the result in hex, or "nan" when it is a NaN
 * (any NaN matches any NaN: told by the library's own grading of the
 * result against the truth, whose ulp error is NaN exactly then).  Exit
 * status 0, or 1 with the library's message. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelu-acc/gelu-acc.h>

#define MAX_INPUTS (1u << 20)

static int fail(const char *what)
{
    fprintf(stderr, "library_golden: %s: %s\n", what, gelu_acc_last_error());
    return 1;
}

/* Encodings as the library's arrays hold them. */
static void put(void *a, size_t size, size_t i, uint64_t v)
{
    memcpy((char *)a + i * size, &v, size);  /* little-endian: the low bytes */
}

static uint64_t get(const void *a, size_t size, size_t i)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)a + i * size, size);
    return v;
}

int main(int argc, char **argv)
{
    gelu_acc_format format;
    gelu_acc_function fn;
    int backward = argc == 4 && strcmp(argv[3], "backward") == 0;
    size_t size, n = 0;
    unsigned long long a, b;
    char line[128];
    void *x, *dy, *out;
    double *ulp;
    int status;

    if ((argc != 3 && !backward) || gelu_acc_format_by_name(argv[1], &format) != GELU_ACC_OK
        || gelu_acc_function_by_name(argv[2], &fn) != GELU_ACC_OK) {
        fprintf(stderr, "usage: library_golden FORMAT FUNCTION [backward] < encodings\n");
        return 2;
    }
    size = gelu_acc_format_size(format);
    x = calloc(MAX_INPUTS, size);
    dy = calloc(MAX_INPUTS, size);
    out = calloc(MAX_INPUTS, size);
    ulp = calloc(MAX_INPUTS, sizeof *ulp);
    if (!x || !dy || !out || !ulp)
        return 1;
    while (n < MAX_INPUTS && fgets(line, sizeof line, stdin)) {
        int got = sscanf(line, "%llx %llx", &a, &b);
        if (got < 1 || (backward && got < 2))
            continue;
        put(x, size, n, a);
        put(dy, size, n, backward ? b : 0);
        n++;
    }
    status = backward ? gelu_acc_backward(fn, format, x, dy, out, n)
                      : gelu_acc_truth(fn, format, x, out, n);
    if (status != GELU_ACC_OK)
        return fail("the golden");
    status = backward ? gelu_acc_backward_ulp_error(fn, format, x, dy, out, n, ulp, NULL)
                      : gelu_acc_ulp_error(fn, format, x, out, n, ulp, NULL);
    if (status != GELU_ACC_OK)
        return fail("its grading");
    for (size_t i = 0; i < n; i++) {
        if (ulp[i] != ulp[i])
            printf("0x%" PRIx64 " nan\n", get(x, size, i));
        else
            printf("0x%" PRIx64 " 0x%" PRIx64 "\n", get(x, size, i), get(out, size, i));
    }
    free(x);
    free(dy);
    free(out);
    free(ulp);
    return 0;
}
