/* A worker process that runs a plugin kernel where its crashes and hangs
 * cannot hurt us.
 *
 * The worker is a fork of the caller, which never loads the kernel's
 * library itself: the worker does (dlopen, RTLD_NOW | RTLD_LOCAL, and dlsym
 * of the kernel) once its stdout, signals and exit are contained as below,
 * and says whether it could before it takes a call; a worker whose library
 * crashes, exits or hangs while loading, or lacks the kernel, is not
 * started, and the caller is told why.  (glibc's loader lock is reset in a
 * fork's child, so the load is safe in a fork of a threaded process.)
 *
 * Both share an anonymous MAP_SHARED mapping holding an input and an output
 * area of `capacity` elements, each between two inaccessible guard pages;
 * they talk over a SOCK_SEQPACKET socket pair: "run the kernel on count
 * elements", "done".  The child waits in recv between calls, so one worker
 * serves any number of calls at the cost of two small messages each.
 *
 * A call's arrays end where their area ends (ga_worker_in/_out), so that
 * in[n] and out[n] lie on a guard page for any n: a kernel that touches one
 * dies with SIGSEGV, and the call says which array and element it touched.
 *
 * The kernel (and its library's constructors) cannot reach the caller's
 * output: the child's stdout is its stderr (a kernel's prints stay visible
 * but never mix with a JSON or CSV report), the stdio buffers it inherited
 * are discarded, and exit() ends it at once (_exit with the same status)
 * without flushing anything or running the caller's atexit handlers.  The
 * caller's stdio buffers are flushed before each fork, so that nothing
 * buffered is lost either.
 *
 * A call that ends in a signal, an exit, or no answer before the timeout
 * leaves the worker dead and reaped; stop it and start another.  The caller
 * must not set SIGCHLD to SIG_IGN or reap children with waitpid(-1): the
 * worker's exit status is how a crash is told from a timeout. */
#ifndef GA_WORKER_H
#define GA_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ga_worker {
    pid_t pid;              /* 0 once reaped */
    int sock;               /* our end of the socket pair */
    void *map;
    size_t map_size;
    char *in_end, *out_end; /* where the two areas end: guard pages follow */
    char *dy_end;           /* a backward kernel's dy area, before in; NULL for forward */
    size_t element_size;
    size_t capacity;        /* elements per call */
    char *stage;            /* a forward kernel's staged calls (ga_worker_call_staged); NULL */
    size_t stage_capacity;  /* elements staged at most: GA_WORKER_STAGED_CALLS * capacity */
    size_t stage_bytes;     /* of the staged input area, and of the output area after it */
    struct ga_worker *next; /* free for the owner's lists */
};

/* Kernels are called as gelu_acc_kernel_f32 when element_size is 4, as
 * gelu_acc_kernel_f16/_bf16 (same type) when it is 2, and as a small
 * format's byte kernel (all of the same type) when it is 1.  A backward
 * worker (a third area, dy) calls gelu_acc_backward_kernel_f32 or _f16/_bf16
 * as kernel(dy, in, out, n): in holds x, out dx. */
typedef void ga_any_kernel(void);

enum ga_worker_result {
    GA_WORKER_OK,
    GA_WORKER_DIED,      /* killed by a signal, or exited */
    GA_WORKER_OUT_OF_BOUNDS, /* killed touching a guard page: what says where */
    GA_WORKER_TIMEOUT,   /* no answer in time: killed */
    GA_WORKER_ERROR,     /* our side failed (fork, socket...) */
};

/* The kernel a worker loads: symbol in the library at path; the load may
 * take load_timeout_s. */
struct ga_worker_kernel {
    const char *path, *symbol;
    double load_timeout_s;
};

/* Start a worker, backward or forward, with the kernel loaded.  NULL on
 * failure, with the reason in why ("it died loading the library: killed by
 * signal 6 (Aborted)", "loading the library timed out after 10 s", ...). */
struct ga_worker *ga_worker_start(const struct ga_worker_kernel *kernel, size_t element_size,
                                  size_t capacity, bool backward, char *why, size_t why_size);

/* The arrays of a call of count elements: they end at the guard pages. */
static inline void *ga_worker_in(const struct ga_worker *w, size_t count)
{
    return w->in_end - count * w->element_size;
}

static inline void *ga_worker_dy(const struct ga_worker *w, size_t count)
{
    return w->dy_end - count * w->element_size;
}

static inline void *ga_worker_out(const struct ga_worker *w, size_t count)
{
    return w->out_end - count * w->element_size;
}

/* Run the kernel on ga_worker_in(w, count) into ga_worker_out(w, count).
 * On anything but GA_WORKER_OK, what says what happened ("killed by signal
 * 11 (Segmentation fault)", "timed out after 10 s", "... touching out[n]:
 * past the end of its output array") and the worker is dead and reaped. */
enum ga_worker_result ga_worker_call(struct ga_worker *w, size_t count, double timeout_s,
                                     char *what, size_t what_size);

/* Calls run in one round trip (forward kernels): their inputs lie one
 * after another in the staged input area, their element counts in the
 * staged counts; the worker runs each as ga_worker_call would (copied to
 * the end of the input array, its own alarm) and puts its outputs at the
 * same place in the staged output area.  Saves a round trip per call, most
 * of what a call of a few thousand elements costs besides the kernel. */
enum { GA_WORKER_STAGED_CALLS = 2, GA_WORKER_MAX_CALLS = 256 };

static inline void *ga_worker_stage_in(const struct ga_worker *w)
{
    return w->stage;
}

static inline void *ga_worker_stage_out(const struct ga_worker *w)
{
    return w->stage + w->stage_bytes;
}

static inline uint64_t *ga_worker_stage_counts(const struct ga_worker *w)
{
    return (uint64_t *)(void *)(w->stage + 2 * w->stage_bytes);
}

/* Run the calls of counts[0..calls) staged, each with timeout_s; a failure
 * (a crash, a hang, a guard page touched) is reported as by ga_worker_call,
 * against the last call's arrays, and leaves the outputs unspecified. */
enum ga_worker_result ga_worker_call_staged(struct ga_worker *w, size_t calls, double timeout_s,
                                            char *what, size_t what_size);

/* Kill if alive, reap, unmap, close, free.  NULL is ignored. */
void ga_worker_stop(struct ga_worker *w);

#endif
