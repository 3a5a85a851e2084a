/* Worker processes for plugin kernels (see worker.h). */
#define _GNU_SOURCE
#include "isolation/worker.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gelu-acc/kernel.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* The two messages: the request and its echo.  No padding: every byte sent
 * is initialized. */
struct request {
    uint64_t count;
    uint64_t alarm_s;
    uint64_t calls;             /* 0: one call on the arrays; else calls staged (call_many) */
};

/* The first page of the mapping: where the child notes a guard page it
 * touched, for the caller to read once the child is dead. */
struct fault_note {
    volatile int64_t area;      /* 0: none; 1: in, 2: out, 3: dy */
    volatile int64_t offset;    /* of the address from the end of that area, in bytes */
};

/* Seconds of grace before a worker kills itself with SIGALRM in a call that
 * outlives the caller's timeout: it only matters when the caller could not
 * kill it. */
enum { ALARM_GRACE_S = 5 };

/* A call's clock in the child: SIGALRM every second while the kernel runs.
 * Each tick looks whether the caller still lives (getppid() changes when
 * it dies, whichever of its threads forked us: PR_SET_PDEATHSIG would fire
 * when that thread ends), so a worker killed with its caller (kill -9 during
 * a hanging kernel) stops within a second instead of spinning until the
 * timeout; and counts down the call's seconds, ending the worker with
 * SIGALRM when they run out.  Between calls the worker waits in recv(),
 * which sees the end of the socket when the caller dies. */
static pid_t caller_pid;
static volatile sig_atomic_t seconds_left;

static void on_tick(int sig)
{
    struct sigaction dfl;

    if (getppid() != caller_pid)
        raise(SIGKILL);
    if (--seconds_left > 0)
        return;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(sig, &dfl, NULL);
    raise(sig);  /* delivered when this handler returns: the call's end */
}

/* Start the clock of a call of at most seconds (0: stop it). */
static void call_clock(uint64_t seconds)
{
    struct itimerval every = { { seconds ? 1 : 0, 0 }, { seconds ? 1 : 0, 0 } };

    seconds_left = (sig_atomic_t)(seconds < 1000000000 ? seconds : 1000000000);
    setitimer(ITIMER_REAL, &every, NULL);
}

static void start_clock(pid_t caller)
{
    struct sigaction tick;

    caller_pid = caller;
    memset(&tick, 0, sizeof tick);
    sigemptyset(&tick.sa_mask);
    tick.sa_handler = on_tick;
    tick.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &tick, NULL);
    if (getppid() != caller)  /* the caller died before we got here */
        _exit(0);
}

/* Every fd but keep, stdin, stdout and stderr: another worker's socket held
 * by this child would hide that worker's death from its parent (no EOF). */
static void close_other_fds(int keep)
{
    if (keep > 3 && close_range(3, (unsigned)keep - 1, 0) != 0 && errno == ENOSYS) {
        for (int fd = 3; fd < keep; fd++)
            close(fd);
    }
    if (close_range((unsigned)keep + 1, ~0U, 0) != 0 && errno == ENOSYS) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = keep + 1; fd < (max > 0 && max < 65536 ? max : 65536); fd++)
            close((int)fd);
    }
}

/* A crash must end the child with its signal: handlers inherited from the
 * caller (sanitizers, valgrind's client, the CLI's SIGINT handler) would turn
 * it into something else.  SIGINT is ignored: the terminal sends it to the
 * whole process group, and the caller decides what an interrupt means. */
static void reset_signals(void)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
                                 SIGSYS, SIGALRM, SIGTERM, SIGPIPE };
    struct sigaction sa;
    sigset_t none;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_DFL;
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGINT, &sa, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* The child's view of its guard pages, for the SIGSEGV handler. */
static struct {
    char *area_end[3];          /* in, out, dy (NULL: forward) */
    size_t area_size, page;
    struct fault_note *note;
} guards;

/* A fault on a guard page is noted; every SIGSEGV then ends the child with
 * its signal (SA_RESETHAND restored the default action, SA_NODEFER lets the
 * raise through at once). */
static void on_segv(int sig, siginfo_t *info, void *context)
{
    char *a = info->si_addr;

    (void)context;
    /* The page after one area is also the one before the next: an
     * element past the end (in[n]) comes first. */
    for (int k = 0; k < 6 && info->si_code > 0; k++) {
        char *end = guards.area_end[k % 3];
        char *guard = k < 3 ? end : end - guards.area_size - guards.page;
        if (end != NULL && a >= guard && a < guard + guards.page) {
            guards.note->offset = a - end;
            guards.note->area = k % 3 + 1;
            break;
        }
    }
    raise(sig);
}

