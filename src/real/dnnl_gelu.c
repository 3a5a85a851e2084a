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
 * Batches are padded to a multiple of 64 elements with copies of the last
 * input, so that primitives are created for few sizes (oneDNN caches them)
 * and the JIT kernel's tail handling plays no part.  One OpenMP thread:
 * the worker processes stay single-threaded, results deterministic. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oneapi/dnnl/dnnl.h>

#include "real/module.h"

enum { PAD = 64 };

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
                                  size_t padded)
{
    static struct cached cache[4];
    struct cached *c = &cache[backward * 2 + (kind == dnnl_eltwise_gelu_erf)];
    char why[192];

    if (c->prim == NULL || c->n != padded || c->type != type) {
        dnnl_primitive_desc_t pd =
            make_pd(engine(), backward, kind, type, padded, why, sizeof why);
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
        c->n = padded;
    }
    return c->prim;
}

/* Run prim on n elements: operand a (a < operands) from in[a] as argument
 * arg[a], the result (the last argument) into out.  Each operand is padded
 * to a multiple of PAD with copies of its last element, so that primitives
 * are created for few sizes and the JIT kernel's tail handling plays no
 * part. */
static void execute(dnnl_primitive_t prim, dnnl_data_type_t type, size_t element_size,
                    int operands, const void *const *in, const int *arg, void *out, size_t n)
{
    static dnnl_stream_t stream;
    size_t padded = (n + PAD - 1) / PAD * PAD, bytes = padded * element_size;
    dnnl_memory_desc_t md;
    dnnl_memory_t mem[3];
    dnnl_exec_arg_t args[3];
    dnnl_dims_t dims = { (dnnl_dim_t)padded };
    unsigned char *buf;

    if (stream == NULL && dnnl_stream_create(&stream, engine(), dnnl_stream_default_flags)
                              != dnnl_success)
        abort();
    if ((buf = malloc((size_t)(operands + 1) * bytes)) == NULL)
        abort();
    for (int a = 0; a < operands; a++) {
        unsigned char *to = buf + (size_t)a * bytes;
        memcpy(to, in[a], n * element_size);
        for (size_t i = n; i < padded; i++)
            memcpy(to + i * element_size, (const unsigned char *)in[a] + (n - 1) * element_size,
                   element_size);
    }
    dnnl_memory_desc_init_by_tag(&md, 1, dims, type, dnnl_a);
    for (int a = 0; a <= operands; a++) {
        if (dnnl_memory_create(&mem[a], &md, engine(), buf + (size_t)a * bytes) != dnnl_success)
            abort();
        args[a].arg = arg[a];
        args[a].memory = mem[a];
    }
    if (dnnl_primitive_execute(prim, stream, operands + 1, args) != dnnl_success
        || dnnl_stream_wait(stream) != dnnl_success)
        abort();
    memcpy(out, buf + (size_t)operands * bytes, n * element_size);
    for (int a = 0; a <= operands; a++)
        dnnl_memory_destroy(mem[a]);
    free(buf);
}

static void run(dnnl_alg_kind_t kind, dnnl_data_type_t type, size_t element_size,
                const void *in, void *out, size_t n)
{
    static const int arg[] = { DNNL_ARG_SRC, DNNL_ARG_DST };

    if (n > 0)
        execute(primitive(0, kind, type, (n + PAD - 1) / PAD * PAD), type, element_size, 1,
                &in, arg, out, n);
}

/* dx from dy and the source x: oneDNN's backward takes x as SRC. */
static void run_backward(dnnl_alg_kind_t kind, dnnl_data_type_t type, size_t element_size,
                         const void *dy, const void *x, void *dx, size_t n)
{
    static const int arg[] = { DNNL_ARG_DIFF_DST, DNNL_ARG_SRC, DNNL_ARG_DIFF_SRC };
    const void *in[2] = { dy, x };

    if (n > 0)
        execute(primitive(1, kind, type, (n + PAD - 1) / PAD * PAD), type, element_size, 2, in,
                arg, dx, n);
}

#define DNNL_BACKWARD_KERNELS(stem, kind)                                            \
    GELU_ACC_BACKWARD_KERNEL_F32(stem##_backward_f32);                               \
    GELU_ACC_BACKWARD_KERNEL_BF16(stem##_backward_bf16);                             \
    GELU_ACC_BACKWARD_KERNEL_F16(stem##_backward_f16);                               \
    void stem##_backward_f32(const float *dy, const float *x, float *dx, size_t n)   \
    {                                                                                \
        run_backward(kind, dnnl_f32, 4, dy, x, dx, n);                               \
    }                                                                                \
    void stem##_backward_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,   \
                              size_t n)                                              \
    {                                                                                \
        run_backward(kind, dnnl_bf16, 2, dy, x, dx, n);                              \
    }                                                                                \
    void stem##_backward_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,    \
                             size_t n)                                               \
    {                                                                                \
        run_backward(kind, dnnl_f16, 2, dy, x, dx, n);                               \
    }

#define DNNL_KERNELS(stem, kind)                                                     \
    GELU_ACC_EXPORT gelu_acc_kernel_f32 stem##_f32;                                  \
    GELU_ACC_EXPORT gelu_acc_kernel_bf16 stem##_bf16;                                \
    GELU_ACC_EXPORT gelu_acc_kernel_f16 stem##_f16;                                  \
    void stem##_f32(const float *in, float *out, size_t n)                           \
    {                                                                                \
        run(kind, dnnl_f32, 4, in, out, n);                                          \
    }                                                                                \
    void stem##_bf16(const uint16_t *in, uint16_t *out, size_t n)                    \
    {                                                                                \
        run(kind, dnnl_bf16, 2, in, out, n);                                         \
    }                                                                                \
    void stem##_f16(const uint16_t *in, uint16_t *out, size_t n)                     \
    {                                                                                \
        run(kind, dnnl_f16, 2, in, out, n);                                          \
    }

GELU_ACC_KERNEL_ABI_TAG;
DNNL_KERNELS(dnnl_erf, dnnl_eltwise_gelu_erf)
DNNL_KERNELS(dnnl_tanh, dnnl_eltwise_gelu_tanh)
DNNL_BACKWARD_KERNELS(dnnl_erf, dnnl_eltwise_gelu_erf)
DNNL_BACKWARD_KERNELS(dnnl_tanh, dnnl_eltwise_gelu_tanh)

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
    pd = make_pd(engine(), strstr(kernel, "_backward_") != NULL, kind, type, PAD, about->refusal,
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
