/* A worker process that runs a plugin kernel where its crashes and hangs
 * cannot hurt us.
 *
 * The worker is a fork of the caller.  Both share an anonymous MAP_SHARED
 * mapping holding an input and an output array of `capacity` elements; they
 * talk over a SOCK_SEQPACKET socket pair: "run the kernel on the first count
 * elements", "done".  The child waits in recv between calls, so one worker
 * serves any number of calls at the cost of two small messages each.
 *
 * A call that ends in a signal, an exit, or no answer before the timeout
 * leaves the worker dead and reaped; stop it and start another.  The caller
 * must not set SIGCHLD to SIG_IGN or reap children with waitpid(-1): the
 * worker's exit status is how a crash is told from a timeout. */
#ifndef GA_WORKER_H
#define GA_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct ga_worker {
    pid_t pid;              /* 0 once reaped */
    int sock;               /* our end of the socket pair */
    void *map;
    size_t map_size;
    void *in, *out;         /* the two arrays in the mapping */
    size_t capacity;        /* elements per call */
    struct ga_worker *next; /* free for the owner's lists */
};

/* Kernels are called as gelu_acc_kernel_f32 when element_size is 4 and as
 * gelu_acc_kernel_f16/_bf16 (same type) when it is 2. */
typedef void ga_any_kernel(void);

enum ga_worker_result {
    GA_WORKER_OK,
    GA_WORKER_DIED,      /* killed by a signal, or exited */
    GA_WORKER_TIMEOUT,   /* no answer in time: killed */
    GA_WORKER_ERROR,     /* our side failed (fork, socket...) */
};

/* Start a worker.  NULL on failure, with the reason in why. */
struct ga_worker *ga_worker_start(ga_any_kernel *kernel, size_t element_size,
                                  size_t capacity, char *why, size_t why_size);

/* Run the kernel on w->in[0..count) into w->out[0..count).  On anything but
 * GA_WORKER_OK, what says what happened ("killed by signal 11 (Segmentation
 * fault)", "timed out after 10 s") and the worker is dead and reaped. */
enum ga_worker_result ga_worker_call(struct ga_worker *w, size_t count, double timeout_s,
                                     char *what, size_t what_size);

/* Kill if alive, reap, unmap, close, free.  NULL is ignored. */
void ga_worker_stop(struct ga_worker *w);

#endif
