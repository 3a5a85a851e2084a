/* The machine a real library ran on, for report headers (real.h). */
#define _GNU_SOURCE
#include "real/real.h"

#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

static void add(char *isa, size_t size, size_t *used, const char *name)
{
    if (*used + strlen(name) + 2 < size)
        *used += (size_t)snprintf(isa + *used, size - *used, "%s%s", *used ? " " : "", name);
}

void ga_real_cpu(char *model, size_t model_size, char *isa, size_t isa_size)
{
    FILE *in = fopen("/proc/cpuinfo", "r");
    char line[512];
    size_t used = 0;

    snprintf(model, model_size, "unknown CPU");
    while (in != NULL && fgets(line, sizeof line, in) != NULL) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon != NULL) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(model, model_size, "%s", colon);
            break;
        }
    }
    if (in != NULL)
        fclose(in);
    isa[0] = '\0';
    __builtin_cpu_init();
    /* The extensions that decide the libraries' dispatch (a literal each:
     * __builtin_cpu_supports wants one). */
#define FLAG(name) if (__builtin_cpu_supports(name)) add(isa, isa_size, &used, name)
    FLAG("avx");
    FLAG("avx2");
    FLAG("fma");
    FLAG("f16c");
    FLAG("avx512f");
    FLAG("avx512bw");
    FLAG("avx512vl");
    FLAG("avx512bf16");
#undef FLAG
    if (used == 0)
        snprintf(isa, isa_size, "x86-64 baseline");
}

const char *ga_real_libc_version(void)
{
#ifdef __GLIBC__
    return gnu_get_libc_version();
#else
    return "unknown";
#endif
}
