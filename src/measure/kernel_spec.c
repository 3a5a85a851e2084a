/* Kernels named by a spec: catalogue names, plugin:, outputs: (kernel_spec.h). */
#include "measure/kernel_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impls/impl.h"

char *ga_kernel_resolve_path(const char *base_dir, const char *path)
{
    size_t n;
    char *out;

    if (!base_dir || path[0] == '/')
        return strdup(path);
    n = strlen(base_dir) + strlen(path) + 2;
    if ((out = malloc(n)))
        snprintf(out, n, "%s/%s", base_dir, path);
    return out;
}

/* A file: domain names a path, resolved like the other paths. */
static enum ga_io_status open_domain(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                     struct ga_io_error *err)
{
    const char *spec = rq->domain ? rq->domain : ga_domain_default(rq->format);
    char message[sizeof err->message], *resolved = NULL;
    int rc;

    if (rq->base_dir && strncmp(spec, "file:", 5) == 0 && spec[5] != '/') {
        char *path = ga_kernel_resolve_path(rq->base_dir, spec + 5);
        size_t n = path ? strlen(path) + 6 : 0;
        if (path && (resolved = malloc(n)))
            snprintf(resolved, n, "file:%s", path);
        free(path);
        if (!resolved)
            return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
        spec = resolved;
    }
    rc = ga_domain_parse(&k->domain, spec, rq->format, message, sizeof message);
    free(resolved);
    if (rc != 0)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "%s", message);
    k->has_domain = true;
    return GA_IO_OK;
}

static enum ga_io_status open_outputs(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                      const char *outputs, struct ga_io_error *err)
{
    char *in_path, *out_path;
    enum ga_io_status s;

    if (!rq->inputs)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "'outputs:%s' needs an inputs file", outputs);
    in_path = ga_kernel_resolve_path(rq->base_dir, rq->inputs);
    out_path = ga_kernel_resolve_path(rq->base_dir, outputs);
    if (!in_path || !out_path)
        s = ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    else
        s = ga_graded_open(&k->graded, in_path, out_path, rq->format, err);
    free(in_path);
    free(out_path);
    if (s != GA_IO_OK)
        return s;
    k->has_graded = true;
    ga_graded_attach(&k->graded, rq->inputs, &k->domain, &k->measurement);
    return GA_IO_OK;
}

static enum ga_io_status open_plugin(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                     const char *plugin_spec, struct ga_io_error *err)
{
    struct ga_plugin_options po;
    char *path;
    enum ga_io_status s;

    if (rq->plugin_options)
        po = *rq->plugin_options;
    else
        ga_plugin_default_options(&po);
    po.approximates = rq->reference;
    if (!(path = ga_kernel_resolve_path(rq->base_dir, plugin_spec)))
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    s = ga_plugin_open(path, rq->format, &po, &k->plugin, err);
    free(path);
    if (s == GA_IO_OK)
        k->measurement.impl = ga_plugin_impl(k->plugin);
    return s;
}

static enum ga_io_status open_real(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                   const struct ga_real *r, enum ga_real_length length,
                                   struct ga_io_error *err)
{
    enum ga_io_status s = ga_real_open_at(r, rq->format, length, rq->plugin_options, &k->real,
                                          err);

    if (s == GA_IO_OK)
        k->measurement.impl = ga_real_impl(k->real);
    return s;
}

static enum ga_io_status open_catalogue(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                        struct ga_io_error *err)
{
    const struct ga_impl *impl = ga_catalogue_find(rq->spec);
    enum ga_real_length length = GA_REAL_LONG;
    const struct ga_real *real = impl ? NULL : ga_real_find_at(rq->spec, &length);

    if (real)
        return open_real(k, rq, real, length, err);
    if (!impl)
        return ga_io_fail(err, GA_IO_BAD_SPEC,
                          "unknown implementation '%s' (see 'gelu-acc list'; or write "
                          "plugin:PATH:SYMBOL, outputs:FILE)", rq->spec);
    if (!ga_impl_supports(impl, rq->format))
        return ga_io_fail(err, GA_IO_BAD_SPEC,
                          "implementation '%s' has no %s version (see 'gelu-acc list')",
                          rq->spec, rq->format->name);
    k->measurement.impl = impl;
    return GA_IO_OK;
}

enum ga_io_status ga_kernel_open(struct ga_kernel *k, const struct ga_kernel_request *rq,
                                 struct ga_io_error *err)
{
    enum ga_io_status s;

    memset(k, 0, sizeof *k);
    k->measurement.reference = rq->reference;
    if (strncmp(rq->spec, "outputs:", 8) == 0) {
        s = open_outputs(k, rq, rq->spec + 8, err);
    } else {
        s = strncmp(rq->spec, "plugin:", 7) == 0 ? open_plugin(k, rq, rq->spec + 7, err)
                                                 : open_catalogue(k, rq, err);
        if (s == GA_IO_OK)
            s = open_domain(k, rq, err);
    }
    if (s != GA_IO_OK)
        ga_kernel_close(k);
    return s;
}

void ga_kernel_close(struct ga_kernel *k)
{
    if (k->has_graded)
        ga_graded_close(&k->graded);
    if (k->has_domain || k->has_graded)
        ga_domain_free(&k->domain);
    ga_plugin_close(k->plugin);
    ga_real_close(k->real);
    memset(k, 0, sizeof *k);
}
