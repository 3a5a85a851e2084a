/* Plugin kernels: a library and its kernel checked in a child (load_probe.h)
 * and wrapped as an impl, and closed (plugin.h); running the kernel in
 * workers, each of which loads the library itself, is plugin_run.c.
 * gelu-acc's own process never loads the library: none of its code runs
 * here. */
#define _GNU_SOURCE
#include "isolation/plugin.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolation/load_probe.h"
#include "isolation/plugin_internal.h"

void ga_plugin_default_options(struct ga_plugin_options *opt)
{
    *opt = (struct ga_plugin_options){
        .name = NULL,
        .approximates = GA_GELU,
        .timeout_s = 10.0,
        .narrow_timeout_s = 1.0,
        .max_call = 65536,     /* 512 KiB of float32 arrays per worker */
        .narrow = true,
        .check_position = true,
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

static enum ga_io_status open_kernel(const char *spec, const struct ga_format *f,
                                     const struct ga_plugin_options *opt, bool backward,
                                     struct ga_plugin **out, struct ga_io_error *err)
{
    struct ga_plugin *p;
    char *path, *symbol;
    enum ga_io_status st;

    *out = NULL;
    if (backward && !(f->id == GA_FLOAT32 || f->id == GA_FLOAT16 || f->id == GA_BFLOAT16))
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "plugin '%s': backward kernels take float32, "
                          "float16 or bfloat16, not %s", spec, f->name);
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
    /* its constructors and the checks in a child: they may crash, exit,
     * hang or print */
    st = ga_load_probe(&(struct ga_load_probe){ .spec = spec, .path = path, .symbol = symbol,
                                                .format = f, .backward = backward,
                                                .timeout_s = p->opt.timeout_s },
                       &p->format_declared, err);
    if (st != GA_IO_OK)
        goto done;
    p->backward = backward;
    p->spec = strdup(spec);
    if (asprintf(&p->models, "external kernel %s in %s", symbol, path) < 0)
        p->models = NULL;
    p->path = path;
    p->symbol = symbol;
    path = symbol = NULL;
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
        .run = ga_plugin_run_batch,
        .data = p,
    };
    *out = p;
    st = ga_io_ok(err);
    p = NULL;

done:
    if (p != NULL) {
        free(p->path);
        free(p->symbol);
        free(p->spec);
        free(p->models);
        free(p);
    }
    free(path);
    free(symbol);
    return st;
}

enum ga_io_status ga_plugin_open(const char *spec, const struct ga_format *f,
                                 const struct ga_plugin_options *opt,
                                 struct ga_plugin **out, struct ga_io_error *err)
{
    return open_kernel(spec, f, opt, false, out, err);
}

enum ga_io_status ga_plugin_open_backward(const char *spec, const struct ga_format *f,
                                          const struct ga_plugin_options *opt,
                                          struct ga_plugin **out, struct ga_io_error *err)
{
    return open_kernel(spec, f, opt, true, out, err);
}

const struct ga_impl *ga_plugin_impl(const struct ga_plugin *p)
{
    return &p->impl;
}

bool ga_plugin_format_declared(const struct ga_plugin *p)
{
    return p->format_declared;
}

void ga_plugin_close(struct ga_plugin *p)
{
    if (p == NULL)
        return;
    ga_plugin_release_workers(p);
    pthread_mutex_destroy(&p->lock);
    free(p->path);
    free(p->symbol);
    free(p->spec);
    free(p->models);
    free(p);
}
