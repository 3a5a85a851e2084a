/* The run protocol of every command that measures over shards (sweep,
 * sweep --backward, audit, report): start afresh or resume from a
 * checkpoint of the same run, measure the rest of the share in slices
 * saving the checkpoint on time, merge the ranks of mpirun on rank 0, and
 * write the partial file or hand the state back to be printed; 'merge' and
 * 'audit --merge' join the files of every shard the same way.
 *
 * Each kind of state binds the protocol with one table (struct
 * ga_run_kind): its file encoding, how a saved state differs from the run
 * about to start, and how the states of every shard merge.  The protocol
 * never prints: it returns 0, or -1 with a message in why. */
#ifndef GA_RUN_H
#define GA_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "io/whole_file.h"

#define GA_RUN_WHY 1024

struct ga_run_kind {
    const char *name;          /* "partial file", "audit file", ...: messages */
    size_t max_bytes;          /* the largest file of this kind */
    ga_whole_file_encoder encode;
    /* a new state from bytes (*state freed by free, even on failure) */
    enum ga_io_status (*decode)(const unsigned char *data, size_t size, void **state,
                                struct ga_io_error *err);
    void (*free)(void *state);
    /* 0 when saved belongs to the run fresh starts (same identity, same
     * shard); else 1 and what differs in why, as "its domain is 'all',
     * this command's 'stride:4'" or "it holds shard 1/2, this command
     * measures shard 2/2" */
    int (*differs)(const void *saved, const void *fresh, char *why, size_t len);
    /* n finished states that are every shard of one run, once each, merged
     * into a new state (shard 1 of 1): 0, or -1 and why, naming the parts
     * at fault by names[i] (their files, or "rank R") */
    int (*merge)(void *const *parts, const char *const *names, size_t n, void **merged,
                 char *why, size_t len);
};

/* What a command's --shard, --partial and --checkpoint ask for. */
struct ga_run_share {
    uint32_t shard, shards;
    const char *partial;          /* write the finished state here (rank 0) */
    const char *checkpoint;       /* resume from and save to */
    double interval_s;            /* between saves */
    char rank_checkpoint[4200];   /* under mpirun: checkpoint.K-of-P */
};

/* A share of the whole run: shard 1 of 1, no files, saves every 10 s. */
void ga_run_share_init(struct ga_run_share *s);

/* Under mpirun (more than one rank): this rank measures shard rank + 1 of
 * the ranks, and keeps its own checkpoint, FILE.K-of-P. */
void ga_run_share_ranks(struct ga_run_share *s);

/* The state to measure into: *state, fresh (nothing measured), is replaced
 * by the checkpoint's when the file exists (and freed); a checkpoint of
 * another run is refused with what differs. */
int ga_run_resume(const struct ga_run_kind *k, const char *checkpoint, void **state, char *why,
                  size_t len);

/* state to path, atomically, replacing it. */
int ga_run_save(const struct ga_run_kind *k, const char *path, const void *state, char *why,
                size_t len);

/* The state of a file, read whole. */
int ga_run_load(const struct ga_run_kind *k, const char *path, void **state, char *why,
                size_t len);

/* Under mpirun: every rank's state handed to rank 0, which replaces its
 * own *state by all of them merged; the other ranks keep theirs.  Collective:
 * every rank calls it once. */
int ga_run_merge_ranks(const struct ga_run_kind *k, void **state, char *why, size_t len);

/* The files of every shard of one run, read and merged into *merged. */
int ga_run_merge_files(const struct ga_run_kind *k, char *const *paths, size_t n, void **merged,
                       char *why, size_t len);

/* The pace of a checkpointed run: chunks in slices of about a fraction of a
 * second (or of the interval, when shorter), resized from the rate
 * measured, and a save when the interval has passed. */
struct ga_run_pace {
    double interval_s, slice_s, last_save, slice_start;
    uint64_t slice;
};

/* first_slice: the chunks of the first slice (the threads' count, say). */
void ga_run_pace_start(struct ga_run_pace *p, double interval_s, uint64_t first_slice);
/* The end of the next slice from chunk next, at most end. */
uint64_t ga_run_pace_slice(struct ga_run_pace *p, uint64_t next, uint64_t end);
/* After the slice [from, to): whether a save is due now (the run not
 * finished; the caller saves once more at the end). */
bool ga_run_pace_save_due(struct ga_run_pace *p, uint64_t from, uint64_t to, uint64_t end);

#endif
