#include "truth/function.h"

#include <string.h>

static const char *const names[GA_FUNCTION_COUNT] = {
    [GA_GELU] = "gelu",
    [GA_GELU_TANH] = "gelu_tanh",
};

const char *ga_function_name(enum ga_function fn)
{
    return (unsigned)fn < GA_FUNCTION_COUNT ? names[fn] : "?";
}

int ga_function_by_name(const char *name, enum ga_function *fn)
{
    for (int i = 0; i < GA_FUNCTION_COUNT; i++)
        if (strcmp(names[i], name) == 0) {
            *fn = (enum ga_function)i;
            return 0;
        }
    return -1;
}
