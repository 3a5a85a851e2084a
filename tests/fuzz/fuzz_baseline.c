/* Baseline files (check/baseline.h): a refusal names the file and the line;
 * an accepted baseline has no NUL byte, distinct, named sections with a kernel and a
 * format, a domain that fits, and bounds that mean what the README says
 * (max_ulp >= 0, LO < 0 < HI). */
#include "fuzz.h"

#include "check/baseline.h"

static void check_entry(const struct ga_baseline *b, size_t i)
{
    const struct ga_baseline_entry *e = &b->entries[i];
    const struct ga_format *f = e->format;

    FUZZ_ASSERT(e->name[0] && e->kernel[0] && f && e->domain[0]);
    for (size_t j = 0; j < i; j++)
        FUZZ_ASSERT(strcmp(b->entries[j].name, e->name) != 0);
    for (int r = 0; r <= GA_REGION_COUNT; r++) {
        const struct ga_bounds *bd = &e->region[r];
        const struct ga_faithful_interval *fi = &bd->faithful_interval;
        if (bd->has_max_ulp)
            FUZZ_ASSERT(bd->max_ulp >= 0);
        if (bd->has_interval && fi->exists) {
            FUZZ_ASSERT(!fi->has_lo || ga_decode(f, fi->lo) < 0);
            FUZZ_ASSERT(!fi->has_hi || ga_decode(f, fi->hi) > 0);
        }
        if (bd->has_zero_below && bd->zero_below_exists)
            FUZZ_ASSERT(!ga_is_nan(f, bd->zero_below));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024] = "";
    int fd = fuzz_file(data, size, path);
    struct ga_baseline b;

    if (ga_baseline_read(path, &b, err, sizeof err) != 0) {
        FUZZ_ASSERT(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':');
        FUZZ_ASSERT(strlen(err) > strlen(path) + 2);
    } else {
        FUZZ_ASSERT(b.count >= 1);
        FUZZ_ASSERT(memchr(data, '\0', size) == NULL);  /* a NUL would hide text */
        for (size_t i = 0; i < b.count; i++)
            check_entry(&b, i);
        ga_baseline_free(&b);
    }
    close(fd);
    return 0;
}
