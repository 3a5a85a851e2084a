/* Real oneDNN: the eltwise primitive's gelu_erf and gelu_tanh (C API).
 *
 * Kernels: dnnl_erf_f32/_bf16/_f16 (dnnl_eltwise_gelu_erf), dnnl_tanh_...
 * (dnnl_eltwise_gelu_tanh), forward inference on a one-dimensional tensor of
 * the format's data type, source and destination distinct; and the backward
 * ones, dnnl_erf_backward_f32... (ABI 2: dx from dy and the source x).  oneDNN picks
 * its implementation at run time (a JIT kernel for the CPU's ISA, or its
 * reference code); gelu_acc_real_about reports the one it picked
 * (dnnl_query_impl_info_str) and oneDNN's effective ISA, and a data type the
 * CPU lacks (bfloat16 without AVX-512, float16 in 2.6) as a refusal.
 *
 * Each kernel comes at the three lengths of call_length.h (STEM: every
 * input in the JIT kernel's vector body; STEM_len1; STEM_len67: its masked
 * tail after a 64-element body); a primitive is kept per size, and the
 * long length pads batches to few sizes.  One OpenMP thread:
 * the worker processes stay single-threaded, results deterministic. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#include "real/call_length.h"
#include "real/module.h"

/* The primitive for (kind, type, n), forward inference or backward (dx =
 * dy * gelu'(x) from the source x, with the forward-training hint oneDNN's
 * API requires), or NULL with *why filled. */
static dnnl_primitive_desc_t make_pd(dnnl_engine_t engine, int backward, dnnl_alg_kind_t kind,
                                     dnnl_data_type_t type, size_t n, char *why, size_t size)
{
    dnnl_memory_desc_t md;
    dnnl_eltwise_desc_t fd, bd;
    dnnl_primitive_desc_t hint = NULL, pd = NULL;
    dnnl_dims_t dims = { (dnnl_dim_t)n };
    dnnl_status_t st;

    st = dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a);
    if (st == dnnl_success)
        st = dnnl_eltwise_forward_desc_init(&fd, backward ? dnnl_forward_training
                                                          : dnnl_forward_inference,
                                            kind, &md, 0.f, 0.f);
    if (st == dnnl_success)
        st = dnnl_primitive_desc_create(backward ? &hint : &pd, &fd, NULL, engine, NULL);
    if (st == dnnl_success && backward) {
        st = dnnl_eltwise_backward_desc_init(&bd, kind, &md, &md, 0.f, 0.f);
        if (st == dnnl_success)
            st = dnnl_primitive_desc_create(&pd, &bd, NULL, engine, hint);
    }
    if (hint)
        dnnl_primitive_desc_destroy(hint);
    if (st != dnnl_success) {
        snprintf(why, size, "no eltwise %s%s primitive for %s on this CPU (dnnl status %d%s)",
                 backward ? "backward " : "",
                 kind == dnnl_eltwise_gelu_erf ? "gelu_erf" : "gelu_tanh",
                 type == dnnl_f32 ? "f32" : type == dnnl_bf16 ? "bf16" : "f16", (int)st,
                 st == dnnl_unimplemented ? ": unimplemented" : "");
        return NULL;
    }
    return pd;
}

static dnnl_engine_t engine(void)
{
    static dnnl_engine_t e;
    if (e == NULL) {
        omp_set_num_threads(1);
        if (dnnl_engine_create(&e, dnnl_cpu, 0) != dnnl_success)
            abort();
    }
    return e;
}

/* One primitive per direction, (kind, type) and size, kept for the next
 * call of the same size: a sweep calls with the same batch size again and
 * again.  A library refusal aborts (gelu_acc_real_about reports it). */
struct cached {
    int backward;
    dnnl_alg_kind_t kind;
    dnnl_data_type_t type;
    size_t n;
    dnnl_primitive_t prim;
};

static dnnl_primitive_t primitive(int backward, dnnl_alg_kind_t kind, dnnl_data_type_t type,
                                  size_t n)
{
    static struct cached cache[4];
    struct cached *c = &cache[backward * 2 + (kind == dnnl_eltwise_gelu_erf)];
    char why[192];

    if (c->prim == NULL || c->n != n || c->type != type) {
        dnnl_primitive_desc_t pd =
            make_pd(engine(), backward, kind, type, n, why, sizeof why);
        if (pd == NULL) {
            fprintf(stderr, "gelu_real_dnnl: %s\n", why);
            abort();
        }
        if (c->prim)
            dnnl_primitive_destroy(c->prim);
        if (dnnl_primitive_create(&c->prim, pd) != dnnl_success)
            abort();
        dnnl_primitive_desc_destroy(pd);
        c->backward = backward;
        c->kind = kind;
        c->type = type;
        c->n = n;
    }
    return c->prim;
}

