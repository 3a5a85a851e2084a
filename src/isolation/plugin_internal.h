/* What plugin.c (loading) and plugin_run.c (running) share. */
#ifndef GA_PLUGIN_INTERNAL_H
#define GA_PLUGIN_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>

#include "isolation/plugin.h"
#include "isolation/worker.h"

struct ga_plugin {
    struct ga_impl impl;
    const struct ga_format *format;
    struct ga_plugin_options opt;
    char *path, *symbol;      /* the library, loaded by each worker, and its kernel */
    bool backward;            /* inputs are pairs, ga_plugin_pair */
    bool format_declared;
    char *spec, *models;
    pthread_mutex_t lock;     /* guards idle */
    struct ga_worker *idle;   /* workers between calls */
};

/* The impl's run(): n inputs through the workers, a failure narrowed to
 * its spans (plugin_run.c). */
int ga_plugin_run_batch(const struct ga_impl *impl, const struct ga_format *f, const ga_bits *in,
                        ga_bits *out, size_t n, struct ga_run_failure *failure);

#endif
