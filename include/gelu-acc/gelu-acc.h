/* gelu-acc.h: the certified truth of GELU as a library (libgelu-acc).
 *
 * The correctly rounded value of GELU, of its tanh form and of both
 * derivatives, for arrays of inputs of every format the suite knows; the
 * correctly rounded backward dx = RN(dy * gelu'(x)); and the grading of
 * outputs against that truth (ulp error, classification, the summary that
 * 'gelu-acc grade' prints, baseline checks), all in-process: what a kernel's
 * unit test needs instead of a hand-made golden and a guessed tolerance.
 *
 *     #include <gelu-acc/gelu-acc.h>
 *     uint16_t x[3] = { 0x3f80, 0xc0b0, 0xff80 }, want[3];   (bfloat16: 1, -5.5, -inf)
 *     if (gelu_acc_truth(GELU_ACC_GELU, GELU_ACC_BFLOAT16, x, want, 3) != GELU_ACC_OK)
 *         fprintf(stderr, "%s\n", gelu_acc_last_error());
 *
 *     cc test.c $(pkg-config --cflags --libs gelu-acc)
 *
 * The truth.  Every value is certified: the fast oracle evaluates in double
 * with a proven error bound and answers only when that bound decides the
 * rounding, MPFR's Ziv loop answers the rest (doc/oracle.md in the sources).
 * The functions (doc/mathematics.md):
 *   GELU_ACC_GELU            x Phi(x) = (x/2) erfc(-x/sqrt 2)
 *   GELU_ACC_GELU_TANH       (x/2)(1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))),
 *                            the constants taken as exact reals
 *   GELU_ACC_GELU_GRAD       gelu'(x) = Phi(x) + x phi(x)
 *   GELU_ACC_GELU_TANH_GRAD  the derivative of the tanh form, taken exactly
 * Special values: f(NaN) = NaN, gelu(+inf) = +inf, gelu(-inf) = -0,
 * gelu(+-0) = +-0, results that underflow keep their sign; the derivatives
 * give 1 at +inf, -0 at -inf and 1/2 at +-0.  Rounding is to nearest, ties
 * to even, into the format with its subnormals; overflow as the format's
 * own convention (infinity, or the largest finite value where it has none).
 *
 * Encodings.  Arrays hold encodings in host byte order, one element per
 * gelu_acc_format_size() bytes: float64 and float32 as double and float,
 * float16 and bfloat16 as their 16-bit encodings (uint16_t), the FP8, FP6
 * and FP4 formats one encoding per byte, right-aligned (the bits above a 6-
 * or 4-bit format must be 0).  Outputs are compared with inputs as
 * encodings, never with ==: +0 and -0 differ, and any NaN matches any NaN.
 *
 * Errors.  Every function that can fail returns an int status: GELU_ACC_OK
 * (0) or one of the GELU_ACC_E_* codes below, with a message for the calling
 * thread in gelu_acc_last_error() (what was wrong and where: the argument,
 * the element index).  The library never prints, never exits and never
 * aborts; on an error the output arrays are left unspecified.
 *
 * Threads.  Every function may be called from several threads at once, on
 * distinct output arrays and distinct graders.  The truth of a 16-bit or
 * smaller format comes from a table built on first use (once per function
 * and format, a few milliseconds to a second); the library starts no
 * threads.
 *
 * Stability.  This header is the library's whole public interface.  Its
 * functions, types, constants and the meaning of every figure are stable
 * for the life of the shared library's major version (libgelu-acc.so.1):
 * later versions only add.  Structs that may grow later are passed with
 * their size (see gelu_acc_grader_summary).  Values of the enums are fixed
 * as written.  Everything else in the sources is internal.
 *
 * Speed (one core; doc/library.md gives the figures measured by make
 * bench): float32 goldens at the fast oracle's rate, a few nanoseconds per
 * element; 16-bit and smaller formats by table lookup; float64 through MPFR
 * alone, some microseconds per element.
 */
#ifndef GELU_ACC_H
#define GELU_ACC_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define GELU_ACC_API __attribute__((visibility("default")))
#else
#define GELU_ACC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this interface: 1 for libgelu-acc.so.1. */
#define GELU_ACC_API_VERSION 1

