#define _GNU_SOURCE
#include "isolation/load_probe.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How the child ends when the library loaded (or failed to load, which the
 * caller's own dlopen reports): a status no constructor is expected to
 * exit with. */
enum { LOADED = 90 };

/* exit() in a constructor ends the child at once with its status, before
 * any handler the caller registered runs in this copy of it. */
static void exit_now(int status, void *unused)
{
    (void)unused;
    fflush(stdout);
    _exit(status == LOADED ? LOADED + 1 : status);
}

/* The child: stdout into the pipe, then the library's constructors. */
__attribute__((noreturn))
static void load_in_child(const char *path, int out)
{
    dup2(out, STDOUT_FILENO);
    close(out);
    signal(SIGINT, SIG_IGN);
    on_exit(exit_now, NULL);
    dlopen(path, RTLD_NOW | RTLD_LOCAL);
    fflush(stdout);
    _exit(LOADED);
}

static double now_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Bytes the child wrote until it closed the pipe (died), or -1 at the end
 * of timeout_s. */
static long watch(int in, double timeout_s)
{
    double deadline = now_s() + timeout_s;
    long written = 0;
    char buf[256];

    for (;;) {
        struct pollfd pfd = { .fd = in, .events = POLLIN };
        double left = deadline - now_s();
        int r;
        ssize_t got;

        if (left <= 0)
            return -1;
        r = poll(&pfd, 1, (int)fmin(ceil(left * 1000.0), 3600e3));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? written : -1;
        got = read(in, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return written;
        written += got;
    }
}

enum ga_io_status ga_load_probe(const char *spec, const char *path, double timeout_s,
                                struct ga_io_error *err)
{
    int fds[2], status = 0;
    long written;
    pid_t pid;

    if (pipe2(fds, O_CLOEXEC) != 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': pipe failed: %s", spec,
                          strerror(errno));
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': fork failed: %s", spec,
                          strerror(errno));
    }
    if (pid == 0)
        load_in_child(path, fds[1]);
    close(fds[1]);
    written = watch(fds[0], timeout_s);
    close(fds[0]);
    if (written < 0)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    if (written < 0)
        return ga_io_fail(err, GA_IO_KERNEL_FAULT, "plugin '%s': loading %s hangs (its constructors "
                          "ran %g s): not loaded", spec, path, timeout_s);
    if (WIFSIGNALED(status))
        return ga_io_fail(err, GA_IO_KERNEL_FAULT, "plugin '%s': loading %s kills the process with "
                          "signal %d (%s) in its constructors: not loaded", spec, path,
                          WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (WIFEXITED(status) && WEXITSTATUS(status) != LOADED)
        return ga_io_fail(err, GA_IO_KERNEL_FAULT, "plugin '%s': loading %s exits the process with "
                          "status %d in its constructors: not loaded", spec, path,
                          WEXITSTATUS(status));
    if (written > 0)
        return ga_io_fail(err, GA_IO_KERNEL_FAULT, "plugin '%s': loading %s writes %ld bytes to "
                          "stdout in its constructors, which would mix with gelu-acc's "
                          "output: not loaded", spec, path, written);
    return ga_io_ok(err);
}
