/* gelu-acc kernel ABI: what a shared library must export so that gelu-acc
 * can measure its GELU.
 *
 * A kernel computes out[i] = gelu(in[i]) for i < n, one function per format.
 * gelu-acc names it "path/to/lib.so:symbol" (in a baseline file:
 * "plugin:path/to/lib.so:symbol"), loads it with dlopen in child processes
 * (never in gelu-acc's own: once to check it, then once in each worker
 * process, so its constructors run several times) and calls it on batches
 * of inputs (every encoding of the format, in an exhaustive sweep).
 *
 * Contract:
 * - in and out do not overlap; both hold n elements; n may be 0.  The kernel
 *   reads in[0..n) and writes out[0..n), nothing before or after: gelu-acc
 *   places both arrays so that they end at an inaccessible guard page, so
 *   in[n] or out[n] kills the call (reported as a kernel failure, with the
 *   element touched).  The arrays are aligned to their element size only.
 * - float32 and float64 travel as C float and double values.
 * - float16 and bfloat16 values travel as their 16-bit encodings
 *   (IEEE binary16; bfloat16 = the top half of a float32), in host order.
 * - The small formats (float8_e4m3fn, float8_e5m2, float6_e2m3,
 *   float6_e3m2, float4_e2m1) travel one encoding per byte, right-aligned:
 *   the bits above a 6- or 4-bit format are 0 in every input, and must be 0
 *   in every output (an output with them set fails the measurement).
 * - The kernel may be called concurrently from several threads and processes,
 *   on disjoint arrays.  It must keep no state between calls: the result for
 *   in[i] depends on in[i] alone, never on the batch around it nor on i.
 *   gelu-acc runs a sample of each batch again at other positions (31
 *   inputs reversed after the batch, in the same call; the last input alone
 *   in a call of one, for one batch in 16) and fails the measurement when
 *   an output changes.
 * - It must not retain the pointers after returning.
 * - gelu-acc calls it in a separate worker process, so a crash (signal) or a
 *   hang is reported with the input range that caused it instead of ending the
 *   run.  That process is a fork of gelu-acc (no exec) whose stdout is its
 *   stderr: what the kernel prints shows on stderr, unbuffered, and never
 *   reaches gelu-acc's reports.  exit() ends the call as a failure, at once,
 *   without flushing or running atexit handlers.  The kernel should not
 *   start threads of its own.
 *
 * Declare each kernel with its format: GELU_ACC_KERNEL_F32(symbol) (and
 * _F64, _F16, _BF16, _F8E4M3FN, _F8E5M2, _F6E2M3, _F6E3M2, _F4E2M1) declares the function with its type, C linkage and default
 * visibility, so that the compiler checks the signature, and exports a
 * companion string that tells gelu-acc the format, so that a kernel loaded
 * for another format is refused instead of measured (it would read and write
 * past its arrays).  A kernel declared without it still loads, with a
 * warning that its format cannot be checked.
 *
 *     #include <gelu-acc/kernel.h>
 *     GELU_ACC_KERNEL_ABI_TAG;
 *     GELU_ACC_KERNEL_F32(my_gelu);
 *     void my_gelu(const float *in, float *out, size_t n) { ... }
 *
 * Build: cc -O3 -shared -fPIC -o libmy.so my.c -lm
 * examples/plugin/ in the gelu-acc sources holds a complete example.
 */
#ifndef GELU_ACC_KERNEL_H
#define GELU_ACC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* Bumped when a kernel type or the contract above changes incompatibly.
 * Version 2 added the backward kernels (below); gelu-acc still loads
 * version-1 libraries, for their forward kernels. */
#define GELU_ACC_KERNEL_ABI_VERSION 2

#ifdef __cplusplus
#define GELU_ACC_EXTERN_C extern "C"
#else
#define GELU_ACC_EXTERN_C
#endif

#if defined(__GNUC__) || defined(__clang__)
#define GELU_ACC_EXPORT __attribute__((visibility("default")))
#else
#define GELU_ACC_EXPORT
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* float32: IEEE binary32 values. */
typedef void gelu_acc_kernel_f32(const float *in, float *out, size_t n);

/* float16: IEEE binary16 encodings (sign, 5 exponent bits, 10 fraction bits). */
typedef void gelu_acc_kernel_f16(const uint16_t *in, uint16_t *out, size_t n);

/* bfloat16: encodings (sign, 8 exponent bits, 7 fraction bits), i.e. the high
 * 16 bits of the float32 with the same value. */
typedef void gelu_acc_kernel_bf16(const uint16_t *in, uint16_t *out, size_t n);

/* The small formats, one encoding per byte (OCP OFP8 v1.0 and OCP MX v1.0):
 * float8_e4m3fn: sign, 4 exponent bits (bias 7), 3 fraction bits; no
 *   infinity, NaN only S.1111.111 (0x7f, 0xff); largest 448.
 * float8_e5m2: sign, 5 exponent bits (bias 15), 2 fraction bits; IEEE-like
 *   infinities and NaNs; largest 57344.
 * float6_e2m3 (bias 1, largest 7.5), float6_e3m2 (bias 3, largest 28) and
 *   float4_e2m1 (bias 1, largest 6): every encoding a finite number, in the
 *   low 6 or 4 bits of the byte. */
typedef void gelu_acc_kernel_f8e4m3fn(const uint8_t *in, uint8_t *out, size_t n);
typedef void gelu_acc_kernel_f8e5m2(const uint8_t *in, uint8_t *out, size_t n);
typedef void gelu_acc_kernel_f6e2m3(const uint8_t *in, uint8_t *out, size_t n);
typedef void gelu_acc_kernel_f6e3m2(const uint8_t *in, uint8_t *out, size_t n);
typedef void gelu_acc_kernel_f4e2m1(const uint8_t *in, uint8_t *out, size_t n);

