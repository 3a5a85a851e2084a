/* A progress line on stderr, only when stderr is a terminal. */
#include "cli/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static void report(void *ctx, uint64_t done, uint64_t total)
{
    struct ga_progress *p = ctx;
    double elapsed = now() - p->start;
    double rate = elapsed > 0 ? (double)done / elapsed : 0;
    double left = rate > 0 ? (double)(total - done) / rate : 0;

    fprintf(stderr, "\r%s: %5.1f%% %llu/%llu  %.1f M inputs/s  %d:%02d left ", p->label,
            total ? 100.0 * (double)done / (double)total : 100.0, (unsigned long long)done,
            (unsigned long long)total, rate / 1e6, (int)left / 60, (int)left % 60);
    if (done == total)
        fprintf(stderr, "\n");
    fflush(stderr);
}

void ga_progress_attach(struct ga_progress *p, struct ga_sweep_options *o, const char *label)
{
    p->label = label;
    p->start = now();
    if (isatty(STDERR_FILENO)) {
        o->progress = report;
        o->progress_ctx = p;
    }
}