static void catch_guard_faults(const struct ga_worker *w)
{
    size_t stride = (size_t)(w->out_end - w->in_end);   /* area + page */
    struct sigaction sa;

    guards.page = (size_t)sysconf(_SC_PAGESIZE);
    guards.area_size = stride - guards.page;
    guards.area_end[0] = w->in_end;
    guards.area_end[1] = w->out_end;
    guards.area_end[2] = w->dy_end;
    guards.note = w->map;

    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
}

/* exit() from the kernel: end here, with its status, before the caller's
 * atexit handlers run and stdio flushes what the caller had buffered.
 * Registered last, so run first. */
static void exit_at_once(int status, void *unused)
{
    (void)unused;
    _exit(status);
}

/* The kernel's stdout is our stderr (or nothing), unbuffered so that its
 * prints show before a crash; the caller's buffered output is dropped. */
static void contain_stdio(void)
{
    if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0 && null != STDOUT_FILENO) {
            dup2(null, STDOUT_FILENO);
            close(null);
        }
    }
    __fpurge(stdout);
    __fpurge(stderr);
    setvbuf(stdout, NULL, _IONBF, 0);
    on_exit(exit_at_once, NULL);
}

/* One call of the kernel on the last count elements of the arrays. */
static void run_kernel(ga_any_kernel *kernel, const struct ga_worker *w, size_t count)
{
    if (w->dy_end != NULL && w->element_size == 4)
        ((gelu_acc_backward_kernel_f32 *)kernel)(ga_worker_dy(w, count), ga_worker_in(w, count),
                                                 ga_worker_out(w, count), count);
    else if (w->dy_end != NULL)
        ((gelu_acc_backward_kernel_f16 *)kernel)(ga_worker_dy(w, count), ga_worker_in(w, count),
                                                 ga_worker_out(w, count), count);
    else if (w->element_size == 8)
        ((gelu_acc_kernel_f64 *)kernel)(ga_worker_in(w, count), ga_worker_out(w, count), count);
    else if (w->element_size == 4)
        ((gelu_acc_kernel_f32 *)kernel)(ga_worker_in(w, count), ga_worker_out(w, count), count);
    else if (w->element_size == 2)
        ((gelu_acc_kernel_f16 *)kernel)(ga_worker_in(w, count), ga_worker_out(w, count), count);
    else
        ((gelu_acc_kernel_f8e4m3fn *)kernel)(ga_worker_in(w, count), ga_worker_out(w, count),
                                             count);
}

/* The calls of a staged request, each as a request of its own would run it:
 * its inputs copied to the end of the input array, its own alarm, its
 * outputs copied back.  false for a request that does not fit. */
static bool run_staged(ga_any_kernel *kernel, const struct ga_worker *w, const struct request *rq)
{
    const uint64_t *counts = ga_worker_stage_counts(w);
    size_t at = 0, es = w->element_size;

    if (rq->calls > GA_WORKER_MAX_CALLS || w->dy_end != NULL)
        return false;
    for (size_t k = 0; k < rq->calls; k++) {
        size_t count = (size_t)counts[k];
        if (count > w->capacity || count > w->stage_capacity - at)
            return false;
        memcpy(ga_worker_in(w, count), (char *)ga_worker_stage_in(w) + at * es, count * es);
        call_clock(rq->alarm_s);
        run_kernel(kernel, w, count);
        call_clock(0);
        memcpy((char *)ga_worker_stage_out(w) + at * es, ga_worker_out(w, count), count * es);
        at += count;
    }
    return at == rq->count;
}

/* The kernel's library loaded here, its constructors contained as the
 * kernel is; the caller is told "" (loaded) or why not, and a worker
 * without its kernel ends. */
