/* Ranks without MPI (configure without --with-mpi): one rank, and the
 * gather hands the bytes back. */
#include "state/ranks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ga_ranks_start(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

unsigned ga_ranks_rank(void)
{
    return 0;
}

unsigned ga_ranks_count(void)
{
    return 1;
}

int ga_ranks_gather(const unsigned char *data, size_t size, unsigned char ***all,
                    size_t **sizes, char *why, size_t len)
{
    *all = calloc(1, sizeof **all);
    *sizes = calloc(1, sizeof **sizes);
    if (!*all || !*sizes || !((*all)[0] = malloc(size ? size : 1))) {
        ga_ranks_gather_free(*all, *sizes);
        *all = NULL;
        *sizes = NULL;
        snprintf(why, len, "out of memory");
        return -1;
    }
    memcpy((*all)[0], data, size);
    (*sizes)[0] = size;
    return 0;
}

void ga_ranks_gather_free(unsigned char **all, size_t *sizes)
{
    if (all)
        free(all[0]);
    free(all);
    free(sizes);
}

int ga_ranks_finish(int status)
{
    return status;
}