/* The package version, "MAJOR.MINOR.PATCH", of the library loaded. */
GELU_ACC_API const char *gelu_acc_version(void);

/* ---- Statuses ---- */

enum gelu_acc_status {
    GELU_ACC_OK = 0,
    GELU_ACC_E_ARGUMENT = 1,   /* a null pointer with n > 0, an unknown enum value, a bad name */
    GELU_ACC_E_FORMAT = 2,     /* the function does not support this format (backward in float64) */
    GELU_ACC_E_ENCODING = 3,   /* an element with bits set above the format's width */
    GELU_ACC_E_MEMORY = 4,     /* out of memory */
    GELU_ACC_E_UNDECIDED = 5,  /* the oracle reached its precision cap: no certified value */
    GELU_ACC_E_FILE = 6,       /* a baseline file unreadable or malformed */
    GELU_ACC_E_MISMATCH = 7,   /* a baseline section of another format or function, or none */
    GELU_ACC_E_TOO_LARGE = 8,  /* more inputs than a grader holds (2^32 - 1 per region) */
};

/* "GELU_ACC_OK", "GELU_ACC_E_ARGUMENT", ...; "unknown status" otherwise. */
GELU_ACC_API const char *gelu_acc_status_name(int status);

/* The message of the last call that failed in this thread ("" if none):
 * valid until the thread's next call into the library. */
GELU_ACC_API const char *gelu_acc_last_error(void);

/* ---- Formats and functions ---- */

typedef enum gelu_acc_format {
    GELU_ACC_FLOAT64 = 0,
    GELU_ACC_FLOAT32 = 1,
    GELU_ACC_FLOAT16 = 2,        /* IEEE binary16 */
    GELU_ACC_BFLOAT16 = 3,
    GELU_ACC_FLOAT8_E4M3FN = 4,  /* OCP FP8: no infinity, one NaN per sign */
    GELU_ACC_FLOAT8_E5M2 = 5,
    GELU_ACC_FLOAT6_E2M3 = 6,    /* OCP MX FP6 and FP4: finite numbers only */
    GELU_ACC_FLOAT6_E3M2 = 7,
    GELU_ACC_FLOAT4_E2M1 = 8,
} gelu_acc_format;
#define GELU_ACC_FORMAT_COUNT 9

typedef enum gelu_acc_function {
    GELU_ACC_GELU = 0,
    GELU_ACC_GELU_TANH = 1,
    GELU_ACC_GELU_GRAD = 2,
    GELU_ACC_GELU_TANH_GRAD = 3,
} gelu_acc_function;
#define GELU_ACC_FUNCTION_COUNT 4

/* By name: "float32", "bfloat16", "float8_e4m3fn", ...; "gelu",
 * "gelu_tanh", "gelu_grad", "gelu_tanh_grad".  GELU_ACC_E_ARGUMENT for an
 * unknown name. */
GELU_ACC_API int gelu_acc_format_by_name(const char *name, gelu_acc_format *format);
GELU_ACC_API int gelu_acc_function_by_name(const char *name, gelu_acc_function *fn);
/* The names back; NULL for a value outside the enum. */
GELU_ACC_API const char *gelu_acc_format_name(gelu_acc_format format);
GELU_ACC_API const char *gelu_acc_function_name(gelu_acc_function fn);
/* Bytes per element of an array of the format (8, 4, 2 or 1); 0 for a
 * value outside the enum. */
GELU_ACC_API size_t gelu_acc_format_size(gelu_acc_format format);

/* ---- The truth ---- */

/* out[i] = f(x[i]) correctly rounded, for i < n; x and out arrays of the
 * format (they may be the same array).  Every function in every format. */
GELU_ACC_API int gelu_acc_truth(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                void *out, size_t n);

