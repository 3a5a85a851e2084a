/* Plugin kernels: loading and checking a library and its kernel, and
 * closing it (plugin.h); running the kernel in workers is plugin_run.c. */
#define _GNU_SOURCE
#include "isolation/plugin.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelu-acc/kernel.h>

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

/* Calling a variable would crash in the worker, which reads as a kernel
 * failure: refuse it here.  A symbol without a type (assembly that lacks
 * .type) or that dladdr cannot place is given the benefit of the doubt. */
static enum ga_io_status check_is_function(const char *spec, const char *symbol,
                                           const char *path, ga_any_kernel *kernel,
                                           struct ga_io_error *err)
{
    const ElfW(Sym) *sym = NULL;
    Dl_info info;
    int type;

    if (dladdr1((void *)kernel, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL)
        return ga_io_ok(err);
    type = ELF64_ST_TYPE(sym->st_info);
    if (type == STT_OBJECT || type == STT_TLS || type == STT_COMMON)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "plugin '%s': '%s' in %s is a variable (a data "
                          "symbol), not a function: name the kernel function", spec, symbol, path);
    return ga_io_ok(err);
}

/* GELU_ACC_KERNEL_F32(symbol) and its kin export the kernel's format as a
 * string beside it, GELU_ACC_BACKWARD_KERNEL_F32 and its kin under another
 * name; a kernel loaded for another format, or the other direction, is
 * refused. */
static enum ga_io_status check_declared_format(const char *spec, const char *symbol,
                                               void *handle, const struct ga_format *f,
                                               bool backward, bool *declared,
                                               struct ga_io_error *err)
{
    static const char *const prefixes[2] = { GELU_ACC_KERNEL_FORMAT_PREFIX,
                                             GELU_ACC_BACKWARD_FORMAT_PREFIX };
    static const char *const kinds[2] = { "a forward kernel", "a backward kernel" };
    char name[512], other[512];
    const char *format;

    snprintf(name, sizeof name, "%s%s", prefixes[backward], symbol);
    snprintf(other, sizeof other, "%s%s", prefixes[!backward], symbol);
    if (dlsym(handle, other) != NULL)
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "plugin '%s': %s is declared %s, but was "
                          "asked for as %s (%s)", spec, symbol, kinds[!backward],
                          kinds[backward], backward ? "drop --backward"
                          : "measure it with 'gelu-acc sweep --backward --kernel'");
    format = dlsym(handle, name);
    *declared = format != NULL;
    if (format == NULL)
        return ga_io_ok(err);
    if (strnlen(format, GELU_ACC_KERNEL_FORMAT_SIZE) == GELU_ACC_KERNEL_FORMAT_SIZE
        || ga_format_by_name(format) == NULL)
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "plugin '%s': %s declares no format gelu-acc "
                          "knows (%s is not one of its formats)", spec, symbol, name);
    if (strcmp(format, f->name) != 0)
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "plugin '%s': kernel %s is declared %s, "
                          "but was asked for as %s", spec, symbol, format, f->name);
    return ga_io_ok(err);
}

/* The ABI tag, when there is one: a version this gelu-acc knows, and for a
 * backward kernel one that has them. */
static enum ga_io_status check_abi(const char *spec, const char *path, void *handle,
                                   bool backward, struct ga_io_error *err)
{
    const int *abi = dlsym(handle, GELU_ACC_KERNEL_ABI_SYMBOL);

    if (abi == NULL)
        return ga_io_ok(err);
    if (*abi < 1 || *abi > GELU_ACC_KERNEL_ABI_VERSION)
        return ga_io_fail(err, GA_IO_LOAD, "plugin '%s': %s was built for kernel ABI %d; this "
                          "gelu-acc loads ABI 1 to %d", spec, path, *abi,
                          GELU_ACC_KERNEL_ABI_VERSION);
    if (backward && *abi < 2)
        return ga_io_fail(err, GA_IO_LOAD, "plugin '%s': %s was built for kernel ABI %d, "
                          "which has no backward kernels (ABI 2 added them): rebuild it "
                          "against this <gelu-acc/kernel.h>", spec, path, *abi);
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
    /* RTLD_NOW: every symbol bound before any worker forks, so no lazy
     * binding (and its lock) happens in a forked child. */
    /* its constructors first in a child: they may crash, exit, hang or print */
    st = ga_load_probe(spec, path, p->opt.timeout_s, err);
    if (st != GA_IO_OK)
        goto done;
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
    st = check_is_function(spec, symbol, path, p->kernel, err);
    if (st != GA_IO_OK)
        goto done;
    st = check_declared_format(spec, symbol, p->handle, f, backward, &p->format_declared, err);
    if (st != GA_IO_OK)
        goto done;
    st = check_abi(spec, path, p->handle, backward, err);
    if (st != GA_IO_OK)
        goto done;
    p->backward = backward;
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
        .run = ga_plugin_run_batch,
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
    dlclose(p->handle);
    free(p->spec);
    free(p->models);
    free(p);
}
