/* The tier of real implementations: GELU as real libraries compute it
 * (PyTorch, oneDNN, SLEEF, Eigen), as opposed to the catalogue's models of
 * them (impls/impl.h).
 *
 * Each library lives in a loadable module, gelu_real_LIB.so, built from
 * src/real/LIB_gelu.* when configure found the library.  This file's table
 * (real.c) is the one place that names them; a module exports the kernels
 * (plugin ABI of <gelu-acc/kernel.h>) and gelu_acc_real_about (module.h).
 * Kernels run in worker processes, as plugins do (isolation/plugin.h), so a
 * library that crashes cannot end the run.
 *
 * Modules are looked for in one directory (ga_real_module_dir):
 * $GELU_ACC_REAL_DIR when set; else src/real/.libs next to the running
 * executable, when there is one (a build tree); else the directory they are
 * installed in, $(pkglibdir). */
#ifndef GA_REAL_H
#define GA_REAL_H

#include <stdbool.h>
#include <stddef.h>

#include "formats/format.h"
#include "impls/impl.h"
#include "io/io_error.h"
#include "isolation/plugin.h"
#include "real/call_length.h"
#include "real/module.h"
#include "truth/function.h"

/* A kernel of a real library, forward or backward: its module's kernels
 * STEM_f32, STEM_bf16, STEM_f16 and what they compute. */
struct ga_real_desc {
    const char *name;        /* stable, as catalogue names: the sweep's --impl NAME */
    const char *module;      /* "torch": the module gelu_real_torch.so */
    const char *stem;        /* its kernels STEM_f32, STEM_bf16, STEM_f16 (, STEM_f64) */
    enum ga_function approximates;
    const char *library;     /* "PyTorch (libtorch)" */
    const char *entry;       /* what is called, on what */
    const char *formula;     /* what it computes, as far as known and where from */
    const char *computes;    /* intermediate precision */
    const char *no_float64;  /* why there is no STEM_f64 kernel; NULL where there is */
};

/* A forward kernel, and its float64 kernel where desc.no_float64 is NULL. */
struct ga_real {
    struct ga_real_desc desc;
    /* entry, formula and computes in float64 (NULL where there is none) */
    const char *entry64;
    const char *formula64;
    const char *computes64;
};

size_t ga_real_count(void);
const struct ga_real *ga_real_at(size_t i);
/* NULL when no entry has that name. */
const struct ga_real *ga_real_find(const char *name);

/* The directory modules are looked for in, into buf; returns buf. */
const char *ga_real_module_dir(char *buf, size_t size);

/* What the module says about r's kernel for f (version, code path, and a
 * refusal when the library does not compute GELU in f here).  GA_IO_LOAD
 * when the module is not there (not built: see configure's summary). */
enum ga_io_status ga_real_describe(const struct ga_real_desc *r, const struct ga_format *f,
                                   struct gelu_acc_real_info *about, struct ga_io_error *err);

/* The lengths a kernel is called at (call_length.h): GA_REAL_LONG for
 * every kernel; GA_REAL_ONE and GA_REAL_TAIL too where r's module calls its
 * library at each length (not SLEEF's: that module is itself the loop
 * around the library's vector and scalar functions). */
enum { GA_REAL_LENGTHS = 3 };
bool ga_real_has_lengths(const struct ga_real_desc *r);
/* What the length is, for pages: "long tensors", "one element", ... */
const char *ga_real_length_text(enum ga_real_length length);
/* The suffix of a row's name at that length: "", "_len1", "_len67". */
const char *ga_real_length_suffix(enum ga_real_length length);

/* r's kernel for f as an implementation under test, run in worker
 * processes with the plugin options (NULL: defaults; name and approximates
 * are r's).  GA_IO_LOAD: the module is missing; GA_IO_UNSUPPORTED: the
 * library refuses f (the message gives its words). */
struct ga_real_kernel;
enum ga_io_status ga_real_open(const struct ga_real *r, const struct ga_format *f,
                               const struct ga_plugin_options *opt,
                               struct ga_real_kernel **out, struct ga_io_error *err);
/* The kernel a row name gives, "NAME" or "NAME_len1"/"NAME_len67" of a
 * table entry with lengths, and its length; NULL when none. */
const struct ga_real *ga_real_find_at(const char *name, enum ga_real_length *length);
const struct ga_real_desc *ga_real_backward_find_at(const char *name,
                                                    enum ga_real_length *length);

/* The same at a length (ga_real_open: GA_REAL_LONG); the impl is named
 * NAME + ga_real_length_suffix(length).  GA_IO_UNSUPPORTED for a length
 * r's module does not have. */
enum ga_io_status ga_real_open_at(const struct ga_real *r, const struct ga_format *f,
                                  enum ga_real_length length,
                                  const struct ga_plugin_options *opt,
                                  struct ga_real_kernel **out, struct ga_io_error *err);
const struct ga_impl *ga_real_impl(const struct ga_real_kernel *k);
const struct gelu_acc_real_info *ga_real_kernel_about(const struct ga_real_kernel *k);
/* NULL is ignored. */
void ga_real_close(struct ga_real_kernel *k);

/* The real backward kernels (real_backward.c), each approximating
 * GA_GELU_GRAD or GA_GELU_TANH_GRAD with kernels STEM_f32/_bf16/_f16 of
 * <gelu-acc/kernel.h>'s backward ABI; no float64. */
size_t ga_real_backward_count(void);
const struct ga_real_desc *ga_real_backward_at(size_t i);
const struct ga_real_desc *ga_real_backward_find(const char *name);

/* r's backward kernel for f, as ga_real_open does for a forward one: run
 * with ga_plugin_run_backward in worker processes; *about as the module
 * says.  Same errors as ga_real_open. */
enum ga_io_status ga_real_open_backward(const struct ga_real_desc *r, const struct ga_format *f,
                                        const struct ga_plugin_options *opt,
                                        struct ga_plugin **out,
                                        struct gelu_acc_real_info *about,
                                        struct ga_io_error *err);

/* ga_real_open_backward at a length (the plugin's impl keeps r's name). */
enum ga_io_status ga_real_open_backward_at(const struct ga_real_desc *r,
                                           const struct ga_format *f,
                                           enum ga_real_length length,
                                           const struct ga_plugin_options *opt,
                                           struct ga_plugin **out,
                                           struct gelu_acc_real_info *about,
                                           struct ga_io_error *err);

/* The machine, for report headers: the CPU's model name (from
 * /proc/cpuinfo; "unknown CPU" elsewhere) and the vector extensions it has
 * among those the libraries dispatch on ("avx2 fma f16c"; AVX-512 F, BW,
 * VL and BF16, AMX "amx-tile amx-bf16 amx-int8"). */
void ga_real_cpu(char *model, size_t model_size, char *isa, size_t isa_size);

/* The C library's version (glibc: gnu_get_libc_version()), or "unknown". */
const char *ga_real_libc_version(void);

#endif
