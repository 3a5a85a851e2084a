#include "truth/function.h"

#include <string.h>

static const char *const names[GA_ALL_FUNCTION_COUNT] = {
    [GA_GELU] = "gelu",
    [GA_GELU_TANH] = "gelu_tanh",
    [GA_GELU_GRAD] = "gelu_grad",
    [GA_GELU_TANH_GRAD] = "gelu_tanh_grad",
};

const char *ga_function_name(enum ga_function fn)
{
    return (unsigned)fn < GA_ALL_FUNCTION_COUNT ? names[fn] : "?";
}

static int by_name(const char *name, int count, enum ga_function *fn)
{
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0) {
            *fn = (enum ga_function)i;
            return 0;
        }
    return -1;
}

int ga_function_by_name(const char *name, enum ga_function *fn)
{
    return by_name(name, GA_FUNCTION_COUNT, fn);
}

int ga_oracle_function_by_name(const char *name, enum ga_function *fn)
{
    return by_name(name, GA_ALL_FUNCTION_COUNT, fn);
}
