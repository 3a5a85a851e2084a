/* Arrays that grow one item at a time (sections of a file, open boundaries
 * of a shape): the capacity doubles, so n additions copy O(n) items. */
#ifndef GA_GROW_H
#define GA_GROW_H

#include <stddef.h>

/* items holds count items of `size` bytes in room for *capacity.  Returns
 * items, or a larger copy with room for at least count + 1 (the capacity
 * doubles, starting at `first`), or NULL out of memory, items left as they
 * were. */
void *ga_grow(void *items, size_t count, size_t *capacity, size_t size, size_t first);

#endif
