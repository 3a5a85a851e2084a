#include "measure/graded.h"

#include <string.h>

#include "io/array_open.h"

enum ga_io_status ga_graded_open(struct ga_graded *g, const char *inputs_path,
                                 const char *outputs_path, const struct ga_format *f,
                                 struct ga_io_error *err)
{
    enum ga_io_status st;

    memset(g, 0, sizeof *g);
    g->inputs.fd = g->outputs.fd = g->dy.fd = -1;  /* closing is then harmless */
    st = ga_file_open(inputs_path, GA_FILE_AUTO, f, &g->inputs, err);
    if (st != GA_IO_OK)
        return st;
    st = ga_file_open(outputs_path, GA_FILE_AUTO, f, &g->outputs, err);
    if (st != GA_IO_OK) {
        ga_array_close(&g->inputs);
        return st;
    }
    st = ga_array_check_same_length(&g->inputs, &g->outputs, err);
    if (st == GA_IO_OK && g->inputs.length == 0)  /* would grade nothing and pass */
        st = ga_io_fail(err, GA_IO_RANGE, "%s: no elements: nothing to grade", inputs_path);
    if (st != GA_IO_OK)
        ga_graded_close(g);
    return st;
}

/* Keeps the first failure; the others (other threads, later chunks) add
 * nothing the user needs. */
static int read_from(struct ga_graded *g, const struct ga_array_reader *r, uint64_t first,
                     size_t n, ga_bits *out)
{
    struct ga_io_error e;

    if (ga_array_read(r, first, n, out, &e) == GA_IO_OK)
        return 0;
    #pragma omp critical(ga_graded_error)
    if (!g->failed) {
        g->failed = true;
        g->error = e;
    }
    return -1;
}

static int read_inputs(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    struct ga_graded *g = ctx;
    return read_from(g, &g->inputs, first, n, out);
}

static int read_outputs(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    struct ga_graded *g = ctx;
    return read_from(g, &g->outputs, first, n, out);
}

static const char *error_of(void *ctx)
{
    struct ga_graded *g = ctx;
    return g->failed ? g->error.message : NULL;
}

void ga_graded_attach(struct ga_graded *g, const char *description, struct ga_domain *d,
                      struct ga_measurement *m)
{
    ga_domain_from_source(d, g->inputs.format, g->inputs.length,
                          (struct ga_source){ read_inputs, error_of, g }, description);
    m->impl = NULL;
    m->outputs = (struct ga_source){ read_outputs, error_of, g };
}

static int read_dy(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    struct ga_graded *g = ctx;
    return read_from(g, &g->dy, first, n, out);
}

enum ga_io_status ga_graded_open_backward(struct ga_graded *g, const char *x_path,
                                          const char *dy_path, const char *dx_path,
                                          const struct ga_format *f, struct ga_io_error *err)
{
    enum ga_io_status st = ga_graded_open(g, x_path, dx_path, f, err);

    if (st != GA_IO_OK)
        return st;
    st = ga_file_open(dy_path, GA_FILE_AUTO, f, &g->dy, err);
    if (st == GA_IO_OK)
        st = ga_array_check_same_length(&g->inputs, &g->dy, err);
    if (st != GA_IO_OK)
        ga_graded_close(g);
    return st;
}

void ga_graded_attach_backward(struct ga_graded *g, const char *description,
                               struct ga_pairs *pairs, struct ga_source *dx)
{
    ga_pairs_from_sources(pairs, g->inputs.format, g->inputs.length,
                          (struct ga_source){ read_inputs, error_of, g },
                          (struct ga_source){ read_dy, error_of, g }, description);
    *dx = (struct ga_source){ read_outputs, error_of, g };
}

const char *ga_graded_error(const struct ga_graded *g)
{
    return g->failed ? g->error.message : NULL;
}

void ga_graded_close(struct ga_graded *g)
{
    ga_array_close(&g->inputs);
    ga_array_close(&g->outputs);
    ga_array_close(&g->dy);
}