static ga_any_kernel *load_kernel(int sock, const struct ga_worker_kernel *k)
{
    char said[160] = "";
    void *handle, *kernel = NULL;

    call_clock((uint64_t)fmin(ceil(k->load_timeout_s) + ALARM_GRACE_S, 1e9));
    dlerror();
    handle = dlopen(k->path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
        snprintf(said, sizeof said, "the library no longer loads: %s", dlerror());
    else if ((kernel = dlsym(handle, k->symbol)) == NULL)
        snprintf(said, sizeof said, "the library no longer has the symbol '%s'", k->symbol);
    call_clock(0);
    if (send(sock, said, strlen(said) + 1, MSG_NOSIGNAL) < 0 || kernel == NULL)
        _exit(4);
    return (ga_any_kernel *)kernel;
}

/* Only async-signal-safe calls from here on, besides loading the kernel's
 * library (glibc resets its loader's lock in a fork's child), the kernel
 * and stdio on stdout (no other thread of ours writes to stdout during a
 * sweep): we are a fork of a possibly multi-threaded process. */
__attribute__((noreturn))
static void child_main(int sock, const struct ga_worker_kernel *k, const struct ga_worker *w,
                       pid_t caller)
{
    ga_any_kernel *kernel;
    struct request rq;

    contain_stdio();
    close_other_fds(sock);
#ifdef _OPENMP
    /* Our OpenMP pool's threads were not forked: a kernel that opens a
     * parallel region with more than one thread (oneDNN, and libtorch
     * through it) would wait for them forever.  Kernels run on one thread. */
    omp_set_num_threads(1);
#endif
    reset_signals();
    start_clock(caller);
    catch_guard_faults(w);
    /* A kernel that crashes on a range of inputs crashes once per batch and
     * probe: thousands of core dumps would fill the disk. */
    setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
    kernel = load_kernel(sock, k);
    for (;;) {
        ssize_t got = recv(sock, &rq, sizeof rq, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got == 0)
            _exit(0);             /* the caller closed its end: done */
        if (got != (ssize_t)sizeof rq || (rq.calls == 0 && rq.count > w->capacity))
            _exit(2);
        if (rq.calls == 0) {
            call_clock(rq.alarm_s);
            run_kernel(kernel, w, (size_t)rq.count);
        } else if (!run_staged(kernel, w, &rq)) {
            _exit(2);
        }
        call_clock(0);
        if (send(sock, &rq, sizeof rq, MSG_NOSIGNAL) != (ssize_t)sizeof rq)
            _exit(3);
    }
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* How long a child whose socket closed may take to finish dying (valgrind
 * prints its report first) before it is killed: a kernel could close the
 * socket itself and then hang. */
static const double EXIT_GRACE_S = 5.0;

static void describe(int status, char *what, size_t what_size)
{
    if (WIFSIGNALED(status)) {
        const char *name = sigdescr_np(WTERMSIG(status));
        snprintf(what, what_size, "killed by signal %d (%s)", WTERMSIG(status),
                 name ? name : "unknown signal");
    } else if (WIFEXITED(status)) {
        snprintf(what, what_size, "exited with status %d", WEXITSTATUS(status));
    } else {
        snprintf(what, what_size, "ended with wait status 0x%x", (unsigned)status);
    }
}

/* Reap the child, killing it first if kill_first or if it does not end
 * within EXIT_GRACE_S; describe how it ended when what is not NULL. */
static void finish(struct ga_worker *w, bool kill_first, char *what, size_t what_size)
{
    double give_up = now_s() + EXIT_GRACE_S;
    long pause_ns = 20000;   /* backs off to 10 ms: most children are gone at once */
    int status = 0;
    pid_t r;

    if (w->pid <= 0)
        return;
    if (kill_first)
        kill(w->pid, SIGKILL);
    for (;;) {
        r = waitpid(w->pid, &status, kill_first ? 0 : WNOHANG);
        if (r < 0 && errno == EINTR)
            continue;
        if (r != 0)
            break;
        if (now_s() > give_up) {
            kill(w->pid, SIGKILL);
            kill_first = true;
            continue;
        }
        nanosleep(&(struct timespec){ .tv_nsec = pause_ns }, NULL);
        pause_ns = pause_ns < 5000000 ? 2 * pause_ns : 10000000;
    }
    w->pid = 0;
    if (what == NULL)
        return;
    if (r < 0)
        snprintf(what, what_size, "worker process vanished (%s)", strerror(errno));
    else
        describe(status, what, what_size);
}

/* The child's word on loading its kernel, within timeout_s: true when
 * loaded; else false with why, the child dead or about to be stopped. */
static bool await_loaded(struct ga_worker *w, double timeout_s, char *why, size_t why_size)
{
    double deadline = now_s() + timeout_s;
    char said[160], what[96];
    ssize_t got;

    for (;;) {
        struct pollfd pfd = { .fd = w->sock, .events = POLLIN };
        double left = deadline - now_s();
        int r;

        if (left <= 0) {
            snprintf(why, why_size, "loading the library timed out after %g s", timeout_s);
            return false;
        }
        r = poll(&pfd, 1, (int)fmin(ceil(left * 1000.0), 3600e3));
        if (r > 0)
            break;
        if (r < 0 && errno != EINTR) {
            snprintf(why, why_size, "poll failed: %s", strerror(errno));
            return false;
        }
    }
    do
        got = recv(w->sock, said, sizeof said, 0);
    while (got < 0 && errno == EINTR);
    if (got > 0 && said[got - 1] == '\0')
        snprintf(why, why_size, "%s", said);
    if (got > 0 && said[got - 1] == '\0' && said[0] == '\0')
        return true;
    if (got <= 0) {
        /* it died loading: its status says how */
        finish(w, false, what, sizeof what);
        snprintf(why, why_size, "it died loading the library: %s", what);
    } else if (said[got - 1] != '\0') {
        snprintf(why, why_size, "it sent a malformed word on loading the library");
    }
    return false;
}

struct ga_worker *ga_worker_start(const struct ga_worker_kernel *kernel, size_t element_size,
                                  size_t capacity, bool backward, char *why, size_t why_size)
{
    struct ga_worker *w = calloc(1, sizeof *w);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), area;
    char *map;
    int sv[2];
    pid_t caller;

    if (w == NULL) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    w->sock = -1;
    w->capacity = capacity;
    w->element_size = element_size;
    /* note | guard | [dy area | guard |] in area | guard | out area | guard
     * [| staged inputs | staged outputs | staged counts]: a forward kernel's
     * staging holds GA_WORKER_STAGED_CALLS calls of every size */
    area = (capacity * element_size + page - 1) / page * page;
    w->stage_capacity = backward ? 0 : GA_WORKER_STAGED_CALLS * capacity;
    w->stage_bytes = backward ? 0 : GA_WORKER_STAGED_CALLS * area;
    w->map_size = 4 * page + 2 * area + (backward ? page + area : 2 * w->stage_bytes + page);
    w->map = mmap(NULL, w->map_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (w->map == MAP_FAILED) {
        snprintf(why, why_size, "mmap of %zu bytes failed: %s", w->map_size, strerror(errno));
        w->map = NULL;
        ga_worker_stop(w);
        return NULL;
    }
    map = w->map;
    if (backward)
        w->dy_end = map + 2 * page + area;
    w->in_end = (backward ? w->dy_end + page : map + 2 * page) + area;
    w->out_end = w->in_end + page + area;
    w->stage = backward ? NULL : w->out_end + page;
    if (mprotect((char *)w->map + page, page, PROT_NONE) != 0
        || (w->dy_end != NULL && mprotect(w->dy_end, page, PROT_NONE) != 0)
        || mprotect(w->in_end, page, PROT_NONE) != 0
        || mprotect(w->out_end, page, PROT_NONE) != 0) {
        snprintf(why, why_size, "mprotect of a guard page failed: %s", strerror(errno));
        ga_worker_stop(w);
        return NULL;
    }

    /* SEQPACKET: message boundaries, and recv sees EOF when the peer dies. */
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, why_size, "socketpair failed: %s", strerror(errno));
        ga_worker_stop(w);
        return NULL;
    }
    /* Nothing of ours left in a stdio buffer for the child to copy. */
    fflush(NULL);
    caller = getpid();
    w->pid = fork();
    if (w->pid < 0) {
        snprintf(why, why_size, "fork failed: %s", strerror(errno));
        w->pid = 0;
        close(sv[0]);
        close(sv[1]);
        ga_worker_stop(w);
        return NULL;
    }
    if (w->pid == 0)
        child_main(sv[1], kernel, w, caller);
    close(sv[1]);
    w->sock = sv[0];
    /* Workers forked later need not see this one's arrays: a kernel writing
     * wildly there could corrupt another worker's batch. */
    madvise(w->map, w->map_size, MADV_DONTFORK);
    if (!await_loaded(w, kernel->load_timeout_s, why, why_size)) {
        ga_worker_stop(w);
        return NULL;
    }
    return w;
}