/* The correctly rounded backward of GELU (fn GELU_ACC_GELU) or of its tanh
 * form (GELU_ACC_GELU_TANH): dx[i] = RN(dy[i] * f'(x[i])), the product exact
 * before its one rounding, as a backward kernel should compute it.  IEEE
 * rules for the special operands (0 * inf = NaN; f'(-inf) = -0, so
 * dx(-inf, +-inf) = NaN).  Formats of at most 24 significant bits: float64
 * gives GELU_ACC_E_FORMAT. */
GELU_ACC_API int gelu_acc_backward(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                   const void *dy, void *dx, size_t n);

/* ---- Grading outputs ---- */

/* How an output compares with the truth (flags, or-ed). */
#define GELU_ACC_CORRECTLY_ROUNDED 0x01u  /* the correctly rounded encoding (any NaN for a NaN truth) */
#define GELU_ACC_FAITHFUL 0x02u           /* one of the two values that bracket the exact result */
#define GELU_ACC_NAN 0x04u                /* NaN where the truth is a number */
#define GELU_ACC_INF 0x08u                /* +-inf where the correctly rounded result is finite */
#define GELU_ACC_FLUSHED 0x10u            /* +-0 where the correctly rounded result is not zero */
#define GELU_ACC_ZERO_SIGN 0x20u          /* a zero of the sign opposite to the correctly rounded zero */
#define GELU_ACC_NOT_NAN 0x40u            /* a number where the truth is NaN */
#define GELU_ACC_TINY 0x80u               /* (of the truth) |exact| is below the smallest normal:
                                           * the correctly rounded result is subnormal or zero */

/* For each i < n, the error of output y[i] for input x[i] against the
 * truth of fn: ulp[i] = |y - f(x)| / ulp(f(x)), ulp from the exponent of the
 * exact value (Zimmermann's definition; subnormal results use the subnormal
 * ulp), +inf for a non-finite output where the truth is finite (unless that
 * infinity is itself the correctly rounded result), NaN where y or the truth
 * is NaN; flags[i] the GELU_ACC_* flags above.  Either of ulp and flags may
 * be NULL.  The flags are decided exactly from the certified rounding; an
 * ulp error is exact but for its last bits (below 2^-20 ulp; doc/metrics.md).
 * fn: any of the four functions (a derivative grades outputs of d(x)). */
GELU_ACC_API int gelu_acc_ulp_error(gelu_acc_function fn, gelu_acc_format format, const void *x,
                                    const void *y, size_t n, double *ulp, uint32_t *flags);

/* The same for backward outputs dx[i] of (x[i], dy[i]) against
 * gelu_acc_backward's truth. */
GELU_ACC_API int gelu_acc_backward_ulp_error(gelu_acc_function fn, gelu_acc_format format,
                                             const void *x, const void *dy, const void *dx,
                                             size_t n, double *ulp, uint32_t *flags);

/* A grader accumulates outputs as 'gelu-acc grade' does and summarizes them
 * with the same figures, whatever the order and splitting of the inputs
 * (merging two graders gives the grader of both).  One grader must not be
 * used by two threads at once; use one per thread and merge them. */
typedef struct gelu_acc_grader gelu_acc_grader;

/* fn: GELU_ACC_GELU or GELU_ACC_GELU_TANH (forward outputs). */
GELU_ACC_API int gelu_acc_grader_new(gelu_acc_function fn, gelu_acc_format format,
                                     gelu_acc_grader **grader);
GELU_ACC_API void gelu_acc_grader_free(gelu_acc_grader *grader);
/* Outputs y[i] of inputs x[i], i < n. */
GELU_ACC_API int gelu_acc_grader_add(gelu_acc_grader *grader, const void *x, const void *y, size_t n);
/* into += from (same function and format). */
GELU_ACC_API int gelu_acc_grader_merge(gelu_acc_grader *into, const gelu_acc_grader *from);

/* Where a figure is reached: the input, the output and the exact value. */
struct gelu_acc_point {
    int has;              /* 0: no input has this figure */
    double error;         /* the ulp error there (max_ulp), else as documented */
    uint64_t x, y;        /* input and output encodings */
    uint64_t expected;    /* the correctly rounded result */
    double exact_mant;    /* the exact value, mant * 2^exp with 0.5 <= |mant| < 1 */
    long exact_exp;       /*   (mant 0 for a zero, +-inf or NaN for those results) */
};

