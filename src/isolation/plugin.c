/* Plugin kernels: loading, the worker pool, and run() (see plugin.h). */
#define _GNU_SOURCE
#include "isolation/plugin.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelu-acc/kernel.h>

#include "isolation/bisect.h"
#include "isolation/worker.h"

struct ga_plugin {
    struct ga_impl impl;
    const struct ga_format *format;
    struct ga_plugin_options opt;
    void *handle;
    ga_any_kernel *kernel;
    char *spec, *models;
    pthread_mutex_t lock;     /* guards idle */
    struct ga_worker *idle;   /* workers between calls */
};

void ga_plugin_default_options(struct ga_plugin_options *opt)
{
    *opt = (struct ga_plugin_options){
        .name = NULL,
        .approximates = GA_GELU,
        .timeout_s = 10.0,
        .narrow_timeout_s = 1.0,
        .max_call = 65536,     /* 512 KiB of float32 arrays per worker */
        .narrow = true,
    };
}

enum ga_io_status ga_plugin_parse_spec(const char *spec, char **path, char **symbol,
                                       struct ga_io_error *err)
{
    const char *colon;

    *path = *symbol = NULL;
    if (spec == NULL || spec[0] == '\0')
        return ga_io_fail(err, GA_IO_BAD_SPEC, "empty plugin spec: expected path/to/lib.so:symbol");
    /* The last ':' : symbols never contain one, paths might. */
    colon = strrchr(spec, ':');
    if (colon == NULL)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "plugin '%s': no ':' between the library and "
                          "the symbol: expected path/to/lib.so:symbol", spec);
    if (colon[1] == '\0')
        return ga_io_fail(err, GA_IO_BAD_SPEC, "plugin '%s': empty symbol after ':': expected "
                          "path/to/lib.so:symbol", spec);
    if (colon == spec)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "plugin '%s': empty library path before ':': "
                          "expected path/to/lib.so:symbol", spec);
    *path = strndup(spec, (size_t)(colon - spec));
    *symbol = strdup(colon + 1);
    if (*path == NULL || *symbol == NULL) {
        free(*path);
        free(*symbol);
        *path = *symbol = NULL;
        return ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': out of memory", spec);
    }
    return ga_io_ok(err);
}

/* Workers per caller: take one from the pool or start one. */
static struct ga_worker *take_worker(struct ga_plugin *p, char *why, size_t why_size)
{
    struct ga_worker *w;

    pthread_mutex_lock(&p->lock);
    w = p->idle;
    if (w != NULL)
        p->idle = w->next;
    pthread_mutex_unlock(&p->lock);
    if (w != NULL)
        return w;
    return ga_worker_start(p->kernel, (size_t)p->format->bits / 8, p->opt.max_call,
                           why, why_size);
}