#ifdef __cplusplus
}
#endif

/* float64: IEEE binary64 values, 8-byte elements (added within ABI 1:
 * a library recording version 1 may declare it). */
#ifdef __cplusplus
extern "C" {
#endif
typedef void gelu_acc_kernel_f64(const double *in, double *out, size_t n);
#ifdef __cplusplus
}
#endif

/* Optional: records in the library the ABI version it was built against.
 * gelu-acc refuses a library that records a version above its own, and a
 * backward kernel from a library that records version 1; a library without
 * the tag is accepted.  Use once per library, at file
 * scope. */
#define GELU_ACC_KERNEL_ABI_TAG                                              \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT const int gelu_acc_kernel_abi_version; \
    const int gelu_acc_kernel_abi_version = GELU_ACC_KERNEL_ABI_VERSION

/* The name of that tag, for loaders. */
#define GELU_ACC_KERNEL_ABI_SYMBOL "gelu_acc_kernel_abi_version"

/* Typed declarations: GELU_ACC_KERNEL_F32(symbol); at file scope, before
 * the definition.  The companion is the string "float32" (or "float64", "float16",
 * "bfloat16", or a small format's name) named GELU_ACC_KERNEL_FORMAT_PREFIX followed by the symbol. */
#define GELU_ACC_KERNEL_FORMAT_PREFIX "gelu_acc_kernel_format_"
#define GELU_ACC_KERNEL_FORMAT_SIZE 16

#define GELU_ACC_KERNEL_DECLARE_(symbol, type, format)                         \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT type symbol;                               \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT                                            \
    const char gelu_acc_kernel_format_##symbol[GELU_ACC_KERNEL_FORMAT_SIZE];     \
    const char gelu_acc_kernel_format_##symbol[GELU_ACC_KERNEL_FORMAT_SIZE] = format

#define GELU_ACC_KERNEL_F32(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f32, "float32")
#define GELU_ACC_KERNEL_F16(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f16, "float16")
#define GELU_ACC_KERNEL_BF16(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_bf16, "bfloat16")
#define GELU_ACC_KERNEL_F8E4M3FN(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f8e4m3fn, "float8_e4m3fn")
#define GELU_ACC_KERNEL_F8E5M2(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f8e5m2, "float8_e5m2")
#define GELU_ACC_KERNEL_F6E2M3(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f6e2m3, "float6_e2m3")
#define GELU_ACC_KERNEL_F6E3M2(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f6e3m2, "float6_e3m2")
#define GELU_ACC_KERNEL_F4E2M1(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f4e2m1, "float4_e2m1")

/* float64's typed declaration (its type is above). */
#define GELU_ACC_KERNEL_F64(symbol) \
    GELU_ACC_KERNEL_DECLARE_(symbol, gelu_acc_kernel_f64, "float64")

/* Backward kernels (ABI version 2): dx[i] = dy[i] * gelu'(x[i]) for i < n,
 * measured against RN(dy * gelu'(x)) by 'gelu-acc sweep --backward --kernel'.
 * The forward contract above holds for each of the three arrays: dy and x
 * are read in [0, n), dx written in [0, n), each ending at a guard page; no
 * overlap; dx[i] depends on (dy[i], x[i]) alone.  Same encodings as the
 * forward kernels of the format.
 *
 *     GELU_ACC_KERNEL_ABI_TAG;
 *     GELU_ACC_BACKWARD_KERNEL_BF16(my_gelu_backward);
 *     void my_gelu_backward(const uint16_t *dy, const uint16_t *x,
 *                           uint16_t *dx, size_t n) { ... }
 *
 * The companion is the format's name, like a forward kernel's, but named
 * GELU_ACC_BACKWARD_FORMAT_PREFIX followed by the symbol: a backward kernel
 * is never run as a forward one, nor the reverse. */
#ifdef __cplusplus
extern "C" {
#endif
typedef void gelu_acc_backward_kernel_f32(const float *dy, const float *x, float *dx, size_t n);
typedef void gelu_acc_backward_kernel_f16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,
                                          size_t n);
typedef void gelu_acc_backward_kernel_bf16(const uint16_t *dy, const uint16_t *x, uint16_t *dx,
                                           size_t n);
#ifdef __cplusplus
}
#endif

#define GELU_ACC_BACKWARD_FORMAT_PREFIX "gelu_acc_backward_format_"

#define GELU_ACC_BACKWARD_DECLARE_(symbol, type, format)                       \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT type symbol;                               \
    GELU_ACC_EXTERN_C GELU_ACC_EXPORT                                            \
    const char gelu_acc_backward_format_##symbol[GELU_ACC_KERNEL_FORMAT_SIZE];   \
    const char gelu_acc_backward_format_##symbol[GELU_ACC_KERNEL_FORMAT_SIZE] = format

#define GELU_ACC_BACKWARD_KERNEL_F32(symbol) \
    GELU_ACC_BACKWARD_DECLARE_(symbol, gelu_acc_backward_kernel_f32, "float32")
#define GELU_ACC_BACKWARD_KERNEL_F16(symbol) \
    GELU_ACC_BACKWARD_DECLARE_(symbol, gelu_acc_backward_kernel_f16, "float16")
#define GELU_ACC_BACKWARD_KERNEL_BF16(symbol) \
    GELU_ACC_BACKWARD_DECLARE_(symbol, gelu_acc_backward_kernel_bf16, "bfloat16")

#endif
