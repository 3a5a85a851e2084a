/* The vector paths' driver: the path chosen, the kernel run on each block,
 * the thresholds' answers written over its answers (the paths' settles),
 * and every input left pending sent to the scalar fast oracle
 * (fast_vec.h). */
#include "truth/fast_vec.h"

#include <stdlib.h>
#include <string.h>

#include "truth/fast.h"
#include "truth/fast_internal.h"
#include "truth/fast_vec_internal.h"

#define BLOCK 256

static const char *const names[GA_VEC_PATH_COUNT] = { "scalar", "portable", "avx2" };

const char *ga_vec_path_name(enum ga_vec_path p)
{
    return names[p];
}

bool ga_vec_path_available(enum ga_vec_path p)
{
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (p == GA_VEC_AVX2) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }
#else
    if (p == GA_VEC_AVX2)
        return false;
#endif
    return true;
}

static enum ga_vec_path choose(void)
{
    const char *forced = getenv("GELU_ACC_ORACLE_PATH");

    if (forced && *forced) {
        for (int p = 0; p < GA_VEC_PATH_COUNT; p++)
            if (strcmp(forced, names[p]) == 0 && ga_vec_path_available(p))
                return p;
        return GA_VEC_SCALAR;  /* unknown or unavailable: the audited path */
    }
    return ga_vec_path_available(GA_VEC_AVX2) ? GA_VEC_AVX2 : GA_VEC_PORTABLE;
}

enum ga_vec_path ga_vec_path_default(void)
{
    static int chosen = -1;  /* the same answer in every thread: a race is harmless */
    int p = __atomic_load_n(&chosen, __ATOMIC_RELAXED);

    if (p < 0) {
        p = choose();
        __atomic_store_n(&chosen, p, __ATOMIC_RELAXED);
    }
    return p;
}

static size_t scalar(enum ga_function fn, const ga_bits *x, ga_bits *rounded,
                     int8_t *direction, size_t n)
{
    const struct ga_format *f = ga_format_get(GA_FLOAT32);
    size_t undecided = 0;

    for (size_t i = 0; i < n; i++) {
        struct ga_truth t;
        if (ga_truth_fast(fn, f, x[i], &t) != GA_TRUTH_OK) {
            t.rounded = ga_quiet_nan(f);
            t.direction = 0;
            undecided++;
        }
        rounded[i] = t.rounded;
        direction[i] = t.direction;
    }
    return undecided;
}

typedef void kernel(const ga_bits *, ga_bits *, int8_t *, size_t);

/* The kernel of fn on path p (portable or avx2), NULL for a function the
 * vector paths do not cover. */
static kernel *kernel_of(enum ga_function fn, enum ga_vec_path p)
{
    bool avx2 = p == GA_VEC_AVX2;

    switch (fn) {
    case GA_GELU: return avx2 ? ga_vec_gelu_avx2 : ga_vec_gelu_portable;
    case GA_GELU_TANH: return avx2 ? ga_vec_gelu_tanh_avx2 : ga_vec_gelu_tanh_portable;
    case GA_GELU_GRAD: return avx2 ? ga_vec_gelu_grad_avx2 : ga_vec_gelu_grad_portable;
    case GA_GELU_TANH_GRAD:
        return avx2 ? ga_vec_gelu_tanh_grad_avx2 : ga_vec_gelu_tanh_grad_portable;
    default: return NULL;
    }
}

bool ga_vec_covers(enum ga_function fn)
{
    return kernel_of(fn, GA_VEC_PORTABLE) != NULL;
}

static size_t vector_block(enum ga_function fn, enum ga_vec_path p, kernel *k, const ga_bits *x,
                           ga_bits *rounded, int8_t *direction, size_t n)
{
    bool grad = fn == GA_GELU_GRAD || fn == GA_GELU_TANH_GRAD, any;
    size_t undecided = 0;

    k(x, rounded, direction, n);
    if (!grad) {
        const struct ga_fast_thresholds *th = ga_fast_thresholds(fn, ga_format_get(GA_FLOAT32));
        any = (p == GA_VEC_AVX2 ? ga_vec_settle_avx2 : ga_vec_settle_portable)(th, x, rounded,
                                                                               direction, n);
    } else {
        any = (p == GA_VEC_AVX2 ? ga_vec_grad_settle_avx2 : ga_vec_grad_settle_portable)(
            fn == GA_GELU_TANH_GRAD, x, rounded, direction, n);
    }
    for (size_t i = 0; any && i < n; i++)
        if (direction[i] == GA_VEC_PENDING)
            undecided += scalar(fn, &x[i], &rounded[i], &direction[i], 1);
    return undecided;
}

size_t ga_truth_f32_rounded(enum ga_function fn, enum ga_vec_path p, const ga_bits *x,
                            ga_bits *rounded, int8_t *direction, size_t n)
{
    kernel *k = p == GA_VEC_SCALAR ? NULL : kernel_of(fn, p);
    size_t undecided = 0;

    if (k == NULL || !ga_vec_path_available(p))
        return scalar(fn, x, rounded, direction, n);
    for (size_t first = 0; first < n; first += BLOCK) {
        size_t m = n - first < BLOCK ? n - first : BLOCK;
        undecided += vector_block(fn, p, k, x + first, rounded + first, direction + first, m);
    }
    return undecided;
}
