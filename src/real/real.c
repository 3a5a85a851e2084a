/* The tier of real implementations: the table and the module loader
 * (real.h). */
#define _GNU_SOURCE
#include "real/real.h"

#include <dlfcn.h>
#include <omp.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GA_REAL_MODULE_DIR
#define GA_REAL_MODULE_DIR "/usr/local/lib/gelu-accuracy"
#endif

/* "(= X)": tests/real_models_test checks bit for bit that model (or real
 * implementation) X computes the same on this kind of CPU. */
#define TORCH "PyTorch (libtorch)"
#define OPMATH16 "float32; a 16-bit input widened to float, the result rounded once"

static const struct ga_real table[] = {
    { { "torch_erf", "torch", "torch_erf", GA_GELU, TORCH,
      "at::gelu(x, \"none\") on a contiguous tensor (the default path)",
      "float32: oneDNN's eltwise gelu_erf, which ATen hands contiguous float tensors "
      "(= model erf_dnnl); bfloat16: oneDNN on CPUs with AVX-512 (erf_dnnl reproduces the "
      "figures measured on one), elsewhere ATen's vector kernel (= erf_torch_bf16)",
      "float32; bfloat16: as the path taken", NULL },
      "at::gelu(x, \"none\") on a contiguous double tensor",
      "ATen's vector kernel (oneDNN takes float and bfloat16 only): (x*0.5)*(1 + Sleef_erfd4_u10(x*M_SQRT1_2)) on an AVX2 capability (= sleef_erf_u10)", "double" },
    { { "torch_tanh", "torch", "torch_tanh", GA_GELU_TANH, TORCH,
      "at::gelu(x, \"tanh\") on a contiguous tensor (the default path)",
      "ATen's vector kernel, as torch_nomkldnn_tanh (1.13 hands only exact GELU to oneDNN)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NULL },
      "at::gelu(x, \"tanh\") on a contiguous double tensor",
      "ATen's vector kernel: (0.5*x)*(1 + Sleef_tanhd4_u10(beta*fma(kappa, (x*x)*x, x))) on an AVX2 capability (= sleef_tanh_u10)", "double" },
    { { "torch_nomkldnn_erf", "torch", "torch_nomkldnn_erf", GA_GELU, TORCH,
      "at::gelu(x, \"none\"), contiguous, after setUserEnabledMkldnn(false)",
      "ATen GeluKernel.cpp vector loop: float32 (x*0.5)*(1 + Sleef_erff8_u10(x*M_SQRT1_2)) "
      "(= sleef_erf_u10); bfloat16 every operation and M_SQRT1_2 rounded to bfloat16 "
      "(= model erf_torch_bf16)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NULL },
      "at::gelu(x, \"none\") on a contiguous double tensor, mkldnn disabled",
      "ATen's vector kernel (oneDNN takes float and bfloat16 only): (x*0.5)*(1 + Sleef_erfd4_u10(x*M_SQRT1_2)) on an AVX2 capability (= sleef_erf_u10)", "double" },
    { { "torch_nomkldnn_tanh", "torch", "torch_nomkldnn_tanh", GA_GELU_TANH, TORCH,
      "at::gelu(x, \"tanh\"), contiguous, after setUserEnabledMkldnn(false)",
      "ATen GeluKernel.cpp vector loop: float32 (0.5x)*(1 + Sleef_tanhf8_u10(beta*fma(kappa, "
      "x^3, x))) (= sleef_tanh_u10); bfloat16 every operation rounded (= model tanh_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NULL },
      "at::gelu(x, \"tanh\") on a contiguous double tensor, mkldnn disabled",
      "ATen's vector kernel: (0.5*x)*(1 + Sleef_tanhd4_u10(beta*fma(kappa, (x*x)*x, x))) on an AVX2 capability (= sleef_tanh_u10)", "double" },
    { { "torch_strided_erf", "torch", "torch_strided_erf", GA_GELU, TORCH,
      "at::gelu(x, \"none\") on a non-contiguous view (every other element)",
      "ATen GeluKernel.cpp scalar loop: float32 x*0.5f*(1 + erff(x*M_SQRT1_2)) with the C "
      "library's erff (= model erf); bfloat16 every operation rounded (= erf_torch_bf16)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NULL },
      "at::gelu(x, \"none\") on a non-contiguous double tensor",
      "ATen GeluKernel.cpp scalar loop: x*0.5*(1 + erf(x*M_SQRT1_2)) with the C library's erf (= model erf_f64)", "double" },
    { { "torch_strided_tanh", "torch", "torch_strided_tanh", GA_GELU_TANH, TORCH,
      "at::gelu(x, \"tanh\") on a non-contiguous view (every other element)",
      "ATen GeluKernel.cpp scalar loop: float32 0.5f*x*(1 + tanhf(beta*fmaf(kappa, x^3, x))) "
      "with the C library's tanhf (= model tanh_fma); bfloat16 every operation rounded "
      "(= tanh_native)",
      "float32: float; bfloat16: every operation rounded to bfloat16", NULL },
      "at::gelu(x, \"tanh\") on a non-contiguous double tensor",
      "ATen GeluKernel.cpp scalar loop: 0.5*x*(1 + tanh(beta*fma(kappa, (x*x)*x, x))) with the C library's tanh (GCC fuses x + kappa*x^3 as in float32; model tanh_f64 has no fma)", "double" },
    { { "dnnl_erf", "dnnl", "dnnl_erf", GA_GELU, "oneDNN",
      "eltwise primitive, dnnl_eltwise_gelu_erf, forward inference",
      "jit_uni_eltwise_injector.cpp (2.6.3): Abramowitz-Stegun 7.1.26 erf with oneDNN's "
      "own exp, then fma(erf, 0.5x, 0.5x) (= model erf_dnnl)",
      "float32 (16-bit types where the CPU supports them)", "oneDNN 2.6 has no f64 data type (dnnl_data_type_t: f32, bf16, f16, s32, s8, u8)" },
      NULL, NULL, NULL },
    { { "dnnl_tanh", "dnnl", "dnnl_tanh", GA_GELU_TANH, "oneDNN",
      "eltwise primitive, dnnl_eltwise_gelu_tanh, forward inference",
      "jit_uni_eltwise_injector.cpp (2.6.3): u = sqrt(2/pi)*x*fma(0.044715, x*x, 1), "
      "0.5*(1 + tanh(u))*x with oneDNN's own tanh",
      "float32 (16-bit types where the CPU supports them)", "oneDNN 2.6 has no f64 data type (dnnl_data_type_t: f32, bf16, f16, s32, s8, u8)" },
      NULL, NULL, NULL },
    { { "sleef_erf_u10", "sleef", "sleef_erf_u10", GA_GELU, "SLEEF",
      "Sleef_erff8_u10 (8 lanes, dispatched at run time)",
      "(x*0.5f)*(1 + Sleef_erff8_u10(x*(float)M_SQRT1_2))", OPMATH16, NULL },
      "Sleef_erfd4_u10 (4 lanes, dispatched at run time)",
      "(x*0.5)*(1 + Sleef_erfd4_u10(x*M_SQRT1_2))", "double" },
    { { "sleef_erf_u10_scalar", "sleef", "sleef_erf_u10_scalar", GA_GELU, "SLEEF",
      "Sleef_erff_u10 (scalar)",
      "(x*0.5f)*(1 + Sleef_erff_u10(x*(float)M_SQRT1_2))", OPMATH16, NULL },
      "Sleef_erf_u10 (scalar)",
      "(x*0.5)*(1 + Sleef_erf_u10(x*M_SQRT1_2))", "double" },
    { { "sleef_tanh_u10", "sleef", "sleef_tanh_u10", GA_GELU_TANH, "SLEEF",
      "Sleef_tanhf8_u10 (8 lanes, dispatched at run time)",
      "(0.5f*x)*(1 + Sleef_tanhf8_u10(beta*fmaf(0.044715f, (x*x)*x, x)))", OPMATH16, NULL },
      "Sleef_tanhd4_u10 (4 lanes, dispatched at run time)",
      "(0.5*x)*(1 + Sleef_tanhd4_u10(beta*fma(0.044715, (x*x)*x, x))), beta = M_2_SQRTPI*M_SQRT1_2", "double" },
    { { "sleef_tanh_u10_scalar", "sleef", "sleef_tanh_u10_scalar", GA_GELU_TANH, "SLEEF",
      "Sleef_tanhf_u10 (scalar)",
      "(0.5f*x)*(1 + Sleef_tanhf_u10(beta*fmaf(0.044715f, (x*x)*x, x)))", OPMATH16, NULL },
      "Sleef_tanh_u10 (scalar)",
      "(0.5*x)*(1 + Sleef_tanh_u10(beta*fma(0.044715, (x*x)*x, x))), beta = M_2_SQRTPI*M_SQRT1_2", "double" },
    { { "sleef_tanh_u35", "sleef", "sleef_tanh_u35", GA_GELU_TANH, "SLEEF",
      "Sleef_tanhf8_u35 (8 lanes, dispatched at run time)",
      "(0.5f*x)*(1 + Sleef_tanhf8_u35(beta*fmaf(0.044715f, (x*x)*x, x)))", OPMATH16, NULL },
      "Sleef_tanhd4_u35 (4 lanes, dispatched at run time)",
      "(0.5*x)*(1 + Sleef_tanhd4_u35(beta*fma(0.044715, (x*x)*x, x))), beta = M_2_SQRTPI*M_SQRT1_2", "double" },
    { { "sleef_tanh_u35_scalar", "sleef", "sleef_tanh_u35_scalar", GA_GELU_TANH, "SLEEF",
      "Sleef_tanhf_u35 (scalar)",
      "(0.5f*x)*(1 + Sleef_tanhf_u35(beta*fmaf(0.044715f, (x*x)*x, x)))", OPMATH16, NULL },
      "Sleef_tanh_u35 (scalar)",
      "(0.5*x)*(1 + Sleef_tanh_u35(beta*fma(0.044715, (x*x)*x, x))), beta = M_2_SQRTPI*M_SQRT1_2", "double" },
    { { "eigen_erf", "eigen", "eigen_erf", GA_GELU, "Eigen",
      "Array::erf() (unsupported/Eigen/SpecialFunctions), TensorFlow's Erf op",
      "tf.nn.gelu(approximate=False): 0.5*x*(1 + erf(x/1.4142135623730951)), one op at a "
      "time (16-bit: = model erf_native)",
      "the format itself: every operation and constant rounded to it (float32: float)", "not wrapped (the module instantiates Eigen's float, bfloat16 and half arrays)" },
      NULL, NULL, NULL },
    { { "eigen_tanh", "eigen", "eigen_tanh", GA_GELU_TANH, "Eigen",
      "Array::tanh(), TensorFlow's Tanh op",
      "tf.nn.gelu(approximate=True): 0.5*x*(1 + tanh(0.7978845608028654*(x + "
      "0.044715*pow(x, 3)))), one op at a time",
      "the format itself: every operation and constant rounded to it (float32: float)", "not wrapped (the module instantiates Eigen's float, bfloat16 and half arrays)" },
      NULL, NULL, NULL },
    { { "eigen_avx2_erf", "eigen_avx2", "eigen_avx2_erf", GA_GELU, "Eigen",
      "Array::erf() compiled with -mavx2 -mfma, TensorFlow's Erf op on an AVX2 build",
      "as eigen_erf, with Eigen's AVX2 packets and fused multiply-adds",
      "the format itself: every operation and constant rounded to it (float32: float)", "not wrapped (the module instantiates Eigen's float, bfloat16 and half arrays)" },
      NULL, NULL, NULL },
    { { "eigen_avx2_tanh", "eigen_avx2", "eigen_avx2_tanh", GA_GELU_TANH, "Eigen",
      "Array::tanh() compiled with -mavx2 -mfma, TensorFlow's Tanh op on an AVX2 build",
      "as eigen_tanh, with Eigen's AVX2 packets and fused multiply-adds",
      "the format itself: every operation and constant rounded to it (float32: float)", "not wrapped (the module instantiates Eigen's float, bfloat16 and half arrays)" },
      NULL, NULL, NULL },
};

#define TABLE_COUNT (sizeof table / sizeof table[0])

size_t ga_real_count(void)
{
    return TABLE_COUNT;
}

const struct ga_real *ga_real_at(size_t i)
{
    return i < TABLE_COUNT ? &table[i] : NULL;
}

const struct ga_real *ga_real_find(const char *name)
{
    for (size_t i = 0; i < TABLE_COUNT; i++)
        if (strcmp(table[i].desc.name, name) == 0)
            return &table[i];
    return NULL;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *ga_real_module_dir(char *buf, size_t size)
{
    const char *env = getenv("GELU_ACC_REAL_DIR");
    char exe[PATH_MAX];
    ssize_t n;

    if (env != NULL && env[0] != '\0') {
        snprintf(buf, size, "%s", env);
        return buf;
    }
    /* A build tree: the executable sits at its top, the modules in src/real/.libs. */
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        char *slash;
        exe[n] = '\0';
        slash = strrchr(exe, '/');
        if (slash != NULL) {
            *slash = '\0';
            snprintf(buf, size, "%s/src/real/.libs", exe);
            if (is_dir(buf))
                return buf;
        }
    }
    snprintf(buf, size, "%s", GA_REAL_MODULE_DIR);
    return buf;
}

static const char *suffix(const struct ga_format *f)
{
    return f->id == GA_FLOAT32 ? "f32" : f->id == GA_FLOAT64 ? "f64"
           : f->id == GA_BFLOAT16 ? "bf16" : "f16";
}

/* Modules stay loaded once asked about: unloading a library such as
 * libtorch while the process lives is not safe. */
struct loaded {
    char module[32];
    void *handle;
};
static struct loaded loaded[8];
static pthread_mutex_t loaded_lock = PTHREAD_MUTEX_INITIALIZER;

static void *module_handle(const struct ga_real_desc *r, char *path, size_t path_size,
                           struct ga_io_error *err)
{
    char dir[PATH_MAX];
    void *handle = NULL;

    snprintf(path, path_size, "%s/gelu_real_%s.so", ga_real_module_dir(dir, sizeof dir),
             r->module);
    pthread_mutex_lock(&loaded_lock);
    for (size_t i = 0; i < sizeof loaded / sizeof loaded[0] && handle == NULL; i++)
        if (strcmp(loaded[i].module, r->module) == 0)
            handle = loaded[i].handle;
    if (handle == NULL) {
        if (access(path, R_OK) != 0) {
            ga_io_fail(err, GA_IO_LOAD, "'%s' needs the %s module %s, which is not there "
                       "(configure did not find %s, or was given --without-%.*s; "
                       "GELU_ACC_REAL_DIR names another directory)",
                       r->name, r->library, path, r->library,
                       (int)strcspn(r->module, "_"), r->module);
        } else if ((handle = dlopen(path, RTLD_NOW | RTLD_LOCAL)) == NULL) {
            ga_io_fail(err, GA_IO_LOAD, "'%s': cannot load %s: %s", r->name, path, dlerror());
        } else {
            for (size_t i = 0; i < sizeof loaded / sizeof loaded[0]; i++)
                if (loaded[i].handle == NULL) {
                    snprintf(loaded[i].module, sizeof loaded[i].module, "%s", r->module);
                    loaded[i].handle = handle;
                    break;
                }
        }
    }
    pthread_mutex_unlock(&loaded_lock);
    return handle;
}

enum ga_io_status ga_real_describe(const struct ga_real_desc *r, const struct ga_format *f,
                                   struct gelu_acc_real_info *about, struct ga_io_error *err)
{
    char path[PATH_MAX + 64], kernel[96];
    void *handle;
    gelu_acc_real_about_fn *fn;
    bool described;
    int threads = omp_get_max_threads();

    memset(about, 0, sizeof *about);
    if (ga_is_small_format(f))  /* the modules have kernels for the wide formats only */
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "'%s': no %s kernel (the real libraries "
                          "run in float32, float16, bfloat16 and float64)", r->name, f->name);
    if (f->id == GA_FLOAT64 && r->no_float64 != NULL)
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "'%s': no float64 kernel: %s", r->name,
                          r->no_float64);
    handle = module_handle(r, path, sizeof path, err);  /* its constructors run here too */
    omp_set_num_threads(threads);
    if (handle == NULL)
        return err ? err->status : GA_IO_LOAD;
    fn = (gelu_acc_real_about_fn *)dlsym(handle, GELU_ACC_REAL_ABOUT_SYMBOL);
    snprintf(kernel, sizeof kernel, "%s_%s", r->stem, suffix(f));
    /* The module runs here, in our process: a library that sets its own
     * thread count (at::set_num_threads, omp_set_num_threads) must not leave
     * our sweeps on one thread. */
    described = fn != NULL && fn(kernel, about) == 0;
    omp_set_num_threads(threads);
    if (!described)
        return ga_io_fail(err, GA_IO_LOAD, "'%s': %s does not describe kernel %s", r->name,
                          path, kernel);
    /* The strings come from a library: make sure they end. */
    about->version[sizeof about->version - 1] = '\0';
    about->path[sizeof about->path - 1] = '\0';
    about->refusal[sizeof about->refusal - 1] = '\0';
    return ga_io_ok(err);
}

struct ga_real_kernel {
    struct ga_plugin *plugin;
    struct ga_impl impl;
    char name[96];     /* r's name and the length's suffix */
    struct gelu_acc_real_info about;
    char models[512];
};

bool ga_real_has_lengths(const struct ga_real_desc *r)
{
    return strcmp(r->module, "sleef") != 0;
}

const char *ga_real_length_text(enum ga_real_length length)
{
    switch (length) {
    case GA_REAL_ONE: return "one element per call";
    case GA_REAL_TAIL: return "length 67: the 3 elements after a 64-element vector body";
    default: return "long tensors: every element in the vector body";
    }
}

const char *ga_real_length_suffix(enum ga_real_length length)
{
    return length == GA_REAL_ONE ? "_len1" : length == GA_REAL_TAIL ? "_len67" : "";
}

/* The length whose suffix ends name[0..len), its length without it in *stem. */
static enum ga_real_length length_of(const char *name, size_t *stem)
{
    size_t len = strlen(name);

    for (int l = GA_REAL_LENGTHS - 1; l > GA_REAL_LONG; l--) {
        const char *suffix = ga_real_length_suffix((enum ga_real_length)l);
        size_t s = strlen(suffix);
        if (len > s && strcmp(name + len - s, suffix) == 0) {
            *stem = len - s;
            return (enum ga_real_length)l;
        }
    }
    *stem = len;
    return GA_REAL_LONG;
}

const struct ga_real *ga_real_find_at(const char *name, enum ga_real_length *length)
{
    size_t stem;

    *length = length_of(name, &stem);
    for (size_t i = 0; i < ga_real_count(); i++) {
        const struct ga_real *r = ga_real_at(i);
        if (strlen(r->desc.name) == stem && strncmp(r->desc.name, name, stem) == 0
            && (*length == GA_REAL_LONG || ga_real_has_lengths(&r->desc)))
            return r;
    }
    return NULL;
}

const struct ga_real_desc *ga_real_backward_find_at(const char *name,
                                                    enum ga_real_length *length)
{
    size_t stem;

    *length = length_of(name, &stem);
    for (size_t i = 0; i < ga_real_backward_count(); i++) {
        const struct ga_real_desc *r = ga_real_backward_at(i);
        if (strlen(r->name) == stem && strncmp(r->name, name, stem) == 0
            && (*length == GA_REAL_LONG || ga_real_has_lengths(r)))
            return r;
    }
    return NULL;
}

/* The plugin spec of r's kernel for f at length
 * (MODULE.so:STEM[_lenN]_SUFFIX) and the options it runs with: opt (NULL:
 * defaults) under r's name. */
static void kernel_spec(const struct ga_real_desc *r, const struct ga_format *f,
                        enum ga_real_length length, const struct ga_plugin_options *opt,
                        struct ga_plugin_options *po, char *spec, size_t size)
{
    char path[PATH_MAX + 64];

    if (opt != NULL)
        *po = *opt;
    else
        ga_plugin_default_options(po);
    po->name = r->name;
    po->approximates = r->approximates;
    module_handle(r, path, sizeof path, NULL);
    snprintf(spec, size, "%s:%s%s_%s", path, r->stem, ga_real_length_suffix(length), suffix(f));
}

enum ga_io_status ga_real_open(const struct ga_real *real, const struct ga_format *f,
                               const struct ga_plugin_options *opt,
                               struct ga_real_kernel **out, struct ga_io_error *err)
{
    return ga_real_open_at(real, f, GA_REAL_LONG, opt, out, err);
}

enum ga_io_status ga_real_open_at(const struct ga_real *real, const struct ga_format *f,
                                  enum ga_real_length length,
                                  const struct ga_plugin_options *opt,
                                  struct ga_real_kernel **out, struct ga_io_error *err)
{
    const struct ga_real_desc *r = &real->desc;
    int threads;
    struct ga_plugin_options po;
    struct ga_real_kernel *k;
    char spec[PATH_MAX + 160];
    enum ga_io_status st;

    *out = NULL;
    if (length != GA_REAL_LONG && !ga_real_has_lengths(r))
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "'%s': the module is the loop; its library "
                          "has no code path by length", r->name);
    if ((k = calloc(1, sizeof *k)) == NULL)
        return ga_io_fail(err, GA_IO_SYSTEM, "out of memory");
    st = ga_real_describe(r, f, &k->about, err);
    if (st == GA_IO_OK && k->about.refusal[0] != '\0')
        st = ga_io_fail(err, GA_IO_UNSUPPORTED, "%s %s refuses GELU in %s here: %s", r->library,
                        k->about.version, f->name, k->about.refusal);
    if (st != GA_IO_OK) {
        free(k);
        return st;
    }
    kernel_spec(r, f, length, opt, &po, spec, sizeof spec);
    snprintf(k->name, sizeof k->name, "%s%s", r->name, ga_real_length_suffix(length));
    po.name = k->name;
    threads = omp_get_max_threads();
    st = ga_plugin_open(spec, f, &po, &k->plugin, err);  /* loaded in children only */
    omp_set_num_threads(threads);
    if (st != GA_IO_OK) {
        free(k);
        return st;
    }
    snprintf(k->models, sizeof k->models, "%s %s: %s; %s%s%s", r->library, k->about.version,
             f->id == GA_FLOAT64 ? real->entry64 : r->entry, k->about.path,
             length == GA_REAL_LONG ? "" : "; ",
             length == GA_REAL_LONG ? "" : ga_real_length_text(length));
    k->impl = *ga_plugin_impl(k->plugin);
    k->impl.models = k->models;
    k->impl.formula = f->id == GA_FLOAT64 ? real->formula64 : r->formula;
    k->impl.computes = f->id == GA_FLOAT64 ? real->computes64 : r->computes;
    k->impl.real = true;
    *out = k;
    return ga_io_ok(err);
}

enum ga_io_status ga_real_open_backward(const struct ga_real_desc *r, const struct ga_format *f,
                                        const struct ga_plugin_options *opt,
                                        struct ga_plugin **out,
                                        struct gelu_acc_real_info *about,
                                        struct ga_io_error *err)
{
    return ga_real_open_backward_at(r, f, GA_REAL_LONG, opt, out, about, err);
}

enum ga_io_status ga_real_open_backward_at(const struct ga_real_desc *r,
                                           const struct ga_format *f,
                                           enum ga_real_length length,
                                           const struct ga_plugin_options *opt,
                                           struct ga_plugin **out,
                                           struct gelu_acc_real_info *about,
                                           struct ga_io_error *err)
{
    struct ga_plugin_options po;
    char spec[PATH_MAX + 160];
    enum ga_io_status st;
    int threads;

    *out = NULL;
    if (length != GA_REAL_LONG && !ga_real_has_lengths(r))
        return ga_io_fail(err, GA_IO_UNSUPPORTED, "'%s': the module is the loop; its library "
                          "has no code path by length", r->name);
    st = ga_real_describe(r, f, about, err);
    if (st == GA_IO_OK && about->refusal[0] != '\0')
        st = ga_io_fail(err, GA_IO_UNSUPPORTED, "%s %s refuses GELU backward in %s here: %s",
                        r->library, about->version, f->name, about->refusal);
    if (st != GA_IO_OK)
        return st;
    kernel_spec(r, f, length, opt, &po, spec, sizeof spec);
    threads = omp_get_max_threads();
    st = ga_plugin_open_backward(spec, f, &po, out, err);
    omp_set_num_threads(threads);
    return st;
}

const struct ga_impl *ga_real_impl(const struct ga_real_kernel *k)
{
    return &k->impl;
}

const struct gelu_acc_real_info *ga_real_kernel_about(const struct ga_real_kernel *k)
{
    return &k->about;
}

void ga_real_close(struct ga_real_kernel *k)
{
    if (k == NULL)
        return;
    ga_plugin_close(k->plugin);
    free(k);
}