static void give_worker(struct ga_plugin *p, struct ga_worker *w)
{
    if (w == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    w->next = p->idle;
    p->idle = w;
    pthread_mutex_unlock(&p->lock);
}

/* Encodings into the worker's input array, in the kernel's element type;
 * float32 encodings are the float's bits. */
static void put_inputs(const struct ga_plugin *p, struct ga_worker *w, const ga_bits *in,
                       size_t count)
{
    if (p->format->bits == 32) {
        memcpy(w->in, in, count * sizeof *in);
    } else {
        uint16_t *dst = w->in;
        for (size_t i = 0; i < count; i++)
            dst[i] = (uint16_t)in[i];
    }
}

static void get_outputs(const struct ga_plugin *p, const struct ga_worker *w, ga_bits *out,
                        size_t count)
{
    if (p->format->bits == 32) {
        memcpy(out, w->out, count * sizeof *out);
    } else {
        const uint16_t *src = w->out;
        for (size_t i = 0; i < count; i++)
            out[i] = src[i];
    }
}

/* Narrowing: each probe runs a sub-range in a worker, starting a fresh one
 * after each failure. */
struct probe_ctx {
    struct ga_plugin *p;
    const ga_bits *in;
    double timeout_s;
    struct ga_worker *w;
};

static enum ga_probe_result probe(void *arg, size_t first, size_t count)
{
    struct probe_ctx *c = arg;
    char what[160];

    if (c->w == NULL)
        c->w = take_worker(c->p, what, sizeof what);
    if (c->w == NULL)
        return GA_PROBE_ERROR;
    put_inputs(c->p, c->w, c->in + first, count);
    switch (ga_worker_call(c->w, count, c->timeout_s, what, sizeof what)) {
    case GA_WORKER_OK:
        return GA_PROBE_PASS;
    case GA_WORKER_ERROR:
        ga_worker_stop(c->w);
        c->w = NULL;
        return GA_PROBE_ERROR;
    default:
        ga_worker_stop(c->w);
        c->w = NULL;
        return GA_PROBE_FAIL;
    }
}

/* The call on in[0..n) failed with result r: fill failure's range. */
static void narrow(struct ga_plugin *p, const ga_bits *in, size_t n, enum ga_worker_result r,
                   struct ga_run_failure *failure)
{
    struct probe_ctx c = { .p = p, .in = in, .w = NULL,
                           .timeout_s = r == GA_WORKER_TIMEOUT ? p->opt.narrow_timeout_s
                                                               : p->opt.timeout_s };
    size_t first, last;

    failure->first = 0;
    failure->last = n - 1;
    if (!p->opt.narrow || r == GA_WORKER_ERROR)
        return;
    if (!ga_bisect_first(probe, &c, n, &first)) {
        size_t used = strlen(failure->what);
        snprintf(failure->what + used, sizeof failure->what - used,
                 " (not narrowed to a smaller range)");
    } else {
        last = first;
        /* Hangs: each probe may cost a timeout; the first one is enough. */
        if (r == GA_WORKER_DIED && !ga_bisect_last(probe, &c, first, n, &last))
            last = n - 1;
        failure->first = first;
        failure->last = last;
    }
    give_worker(p, c.w);
}

static int plugin_run(const struct ga_impl *impl, const struct ga_format *f,
                      const ga_bits *in, ga_bits *out, size_t n,
                      struct ga_run_failure *failure)
{
    struct ga_plugin *p = (struct ga_plugin *)impl->data;
    struct ga_worker *w;

    if (n == 0)
        return 0;
    if (f != p->format) {
        failure->first = 0;
        failure->last = n - 1;
        snprintf(failure->what, sizeof failure->what, "the kernel is for %s, not %s",
                 p->format->name, f->name);
        return -1;
    }
    w = take_worker(p, failure->what, sizeof failure->what);
    if (w == NULL) {
        char why[sizeof failure->what];
        memcpy(why, failure->what, sizeof why);
        snprintf(failure->what, sizeof failure->what, "no worker process: %.130s", why);
        failure->first = 0;
        failure->last = n - 1;
        return -1;
    }
    for (size_t start = 0; start < n;) {
        size_t m = n - start < p->opt.max_call ? n - start : p->opt.max_call;
        enum ga_worker_result r;

        put_inputs(p, w, in + start, m);
        r = ga_worker_call(w, m, p->opt.timeout_s, failure->what, sizeof failure->what);
        if (r != GA_WORKER_OK) {
            ga_worker_stop(w);
            narrow(p, in + start, m, r, failure);
            failure->first += start;
            failure->last += start;
            return -1;
        }
        get_outputs(p, w, out + start, m);
        start += m;
    }
    give_worker(p, w);
    return 0;
}

enum ga_io_status ga_plugin_open(const char *spec, const struct ga_format *f,
                                 const struct ga_plugin_options *opt,
                                 struct ga_plugin **out, struct ga_io_error *err)
{
    struct ga_plugin *p;
    char *path, *symbol;
    const int *abi;
    enum ga_io_status st;

    *out = NULL;
    st = ga_plugin_parse_spec(spec, &path, &symbol, err);
    if (st != GA_IO_OK)
        return st;
    p = calloc(1, sizeof *p);
    if (p == NULL) {
        st = ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': out of memory", spec);
        goto done;
    }
    if (opt != NULL)
        p->opt = *opt;
    else
        ga_plugin_default_options(&p->opt);
    if (!(p->opt.timeout_s > 0 && p->opt.narrow_timeout_s > 0 && p->opt.max_call > 0
          && p->opt.max_call <= ((size_t)1 << 28))) {
        st = ga_io_fail(err, GA_IO_RANGE, "plugin '%s': timeouts must be positive and "
                        "max_call in [1, 2^28]", spec);
        goto done;
    }
    /* RTLD_NOW: every symbol bound before any worker forks, so no lazy
     * binding (and its lock) happens in a forked child. */
    dlerror();
    p->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (p->handle == NULL) {
        st = ga_io_fail(err, GA_IO_LOAD, "plugin '%s': cannot load %s: %s%s", spec, path,
                        dlerror(), strchr(path, '/') ? ""
                        : " (a name without '/' is searched in the system library "
                          "directories: write ./name for a file here)");
        goto done;
    }
    dlerror();
    p->kernel = (ga_any_kernel *)dlsym(p->handle, symbol);
    if (p->kernel == NULL) {
        const char *why = dlerror();
        st = ga_io_fail(err, GA_IO_LOAD, "plugin '%s': symbol '%s' not found in %s%s%s%s",
                        spec, symbol, path, why ? " (" : "", why ? why : "", why ? ")" : "");
        goto done;
    }
    abi = dlsym(p->handle, GELU_ACC_KERNEL_ABI_SYMBOL);
    if (abi != NULL && *abi != GELU_ACC_KERNEL_ABI_VERSION) {
        st = ga_io_fail(err, GA_IO_LOAD, "plugin '%s': %s was built for kernel ABI %d; this "
                        "gelu-acc loads ABI %d", spec, path, *abi, GELU_ACC_KERNEL_ABI_VERSION);
        goto done;
    }
    p->spec = strdup(spec);
    if (asprintf(&p->models, "external kernel %s in %s", symbol, path) < 0)
        p->models = NULL;
    if (p->spec == NULL || p->models == NULL) {
        st = ga_io_fail(err, GA_IO_SYSTEM, "plugin '%s': out of memory", spec);
        goto done;
    }
    pthread_mutex_init(&p->lock, NULL);
    p->format = f;
    p->impl = (struct ga_impl){
        .name = p->opt.name ? p->opt.name : p->spec,
        .formats = GA_FORMAT_BIT(f->id),
        .approximates = p->opt.approximates,
        .models = p->models,
        .formula = "unknown: an external kernel",
        .computes = "unknown: an external kernel",
        .run = plugin_run,
        .data = p,
    };
    *out = p;
    st = ga_io_ok(err);
    p = NULL;

done:
    if (p != NULL) {
        if (p->handle != NULL)
            dlclose(p->handle);
        free(p->spec);
        free(p->models);
        free(p);
    }
    free(path);
    free(symbol);
    return st;
}

const struct ga_impl *ga_plugin_impl(const struct ga_plugin *p)
{
    return &p->impl;
}

void ga_plugin_release_workers(struct ga_plugin *p)
{
    struct ga_worker *w;

    pthread_mutex_lock(&p->lock);
    w = p->idle;
    p->idle = NULL;
    pthread_mutex_unlock(&p->lock);
    while (w != NULL) {
        struct ga_worker *next = w->next;
        ga_worker_stop(w);
        w = next;
    }
}

void ga_plugin_close(struct ga_plugin *p)
{
    if (p == NULL)
        return;
    ga_plugin_release_workers(p);
    pthread_mutex_destroy(&p->lock);
    dlclose(p->handle);
    free(p->spec);
    free(p->models);
    free(p);
}
