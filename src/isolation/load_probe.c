/* A plugin library loaded and checked in a child (load_probe.h). */
#define _GNU_SOURCE
#include "isolation/load_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "isolation/plugin_checks.h"

/* How the child ends when it sent its verdict: a status no constructor is
 * expected to exit with. */
enum { LOADED = 90 };

/* What the child tells the caller once loaded: the checks' status and
 * message, and whether the library declares the kernel's format.  One
 * write of less than PIPE_BUF bytes: all of it or nothing. */
struct verdict {
    int32_t status;
    int32_t declared;
    char message[sizeof ((struct ga_io_error *)0)->message];
};

/* exit() in a constructor ends the child at once with its status, before
 * any handler the caller registered runs in this copy of it. */
static void exit_now(int status, void *unused)
{
    (void)unused;
    fflush(stdout);
    _exit(status == LOADED ? LOADED + 1 : status);
}

/* The child: stdout into one pipe, then the library's constructors and
 * the checks, whose verdict goes into the other. */
__attribute__((noreturn))
static void load_in_child(const struct ga_load_probe *probe, int out, int told)
{
    struct ga_io_error e = { .status = GA_IO_OK, .message = "" };
    struct verdict v;
    bool declared = false;

    dup2(out, STDOUT_FILENO);
    close(out);
    signal(SIGINT, SIG_IGN);
    on_exit(exit_now, NULL);
    memset(&v, 0, sizeof v);
    v.status = (int32_t)ga_plugin_load_checked(probe->spec, probe->path, probe->symbol,
                                               probe->format, probe->backward, &declared, &e);
    v.declared = declared;
    memcpy(v.message, e.message, sizeof v.message);
    v.message[sizeof v.message - 1] = '\0';
    fflush(stdout);
    if (write(told, &v, sizeof v) != (ssize_t)sizeof v)
        _exit(LOADED + 2);
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

/* What the child said, once it ended after sending it. */
static enum ga_io_status read_verdict(const struct ga_load_probe *probe, int told,
                                      bool *declared, struct ga_io_error *err)
{
    struct verdict v;
    ssize_t got;

    do
        got = read(told, &v, sizeof v);
    while (got < 0 && errno == EINTR);
    if (got != (ssize_t)sizeof v)
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': loading %s: the child that loads "
                          "it ended without a verdict", probe->spec, probe->path);
    *declared = v.declared != 0;
    if (v.status == GA_IO_OK)
        return ga_io_ok(err);
    v.message[sizeof v.message - 1] = '\0';
    return ga_io_fail(err, (enum ga_io_status)v.status, "%s", v.message);
}

/* How the child ended, as a refusal; GA_IO_OK when it sent its verdict and
 * wrote nothing to stdout. */
static enum ga_io_status how_it_ended(const struct ga_load_probe *probe, int status, long written,
                                      struct ga_io_error *err)
{
    const char *spec = probe->spec, *path = probe->path;

    if (written < 0)
        return ga_io_fail(err, GA_IO_KERNEL_FAULT, "plugin '%s': loading %s hangs (its constructors "
                          "ran %g s): not loaded", spec, path, probe->timeout_s);
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

enum ga_io_status ga_load_probe(const struct ga_load_probe *probe, bool *declared,
                                struct ga_io_error *err)
{
    int out[2], told[2], status = 0;
    enum ga_io_status st;
    long written;
    pid_t pid;

    *declared = false;
    if (pipe2(out, O_CLOEXEC) != 0)
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': pipe failed: %s", probe->spec,
                          strerror(errno));
    if (pipe2(told, O_CLOEXEC) != 0) {
        close(out[0]);
        close(out[1]);
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': pipe failed: %s", probe->spec,
                          strerror(errno));
    }
    fflush(NULL);
    pid = fork();
    if (pid == 0)
        load_in_child(probe, out[1], told[1]);
    close(out[1]);
    close(told[1]);
    if (pid < 0) {
        close(out[0]);
        close(told[0]);
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': fork failed: %s", probe->spec,
                          strerror(errno));
    }
    written = watch(out[0], probe->timeout_s);
    close(out[0]);
    if (written < 0)
        kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        continue;
    st = how_it_ended(probe, status, written, err);
    if (st == GA_IO_OK)
        st = read_verdict(probe, told[0], declared, err);
    close(told[0]);
    return st;
}
