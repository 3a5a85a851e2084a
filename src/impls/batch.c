/* The failure every generated batch function reports for a format its
 * catalogue entry does not list. */
#include "impls/batch.h"

#include <stdio.h>

int ga_batch_unsupported(const struct ga_impl *impl, const struct ga_format *f,
                         size_t n, struct ga_run_failure *failure)
{
    if (failure) {
        failure->first = 0;
        failure->last = n ? n - 1 : 0;
        snprintf(failure->what, sizeof failure->what,
                 "%s does not support %s", impl->name, f->name);
    }
    return -1;
}