/* What a kernel runs: the primitive's direction, algorithm and type. */
struct call {
    int backward;
    dnnl_alg_kind_t kind;
    dnnl_data_type_t type;
    size_t element_size;
};

/* The primitive on exactly n elements (ga_real_body): operand a from in[a]
 * (x; or dy then x, the source, for backward), the result into out. */
static void execute(void *ctx, const void *const *in, void *out, size_t n)
{
    static const int forward_arg[] = { DNNL_ARG_SRC, DNNL_ARG_DST };
    static const int backward_arg[] = { DNNL_ARG_DIFF_DST, DNNL_ARG_SRC, DNNL_ARG_DIFF_SRC };
    static dnnl_stream_t stream;
    const struct call *c = ctx;
    const int *arg = c->backward ? backward_arg : forward_arg;
    int operands = c->backward ? 2 : 1;
    dnnl_primitive_t prim = primitive(c->backward, c->kind, c->type, n);
    size_t bytes = n * c->element_size;
    dnnl_memory_desc_t md;
    dnnl_memory_t mem[3];
    dnnl_exec_arg_t args[3];
    dnnl_dims_t dims = { (dnnl_dim_t)n };
    unsigned char *buf;

    if (stream == NULL && dnnl_stream_create(&stream, engine(), dnnl_stream_default_flags)
                              != dnnl_success)
        abort();
    if ((buf = malloc((size_t)(operands + 1) * bytes)) == NULL)
        abort();
    for (int a = 0; a < operands; a++)
        memcpy(buf + (size_t)a * bytes, in[a], bytes);
    dnnl_memory_desc_init_by_tag(&md, 1, dims, c->type, dnnl_a);
    for (int a = 0; a <= operands; a++) {
        if (dnnl_memory_create(&mem[a], &md, engine(), buf + (size_t)a * bytes) != dnnl_success)
            abort();
        args[a].arg = arg[a];
        args[a].memory = mem[a];
    }
    if (dnnl_primitive_execute(prim, stream, operands + 1, args) != dnnl_success
        || dnnl_stream_wait(stream) != dnnl_success)
        abort();
    memcpy(out, buf + (size_t)operands * bytes, bytes);
    for (int a = 0; a <= operands; a++)
        dnnl_memory_destroy(mem[a]);
    free(buf);
}

static void run(enum ga_real_length length, dnnl_alg_kind_t kind, dnnl_data_type_t type,
                size_t element_size, const void *in, void *out, size_t n)
{
    struct call c = { 0, kind, type, element_size };

    ga_real_call_length(length, execute, &c, 1, &in, out, n, element_size);
}

/* dx from dy and the source x: oneDNN's backward takes x as SRC. */
static void run_backward(enum ga_real_length length, dnnl_alg_kind_t kind,
                         dnnl_data_type_t type, size_t element_size, const void *dy,
                         const void *x, void *dx, size_t n)
{
    struct call c = { 1, kind, type, element_size };
    const void *in[2] = { dy, x };

    ga_real_call_length(length, execute, &c, 2, in, dx, n, element_size);
}

