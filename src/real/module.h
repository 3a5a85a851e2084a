/* What a real-library module exports besides its kernels (C and C++).
 *
 * A module (gelu_real_LIB.so, built from src/real/LIB_gelu.*) wraps one
 * library: its kernels follow the plugin ABI of <gelu-acc/kernel.h>, named
 * STEM_f32, STEM_bf16, STEM_f16 for the stems that real.c lists, and one
 * function tells what the library says about itself at run time. */
#ifndef GA_REAL_MODULE_H
#define GA_REAL_MODULE_H

#include <stddef.h>

#include <gelu-acc/kernel.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gelu_acc_real_info {
    char version[64];   /* the library's version, read at run time where it tells */
    char path[192];     /* the code path or ISA it dispatches to, as it reports it */
    char refusal[192];  /* non-empty: the library refuses this kernel, in its words */
};

/* Fill *about for the kernel named `kernel` (e.g. "torch_erf_bf16"); returns
 * 0, or -1 for a name the module does not have.  Must not start threads. */
typedef int gelu_acc_real_about_fn(const char *kernel, struct gelu_acc_real_info *about);

#define GELU_ACC_REAL_ABOUT_SYMBOL "gelu_acc_real_about"

#ifdef __cplusplus
}
#endif

#endif
