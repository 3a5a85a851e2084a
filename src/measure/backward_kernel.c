/* Backward kernels by spec (backward_kernel.h). */
#include "measure/backward_kernel.h"

#include <stdlib.h>
#include <string.h>

#include "formats/parse_value.h"
#include "measure/kernel_spec.h"
#include "real/real.h"

/* The pairs of the request into k. */
static enum ga_io_status open_pairs(struct ga_backward_kernel *k,
                                    const struct ga_backward_request *rq, struct ga_io_error *err)
{
    const struct ga_format *f = rq->format;
    const char *domain = rq->domain ? rq->domain : f->bits == 16 ? "pairs:all" : ga_domain_default(f);
    char why[512];

    if (ga_parse_value(f, rq->dy ? rq->dy : "1", &k->dy) != 0)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "--dy takes a number, not '%s'", rq->dy);
    if (ga_pairs_parse(&k->pairs, domain, f, k->dy, why, sizeof why) != 0)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "%s", why);
    k->has_pairs = true;
    return GA_IO_OK;
}

static enum ga_io_status open_plugin(struct ga_backward_kernel *k,
                                     const struct ga_backward_request *rq,
                                     struct ga_plugin_options po, struct ga_io_error *err)
{
    char *path = ga_kernel_resolve_path(rq->base_dir, rq->spec + strlen("plugin:"));
    enum ga_io_status s;

    if (!path)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    if (po.narrow_timeout_s > po.timeout_s)
        po.narrow_timeout_s = po.timeout_s;
    s = ga_plugin_open_backward(path, rq->format, &po, &k->sweep.plugin, err);
    free(path);
    return s;
}

/* A name: a catalogue model first, else a real library's kernel. */
static enum ga_io_status open_named(struct ga_backward_kernel *k,
                                    const struct ga_backward_request *rq,
                                    const struct ga_plugin_options *po, struct ga_io_error *err)
{
    const struct ga_backward_impl *impl = ga_backward_catalogue_find(rq->spec);
    enum ga_real_length length = GA_REAL_LONG;
    const struct ga_real_desc *real = impl ? NULL : ga_real_backward_find_at(rq->spec, &length);

    if (real) {
        enum ga_io_status s = ga_real_open_backward_at(real, rq->format, length, po,
                                                       &k->sweep.plugin, &k->about, err);
        k->sweep.reference = real->approximates;
        if (s == GA_IO_OK) {
            k->real = real;
            k->length = length;
        }
        return s;
    }
    if (!impl)
        return ga_io_fail(err, GA_IO_BAD_SPEC, "'%.200s' is no backward kernel ('gelu-acc list "
                          "--backward')", rq->spec);
    if (!ga_backward_supports(impl, rq->format))
        return ga_io_fail(err, GA_IO_BAD_SPEC, "%s does not support %s", impl->name,
                          rq->format->name);
    k->sweep.impl = impl;
    k->sweep.reference = impl->approximates;
    return GA_IO_OK;
}

enum ga_io_status ga_backward_kernel_open(struct ga_backward_kernel *k,
                                          const struct ga_backward_request *rq,
                                          struct ga_io_error *err)
{
    struct ga_plugin_options po;
    enum ga_io_status s;

    memset(k, 0, sizeof *k);
    if (rq->plugin_options)
        po = *rq->plugin_options;
    else
        ga_plugin_default_options(&po);
    k->sweep.reference = GA_GELU_GRAD;
    k->sweep.threads = rq->threads;
    if ((s = open_pairs(k, rq, err)) != GA_IO_OK)
        return s;
    s = strncmp(rq->spec, "plugin:", 7) == 0 ? open_plugin(k, rq, po, err)
                                              : open_named(k, rq, &po, err);
    if (s != GA_IO_OK) {
        ga_backward_kernel_close(k);
        return s;
    }
    if (rq->have_reference)
        k->sweep.reference = rq->reference;
    k->sweep.name = rq->name ? rq->name : rq->spec + (strncmp(rq->spec, "plugin:", 7) == 0 ? 7 : 0);
    k->sweep.pairs = &k->pairs;
    return GA_IO_OK;
}

void ga_backward_kernel_close(struct ga_backward_kernel *k)
{
    ga_plugin_close(k->sweep.plugin);
    k->sweep.plugin = NULL;
    if (k->has_pairs)
        ga_pairs_free(&k->pairs);
    k->has_pairs = false;
}
