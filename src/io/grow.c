#include "io/grow.h"

#include <stdint.h>
#include <stdlib.h>

void *ga_grow(void *items, size_t count, size_t *capacity, size_t size, size_t first)
{
    size_t wanted = *capacity ? 2 * *capacity : first;
    void *bigger;

    if (count < *capacity)
        return items;
    if (wanted < *capacity || wanted > SIZE_MAX / size)
        return NULL;
    if (!(bigger = realloc(items, wanted * size)))
        return NULL;
    *capacity = wanted;
    return bigger;
}
