/* The machine a real library ran on, for report headers (real.h). */
#define _GNU_SOURCE
#include "real/real.h"

#include <cpuid.h>
#include <stdbool.h>
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

/* F16C from CPUID leaf 1 (ECX bit 29): clang 14's __builtin_cpu_supports
 * does not know the name. */
static bool has_f16c(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_F16C) != 0;
}

/* AMX from CPUID leaf 7 (EDX bits 22, 24, 25: AMX-BF16, AMX-TILE,
 * AMX-INT8), which oneDNN dispatches on; the compilers' names do not reach
 * back to GCC 12 and clang 14. */
static void add_amx(char *isa, size_t size, size_t *used)
{
    unsigned a, b, c, d;

    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return;
    if (d & (1u << 24))
        add(isa, size, used, "amx-tile");
    if (d & (1u << 22))
        add(isa, size, used, "amx-bf16");
    if (d & (1u << 25))
        add(isa, size, used, "amx-int8");
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
    if (has_f16c())
        add(isa, isa_size, &used, "f16c");
    FLAG("avx512f");
    FLAG("avx512bw");
    FLAG("avx512vl");
    FLAG("avx512bf16");
#undef FLAG
    add_amx(isa, isa_size, &used);
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
