/* Outputs compared without a truth (output_match.h). */
#include "measure/output_match.h"
#include "isolation/plugin.h"
#include "measure/kernel_clock.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { MATCH_CHUNK = 16384 };

/* k->run, its time added to the kernels' clock when it runs here (a
 * worker's time is its own CPU time: measure/kernel_clock.h). */
static int run_clocked(const struct ga_impl *k, const struct ga_format *f, const ga_bits *in,
                       ga_bits *out, size_t n, struct ga_run_failure *failure)
{
    uint64_t clock = ga_kernel_clock_now();
    int status = k->run(k, f, in, out, n, failure);

    if (!ga_plugin_runs_many(k))
        ga_kernel_clock_add(clock);
    return status;
}

/* Chunk c of d through both kernels into the totals; 0 or -1 (why set). */
static int match_chunk(const struct ga_format *f, const struct ga_domain *d,
                       const struct ga_impl *a, const struct ga_impl *b, uint64_t c, ga_bits *buf,
                       struct ga_output_match *m, uint64_t *first, char *why, size_t why_size)
{
    uint64_t start = c * MATCH_CHUNK;
    size_t n = d->size - start < MATCH_CHUNK ? (size_t)(d->size - start) : MATCH_CHUNK;
    ga_bits *in = buf, *ya = buf + MATCH_CHUNK, *yb = buf + 2 * MATCH_CHUNK;
    struct ga_run_failure failure;
    uint64_t differ = 0;

    if (ga_domain_fill(d, start, n, in) != 0) {
        snprintf(why, why_size, "the inputs from %llu could not be read",
                 (unsigned long long)start);
        return -1;
    }
    if (run_clocked(a, f, in, ya, n, &failure) != 0
        || run_clocked(b, f, in, yb, n, &failure) != 0) {
        snprintf(why, why_size, "a kernel failed: %s", failure.what);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        if (ya[i] == yb[i] || (ga_is_nan(f, ya[i]) && ga_is_nan(f, yb[i])))
            continue;
        if (differ++ == 0) {
#pragma omp critical(ga_output_match_first)
            if (start + i < *first) {
                *first = start + i;
                m->x = in[i];
                m->a = ya[i];
                m->b = yb[i];
            }
        }
    }
#pragma omp atomic
    m->differ += differ;
    return 0;
}

int ga_output_match(const struct ga_format *f, const struct ga_domain *d,
                    const struct ga_impl *a, const struct ga_impl *b, int threads,
                    struct ga_output_match *m, char *why, size_t why_size)
{
    uint64_t chunks = (d->size + MATCH_CHUNK - 1) / MATCH_CHUNK, first = UINT64_MAX;
    int failed = 0;

    *m = (struct ga_output_match){ .inputs = d->size };
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        ga_bits *buf = malloc(3 * MATCH_CHUNK * sizeof *buf);
        char own[256];
        if (buf == NULL) {
#pragma omp atomic write
            failed = 1;
#pragma omp critical(ga_output_match_why)
            snprintf(why, why_size, "out of memory");
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
            int stop;
#pragma omp atomic read
            stop = failed;
            if (stop || buf == NULL)
                continue;
            if (match_chunk(f, d, a, b, c, buf, m, &first, own, sizeof own) != 0) {
#pragma omp critical(ga_output_match_why)
                {
                    int was;
#pragma omp atomic read
                    was = failed;
                    if (!was)
                        snprintf(why, why_size, "%s", own);
#pragma omp atomic write
                    failed = 1;
                }
            }
        }
        free(buf);
    }
    return failed ? -1 : 0;
}
