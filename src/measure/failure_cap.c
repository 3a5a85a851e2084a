/* The deterministic failure cap (failure_cap.h). */
#include "measure/failure_cap.h"

#include <pthread.h>
#include <stdlib.h>

struct ga_failure_cap {
    pthread_mutex_t lock;
    pthread_cond_t advanced;
    uint64_t chunks, k;
    size_t count;
    uint64_t frontier;        /* every chunk before it has run */
    unsigned char *ran;       /* per chunk */
    unsigned char *failed;    /* per chunk and measurement: [c * count + j] */
    uint64_t *failures;       /* per measurement: failed chunks before the frontier */
    uint64_t *capped_at;      /* per measurement: its K-th failed chunk; UINT64_MAX: none yet */
};

struct ga_failure_cap *ga_failure_cap_new(uint64_t chunks, size_t count, uint64_t k)
{
    struct ga_failure_cap *cap = calloc(1, sizeof *cap);

    if (!cap)
        return NULL;
    cap->chunks = chunks;
    cap->count = count;
    cap->k = k;
    cap->ran = calloc(chunks + 1, 1);
    cap->failed = calloc((chunks + 1) * (count + 1), 1);
    cap->failures = calloc(count + 1, sizeof *cap->failures);
    cap->capped_at = malloc((count + 1) * sizeof *cap->capped_at);
    if (!cap->ran || !cap->failed || !cap->failures || !cap->capped_at) {
        free(cap->ran);
        free(cap->failed);
        free(cap->failures);
        free(cap->capped_at);
        free(cap);
        return NULL;
    }
    for (size_t j = 0; j < count; j++)
        cap->capped_at[j] = UINT64_MAX;
    pthread_mutex_init(&cap->lock, NULL);
    pthread_cond_init(&cap->advanced, NULL);
    return cap;
}

void ga_failure_cap_free(struct ga_failure_cap *cap)
{
    if (!cap)
        return;
    pthread_mutex_destroy(&cap->lock);
    pthread_cond_destroy(&cap->advanced);
    free(cap->ran);
    free(cap->failed);
    free(cap->failures);
    free(cap->capped_at);
    free(cap);
}

bool ga_failure_cap_skips(struct ga_failure_cap *cap, size_t j, uint64_t c)
{
    bool skips;

    pthread_mutex_lock(&cap->lock);
    skips = cap->capped_at[j] < c;
    pthread_mutex_unlock(&cap->lock);
    return skips;
}

void ga_failure_cap_ran(struct ga_failure_cap *cap, uint64_t c, const bool *failed)
{
    pthread_mutex_lock(&cap->lock);
    cap->ran[c] = 1;
    for (size_t j = 0; j < cap->count; j++)
        cap->failed[c * cap->count + j] = failed && failed[j];
    for (; cap->frontier < cap->chunks && cap->ran[cap->frontier]; cap->frontier++)
        for (size_t j = 0; j < cap->count; j++)
            if (cap->failed[cap->frontier * cap->count + j] && ++cap->failures[j] == cap->k)
                cap->capped_at[j] = cap->frontier;
    pthread_cond_broadcast(&cap->advanced);
    pthread_mutex_unlock(&cap->lock);
}

bool ga_failure_cap_counts(struct ga_failure_cap *cap, size_t j, uint64_t c)
{
    bool counts;

    pthread_mutex_lock(&cap->lock);
    while (cap->frontier < c)
        pthread_cond_wait(&cap->advanced, &cap->lock);
    counts = !(cap->capped_at[j] < c);
    pthread_mutex_unlock(&cap->lock);
    return counts;
}

bool ga_failure_cap_reached(const struct ga_failure_cap *cap, size_t j)
{
    return cap->capped_at[j] != UINT64_MAX;
}