/* The child died: if it noted a guard page, say which element of which
 * array it touched, as an index into the call's array. */
static enum ga_worker_result died(const struct ga_worker *w, size_t count, char *what,
                                  size_t what_size)
{
    const struct fault_note *note = w->map;
    /* A backward kernel's arrays by the names kernel.h gives them. */
    static const char *const names[2][3] = { { "in", "out", "dy" }, { "x", "dx", "dy" } };
    static const char *const roles[3] = { "input", "output", "input" };
    const char *array = note->area > 0 ? names[w->dy_end != NULL][note->area - 1] : "";
    const char *role = note->area > 0 ? roles[note->area - 1] : "";
    int64_t es = (int64_t)w->element_size, n = (int64_t)count;
    int64_t at = note->offset + n * es;    /* bytes from the array's start */
    int64_t index = at >= 0 ? at / es : -((-at + es - 1) / es);
    size_t used = strlen(what);

    if (note->area == 0)
        return GA_WORKER_DIED;
    if (index >= n)
        snprintf(what + used, what_size - used, " touching %s[n + %" PRId64 "], past the end "
                 "of its %s array", array, index - n, role);
    else
        snprintf(what + used, what_size - used, " touching %s[%" PRId64 "], before the start "
                 "of its %s array", array, index, role);
    return GA_WORKER_OUT_OF_BOUNDS;
}

