/* A plugin library loaded and its kernel checked (plugin_checks.h), in the
 * load probe's child. */
#define _GNU_SOURCE
#include "isolation/plugin_checks.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include <gelu-acc/kernel.h>

/* Calling a variable would crash in the worker, which reads as a kernel
 * failure: refuse it here.  A symbol without a type (assembly that lacks
 * .type) or that dladdr cannot place is given the benefit of the doubt. */
static enum ga_io_status check_is_function(const char *spec, const char *symbol,
                                           const char *path, void *kernel,
                                           struct ga_io_error *err)
{
    const ElfW(Sym) *sym = NULL;
    Dl_info info;
    int type;

    if (dladdr1(kernel, &info, (void **)&sym, RTLD_DL_SYMENT) == 0 || sym == NULL)
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

enum ga_io_status ga_plugin_load_checked(const char *spec, const char *path, const char *symbol,
                                         const struct ga_format *f, bool backward,
                                         bool *declared, struct ga_io_error *err)
{
    void *handle, *kernel;
    enum ga_io_status st;

    *declared = false;
    dlerror();
    /* RTLD_NOW: a symbol missing from the library's dependencies is found
     * here, not when a worker first calls the kernel. */
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL)
        return ga_io_fail(err, GA_IO_LOAD, "plugin '%s': cannot load %s: %s%s", spec, path,
                          dlerror(), strchr(path, '/') ? ""
                          : " (a name without '/' is searched in the system library "
                            "directories: write ./name for a file here)");
    dlerror();
    kernel = dlsym(handle, symbol);
    if (kernel == NULL) {
        const char *why = dlerror();
        return ga_io_fail(err, GA_IO_LOAD, "plugin '%s': symbol '%s' not found in %s%s%s%s",
                          spec, symbol, path, why ? " (" : "", why ? why : "", why ? ")" : "");
    }
    st = check_is_function(spec, symbol, path, kernel, err);
    if (st == GA_IO_OK)
        st = check_declared_format(spec, symbol, handle, f, backward, declared, err);
    if (st == GA_IO_OK)
        st = check_abi(spec, path, handle, backward, err);
    return st;
}