/* The regions a summary covers: every input, or the inputs of one part of
 * the real line (x < -3 whose truth rounds to zero, the rest of x < -3,
 * 2^-10 <= |x| <= 3, 0 < |x| < 2^-10, x > 3, and NaN, +-inf, +-0). */
typedef enum gelu_acc_region {
    GELU_ACC_REGION_ALL = 0,
    GELU_ACC_REGION_FAR_LEFT = 1,
    GELU_ACC_REGION_LEFT_TAIL = 2,
    GELU_ACC_REGION_CORE = 3,
    GELU_ACC_REGION_TINY = 4,
    GELU_ACC_REGION_RIGHT = 5,
    GELU_ACC_REGION_SPECIAL = 6,
} gelu_acc_region;
#define GELU_ACC_REGION_COUNT 7
/* "all", "far_left", "left_tail", "core", "tiny", "right", "special". */
GELU_ACC_API const char *gelu_acc_region_name(gelu_acc_region region);

/* The figures of 'gelu-acc grade' (doc/metrics.md defines each). */
struct gelu_acc_summary {
    uint64_t count;               /* inputs */
    uint64_t correctly_rounded;
    uint64_t faithful;            /* correctly rounded included */
    uint64_t measured;            /* inputs whose ulp error is defined (no NaN) */
    uint64_t flushed_to_zero, nan, inf, wrong_zero_sign, not_nan;
    struct gelu_acc_point max_ulp;
    double mean_ulp;              /* over the finite errors; NaN when none */
    double p50, p95, p99;         /* percentiles of the ulp error (upper edges of
                                   * their histogram bins); NaN when none measured */
    /* the first input of each fault, in increasing order of x */
    struct gelu_acc_point first_flushed, first_nan, first_inf, first_zero_sign, first_not_nan;
};

/* The summary of one region into *out; out_size is sizeof *out as the
 * caller was compiled (a later library fills only what that size holds). */
GELU_ACC_API int gelu_acc_grader_summary(const gelu_acc_grader *grader, gelu_acc_region region,
                                         struct gelu_acc_summary *out, size_t out_size);

/* Checks a grader against recorded bounds, as 'gelu-acc check' does: a
 * bound is exceeded when max_ulp or a count of failures grows, when
 * correctly_rounded falls, when the faithful interval shrinks or when the
 * input below which every output is 0 moves up (README, "Baselines").
 * *exceeded receives the number of bounds exceeded, and report (when not
 * NULL) one line per bound exceeded, naming an input that shows it,
 * truncated to report_size bytes with its NUL.
 * - gelu_acc_grader_check_baseline: the section `section` of a baseline
 *   file (NULL: the file's only section), read by the same reader as
 *   'gelu-acc check'; its format and reference must be the grader's
 *   (GELU_ACC_E_MISMATCH).  Its kernel line is not run.
 * - gelu_acc_grader_check_bounds: bounds written as the lines of a baseline
 *   section ("max_ulp = 1\nflushed_to_zero = 0\nleft_tail.max_ulp = 4\n"). */
GELU_ACC_API int gelu_acc_grader_check_baseline(const gelu_acc_grader *grader, const char *path,
                                                const char *section, int *exceeded,
                                                char *report, size_t report_size);
GELU_ACC_API int gelu_acc_grader_check_bounds(const gelu_acc_grader *grader, const char *bounds,
                                              int *exceeded, char *report, size_t report_size);

/* ---- Inputs ---- */

/* The inputs of a domain, as 'gelu-acc inputs' writes them: "all" (every
 * encoding of a format of at most 16 bits, in encoding order),
 * "random:N[:SEED]", "stride:K", "range:A:B" (README, "Domains").  *x
 * receives a malloc'ed array of *n elements of the format (free it with
 * gelu_acc_free). */
GELU_ACC_API int gelu_acc_inputs(gelu_acc_format format, const char *domain, void **x, size_t *n);
GELU_ACC_API void gelu_acc_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