/* Send rq and wait for its echo, for at most timeout_s; count names the
 * elements of the array a guard page fault is reported against. */
static enum ga_worker_result exchange(struct ga_worker *w, struct request rq, size_t count,
                                      double timeout_s, double call_timeout_s, char *what,
                                      size_t what_size)
{
    struct fault_note *note = w->map;
    struct request reply;
    double deadline = now_s() + timeout_s;
    ssize_t got, sent;

    if (w->pid <= 0) {
        snprintf(what, what_size, "worker process not running");
        return GA_WORKER_ERROR;
    }
    note->area = 0;
    /* the child's clock counts at most 10^9 s: that long means "never" */
    rq.alarm_s = (uint64_t)fmin(ceil(call_timeout_s) + ALARM_GRACE_S, 1e9);
    do
        sent = send(w->sock, &rq, sizeof rq, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent != (ssize_t)sizeof rq) {
        /* EPIPE or ECONNRESET: it died between calls. */
        finish(w, true, what, what_size);
        return died(w, count, what, what_size);
    }
    for (;;) {
        struct pollfd pfd = { .fd = w->sock, .events = POLLIN };
        double left = deadline - now_s();
        int r;

        if (left <= 0) {
            finish(w, true, NULL, 0);
            snprintf(what, what_size, "timed out after %g s", timeout_s);
            return GA_WORKER_TIMEOUT;
        }
        r = poll(&pfd, 1, (int)fmin(ceil(left * 1000.0), 3600e3));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            finish(w, true, NULL, 0);
            snprintf(what, what_size, "poll failed: %s", strerror(e));
            return GA_WORKER_ERROR;
        }
        if (r > 0)
            break;
    }
    do
        got = recv(w->sock, &reply, sizeof reply, 0);
    while (got < 0 && errno == EINTR);
    if (got == (ssize_t)sizeof reply && reply.count == rq.count && reply.calls == rq.calls)
        return GA_WORKER_OK;
    /* EOF (or ECONNRESET): the child is gone; its status says why.  It may
     * still be exiting, so wait for it rather than kill it first. */
    if (got <= 0) {
        finish(w, false, what, what_size);
        return died(w, count, what, what_size);
    }
    finish(w, true, NULL, 0);
    snprintf(what, what_size, "worker sent a malformed reply");
    return GA_WORKER_ERROR;
}

enum ga_worker_result ga_worker_call(struct ga_worker *w, size_t count, double timeout_s,
                                     char *what, size_t what_size)
{
    struct request rq = { .count = count, .alarm_s = 0, .calls = 0 };
    return exchange(w, rq, count, timeout_s, timeout_s, what, what_size);
}

enum ga_worker_result ga_worker_call_staged(struct ga_worker *w, size_t calls, double timeout_s,
                                            char *what, size_t what_size)
{
    const uint64_t *counts = ga_worker_stage_counts(w);
    struct request rq = { .count = 0, .alarm_s = 0, .calls = calls };

    if (calls == 0 || calls > GA_WORKER_MAX_CALLS || w->stage == NULL) {
        snprintf(what, what_size, "no room to stage %zu calls", calls);
        return GA_WORKER_ERROR;
    }
    for (size_t k = 0; k < calls; k++)
        rq.count += counts[k];
    if (rq.count > w->stage_capacity) {
        snprintf(what, what_size, "no room to stage %zu elements", (size_t)rq.count);
        return GA_WORKER_ERROR;
    }
    return exchange(w, rq, counts[calls - 1], timeout_s * (double)calls, timeout_s, what,
                    what_size);
}

void ga_worker_stop(struct ga_worker *w)
{
    if (w == NULL)
        return;
    /* SIGKILL rather than EOF: an idle child would exit on EOF too, but a
     * busy one might not, and we must not block here. */
    finish(w, true, NULL, 0);
    if (w->sock >= 0)
        close(w->sock);
    if (w->map != NULL)
        munmap(w->map, w->map_size);
    free(w);
}