#define DNNL_BACKWARD_KERNELS(stem, length, kind)                                    \
    GELU_ACC_BACKWARD_KERNEL_F32(stem##_f32);                                        \
    GELU_ACC_BACKWARD_KERNEL_BF16(stem##_bf16);                                      \
    GELU_ACC_BACKWARD_KERNEL_F16(stem##_f16);                                        \
    void stem##_f32(const float *dy, const float *x, float *dx, size_t n)            \
    {                                                                                \
        run_backward(length, kind, dnnl_f32, 4, dy, x, dx, n);                       \
    }                                                                                \
    void stem##_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)  \
    {                                                                                \
        run_backward(length, kind, dnnl_bf16, 2, dy, x, dx, n);                      \
    }                                                                                \
    void stem##_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx, size_t n)   \
    {                                                                                \
        run_backward(length, kind, dnnl_f16, 2, dy, x, dx, n);                       \
    }

#define DNNL_FORWARD_KERNELS(stem, length, kind)                                     \
    GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                                  \
    GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;                                \
    GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                                  \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        run(length, kind, dnnl_f32, 4, in, out, n);                                  \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        run(length, kind, dnnl_bf16, 2, in, out, n);                                 \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        run(length, kind, dnnl_f16, 2, in, out, n);                                  \
    }

/* Forward and backward at the three lengths of call_length.h: STEM (long),
 * STEM_len1, STEM_len67, STEM_backward, STEM_backward_len1... */
#define DNNL_KERNELS(stem, kind)                                                     \
    DNNL_FORWARD_KERNELS(stem, GA_REAL_LONG, kind)                                   \
    DNNL_FORWARD_KERNELS(stem##_len1, GA_REAL_ONE, kind)                             \
    DNNL_FORWARD_KERNELS(stem##_len67, GA_REAL_TAIL, kind)                           \
    DNNL_BACKWARD_KERNELS(stem##_backward, GA_REAL_LONG, kind)                       \
    DNNL_BACKWARD_KERNELS(stem##_backward_len1, GA_REAL_ONE, kind)                   \
    DNNL_BACKWARD_KERNELS(stem##_backward_len67, GA_REAL_TAIL, kind)

GELU_ACC_KERNEL_ABI_TAG;
DNNL_KERNELS(dnnl_erf, dnnl_eltwise_gelu_erf)
DNNL_KERNELS(dnnl_tanh, dnnl_eltwise_gelu_tanh)

static const char *isa_name(dnnl_cpu_isa_t isa)
{
    switch (isa) {
    case dnnl_cpu_isa_sse41: return "sse41";
    case dnnl_cpu_isa_avx: return "avx";
    case dnnl_cpu_isa_avx2: return "avx2";
    case dnnl_cpu_isa_avx2_vnni: return "avx2_vnni";
    case dnnl_cpu_isa_avx512_mic: return "avx512_mic";
    case dnnl_cpu_isa_avx512_mic_4ops: return "avx512_mic_4ops";
    case dnnl_cpu_isa_avx512_core: return "avx512_core";
    case dnnl_cpu_isa_avx512_core_vnni: return "avx512_core_vnni";
    case dnnl_cpu_isa_avx512_core_bf16: return "avx512_core_bf16";
    case dnnl_cpu_isa_avx512_core_amx: return "avx512_core_amx";
    default: return "unknown";
    }
}

GELU_ACC_EXPORT gelu_acc_real_about_fn gelu_acc_real_about;

int gelu_acc_real_about(const char *kernel, struct gelu_acc_real_info *about)
{
    const dnnl_version_t *v = dnnl_version();
    dnnl_alg_kind_t kind;
    dnnl_data_type_t type;
    dnnl_primitive_desc_t pd;
    const char *impl = "?";
    size_t len = strlen(kernel);

    if (strncmp(kernel, "dnnl_erf_", 9) == 0)
        kind = dnnl_eltwise_gelu_erf;
    else if (strncmp(kernel, "dnnl_tanh_", 10) == 0)
        kind = dnnl_eltwise_gelu_tanh;
    else
        return -1;
    if (len > 4 && strcmp(kernel + len - 4, "_f32") == 0)
        type = dnnl_f32;
    else if (len > 5 && strcmp(kernel + len - 5, "_bf16") == 0)
        type = dnnl_bf16;
    else if (len > 4 && strcmp(kernel + len - 4, "_f16") == 0)
        type = dnnl_f16;
    else
        return -1;
    memset(about, 0, sizeof *about);
    snprintf(about->version, sizeof about->version, "%d.%d.%d", v->major, v->minor, v->patch);
    pd = make_pd(engine(), strstr(kernel, "_backward_") != NULL, kind, type, GA_REAL_BODY, about->refusal,
                 sizeof about->refusal);
    if (pd != NULL) {
        dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
        snprintf(about->path, sizeof about->path, "implementation %s; effective ISA %s", impl,
                 isa_name(dnnl_get_effective_cpu_isa()));
        dnnl_primitive_desc_destroy(pd);
    } else {
        snprintf(about->path, sizeof about->path, "effective ISA %s",
                 isa_name(dnnl_get_effective_cpu_isa()));
    }
    return 0;
}
