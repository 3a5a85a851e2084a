/* Ranks over MPI (configure --with-mpi): the one file that calls MPI.
 *
 * MPI is initialized only in a process that an MPI launcher started (it
 * sets OMPI_COMM_WORLD_SIZE, PMIX_RANK or PMI_RANK), so that a plain
 * `gelu-acc ...` stays one process that starts no MPI runtime. */
#include "state/ranks.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

static int started, gathered;
static int rank, count = 1;

int ga_ranks_start(int *argc, char ***argv)
{
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_RANK"))
        return 0;
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return -1;
    started = 1;
    /* errors stop every rank, with MPI's message: none of them can be
     * recovered from in the middle of a command */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &count);
    return 0;
}

unsigned ga_ranks_rank(void)
{
    return (unsigned)rank;
}

unsigned ga_ranks_count(void)
{
    return (unsigned)count;
}

void ga_ranks_gather_free(unsigned char **all, size_t *sizes)
{
    for (int r = 0; all && r < count; r++)
        free(all[r]);
    free(all);
    free(sizes);
}

int ga_ranks_gather(const unsigned char *data, size_t size, unsigned char ***all,
                    size_t **sizes, char *why, size_t len)
{
    uint64_t mine = size, *theirs = NULL;
    unsigned char **bufs = NULL;
    size_t *lens = NULL;

    *all = NULL;
    *sizes = NULL;
    if (size > INT_MAX) {
        snprintf(why, len, "rank %d of %d: a partial of %zu bytes is too large to send", rank,
                 count, size);
        return -1;
    }
    if (rank == 0 && (!(theirs = calloc((size_t)count, sizeof *theirs))
                      || !(bufs = calloc((size_t)count, sizeof *bufs))
                      || !(lens = calloc((size_t)count, sizeof *lens)))) {
        snprintf(why, len, "rank 0: out of memory");
        free(theirs);
        free(bufs);
        return -1;
    }
    MPI_Gather(&mine, 1, MPI_UINT64_T, theirs, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    gathered = 1;
    if (rank != 0) {
        MPI_Send(data, (int)size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        return 0;
    }
    for (int r = 0; r < count; r++) {
        lens[r] = (size_t)theirs[r];
        if (theirs[r] > INT_MAX || !(bufs[r] = malloc(lens[r] ? lens[r] : 1))) {
            fprintf(stderr, "gelu-acc: rank 0: out of memory for the partial of rank %d\n", r);
            free(theirs);
            ga_ranks_gather_free(bufs, lens);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        if (r == 0)
            for (size_t i = 0; i < size; i++)
                bufs[0][i] = data[i];
        else
            MPI_Recv(bufs[r], (int)lens[r], MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(theirs);
    *all = bufs;
    *sizes = lens;
    return 0;
}

int ga_ranks_finish(int status)
{
    if (!started)
        return status;
    if (status != 0 && !gathered && count > 1) {
        fprintf(stderr, "gelu-acc: rank %d of %d stopped with status %d: stopping every "
                "rank\n", rank, count, status);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    MPI_Finalize();
    return status;
}
