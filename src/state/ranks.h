/* Ranks: the processes of one command started together by mpirun, when
 * gelu-acc is built with ./configure --with-mpi.  Rank r of P measures
 * shard r+1 of P (state/shard.h) and hands its partial state to rank 0,
 * which merges them exactly and alone prints or writes the result.
 *
 * Only ranks_mpi.c calls MPI; without --with-mpi, ranks_single.c makes
 * every process a command of one rank.  A process that mpirun did not
 * start is one rank too: MPI is not even initialized then. */
#ifndef GA_CLI_RANKS_H
#define GA_CLI_RANKS_H

#include <stddef.h>

/* Join the other ranks when mpirun started this process: 0, or -1 when MPI
 * could not be initialized.  This, ga_ranks_finish and the gather's abort
 * are the process's own, called from main: they may end it. */
int ga_ranks_start(int *argc, char ***argv);

/* This process's rank (0 .. P-1) and the number of ranks P. */
unsigned ga_ranks_rank(void);
unsigned ga_ranks_count(void);

/* Every rank hands `size` bytes; rank 0 gets a new array of P buffers (and
 * their sizes) in rank order, the others NULL.  Collective: once per command.
 * 0, or -1 with why (out of memory, or a message too large).  Rank 0 out of
 * memory for another rank's bytes stops every rank (a message on stderr,
 * then MPI_Abort): the others are waiting to send. */
int ga_ranks_gather(const unsigned char *data, size_t size, unsigned char ***all,
                    size_t **sizes, char *why, size_t len);

/* Free what ga_ranks_gather gave rank 0. */
void ga_ranks_gather_free(unsigned char **all, size_t *sizes);

/* The end of the command with exit status `status`.  A rank that fails
 * before the gather stops every rank (the others would wait for it
 * forever); mpirun then exits with that status. */
int ga_ranks_finish(int status);

#endif
