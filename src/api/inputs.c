/* The inputs of a domain, as arrays of the caller's (gelu_acc_inputs). */
#include <stdint.h>
#include <stdlib.h>

#include "api/api_array.h"
#include "api/api_status.h"
#include "domain/domain.h"

GELU_ACC_API int gelu_acc_inputs(gelu_acc_format format, const char *domain, void **x, size_t *n)
{
    const struct ga_format *f;
    struct ga_domain d;
    ga_bits block[GA_API_BLOCK];
    char why[1024];
    void *array;

    ga_api_clear();
    if (!domain || !x || !n)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "gelu_acc_inputs: a NULL argument");
    if (!(f = ga_api_format(format)))
        return GELU_ACC_E_ARGUMENT;
    if (ga_domain_parse(&d, domain, f, why, sizeof why) != 0)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "domain '%s': %s", domain, why);
    if (d.size > SIZE_MAX / (size_t)ga_storage_bytes(f)
        || !(array = malloc(d.size ? (size_t)d.size * (size_t)ga_storage_bytes(f) : 1))) {
        ga_domain_free(&d);
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for the %llu inputs of '%s'",
                           (unsigned long long)d.size, domain);
    }
    for (uint64_t first = 0; first < d.size; first += GA_API_BLOCK) {
        size_t m = d.size - first < GA_API_BLOCK ? (size_t)(d.size - first) : GA_API_BLOCK;
        ga_domain_fill(&d, first, m, block);  /* no source: it cannot fail */
        ga_api_store(f, array, (size_t)first, m, block);
    }
    *x = array;
    *n = (size_t)d.size;
    ga_domain_free(&d);
    return GELU_ACC_OK;
}

GELU_ACC_API void gelu_acc_free(void *p)
{
    free(p);
}
