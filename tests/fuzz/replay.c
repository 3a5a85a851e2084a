/* Runs a fuzz harness over its committed corpus (tests/fuzz/corpus/NAME/,
 * or the directory given as argument): the regression cases of the parsers,
 * in 'make check', with any compiler and without libFuzzer.  TAP: one line
 * per input, so that a crash or a failed assertion names the last one. */
#include "fuzz.h"

#include <dirent.h>

#ifndef FUZZ_HARNESS
#error "FUZZ_HARNESS: the harness's name, its corpus directory"
#endif

static int read_input(const char *path, uint8_t **data, size_t *size)
{
    FILE *in = fopen(path, "rb");
    long n;

    if (!in)
        return -1;
    if (fseek(in, 0, SEEK_END) != 0 || (n = ftell(in)) < 0 || fseek(in, 0, SEEK_SET) != 0
        || !(*data = malloc((size_t)n + 1)) || fread(*data, 1, (size_t)n, in) != (size_t)n) {
        fclose(in);
        return -1;
    }
    *size = (size_t)n;
    fclose(in);
    return 0;
}

static int not_hidden(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

int main(int argc, char **argv)
{
    const char *top = getenv("top_srcdir");
    char dir[4096], path[8192];
    struct dirent **names;
    int n, failed = 0;

    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", top ? top : ".", FUZZ_HARNESS);
    n = scandir(dir, &names, not_hidden, alphasort);
    if (n <= 0) {
        printf("Bail out! no corpus in %s\n", dir);
        return 1;
    }
    printf("1..%d\n", n);
    for (int i = 0; i < n; i++) {
        uint8_t *data = NULL;
        size_t size = 0;

        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        printf("# %s\n", names[i]->d_name);
        fflush(stdout);
        if (read_input(path, &data, &size) != 0) {
            printf("not ok %d - %s: cannot read\n", i + 1, names[i]->d_name);
            failed++;
        } else {
            LLVMFuzzerTestOneInput(data, size);  /* aborts on a finding */
            printf("ok %d - %s %s\n", i + 1, FUZZ_HARNESS, names[i]->d_name);
        }
        free(data);
        free(names[i]);
    }
    free(names);
    return failed ? 1 : 0;
}
