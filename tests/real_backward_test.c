/* The real backward kernels (src/real/real_backward.c) against what their
 * descriptions say they equal, bit for bit: another library's kernel or a
 * catalogue model.  Pairs: every x of a 16-bit format (every 4099th float32
 * encoding) with each dy of a fixed set (signs, zeros, infinities, NaN,
 * subnormals, large and ordinary values).  Encodings compared as encodings:
 * +0 and -0 differ, any NaN matches any NaN.  A comparison is skipped with
 * the reason when a module was not built or its library refuses the format
 * here.  Plain TAP, as real_models_test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "impls/backward.h"
#include "isolation/plugin.h"
#include "real/real.h"

enum { BATCH = 1 << 16, F32_STRIDE = 4099 };

struct claim {
    const char *real;    /* real_backward.c name */
    const char *other;   /* another real backward kernel, or a backward model */
    enum ga_format_id format;
};

static const struct claim claims[] = {
    { "torch_erf_backward", "dnnl_erf_backward", GA_FLOAT32 },
    { "torch_erf_backward", "dnnl_erf_backward", GA_BFLOAT16 },
    { "torch_tanh_backward", "torch_nomkldnn_tanh_backward", GA_FLOAT32 },
    { "torch_tanh_backward", "torch_nomkldnn_tanh_backward", GA_BFLOAT16 },
    { "torch_nomkldnn_erf_backward", "pytorch_gelu_backward_native", GA_BFLOAT16 },
    { "torch_strided_erf_backward", "pytorch_gelu_backward_native", GA_BFLOAT16 },
    { "torch_strided_erf_backward", "pytorch_gelu_backward", GA_FLOAT32 },
    { "torch_nomkldnn_tanh_backward", "pytorch_gelu_backward_tanh_native", GA_BFLOAT16 },
    { "torch_strided_tanh_backward", "pytorch_gelu_backward_tanh_native", GA_BFLOAT16 },
};

/* dy values as numbers, encoded in the format (rounded, as a user's dy). */
static const double dys[] = { 1.0, -1.0, 0.0, -0.0, 1e30, -3.5e-38, 7.0, -0.3, 1.0 / 0.0,
                              -1.0 / 0.0, 0.0 / 0.0, 65000.0 };
#define DY_COUNT (sizeof dys / sizeof dys[0])

/* Pair k of the grid: x the k / DY_COUNT-th encoding (strided for float32). */
static void pair_at(const struct ga_format *f, uint64_t k, ga_bits *x, ga_bits *dy)
{
    uint64_t i = k / DY_COUNT;
    *x = f->bits == 16 ? (ga_bits)i : (ga_bits)(i * F32_STRIDE);
    *dy = ga_encode(f, dys[k % DY_COUNT]);
}

static uint64_t pair_count(const struct ga_format *f)
{
    return (f->bits == 16 ? 65536u : 0xffffffffu / F32_STRIDE + 1) * (uint64_t)DY_COUNT;
}

/* The other side: a real kernel (opened into *p) or a model (*model). */
static int open_other(const struct claim *c, const struct ga_format *f, struct ga_plugin **p,
                      const struct ga_backward_impl **model, char *why, size_t size)
{
    const struct ga_real_desc *r = ga_real_backward_find(c->other);
    struct gelu_acc_real_info about;
    struct ga_io_error err;

    *p = NULL;
    *model = ga_backward_catalogue_find(c->other);
    if (*model)
        return ga_backward_supports(*model, f) ? 0 : (snprintf(why, size, "no model %s for %s",
                                                               c->other, f->name), -1);
    if (!r || ga_real_open_backward(r, f, NULL, p, &about, &err) != GA_IO_OK) {
        snprintf(why, size, "%s", r ? err.message : "no such kernel");
        return r && (err.status == GA_IO_LOAD || err.status == GA_IO_UNSUPPORTED) ? 1 : -1;
    }
    return 0;
}

enum verdict { PASS, FAIL, SKIP };

static enum verdict compare(const struct claim *c, char *why, size_t size)
{
    const struct ga_format *f = ga_format_get(c->format);
    const struct ga_real_desc *r = ga_real_backward_find(c->real);
    const struct ga_backward_impl *model;
    struct ga_plugin *k = NULL, *other = NULL;
    struct gelu_acc_real_info about;
    struct ga_io_error err;
    static ga_bits x[BATCH], dy[BATCH], a[BATCH], b[BATCH];
    uint64_t total = pair_count(f), differ = 0;
    ga_bits fx = 0, fdy = 0, fa = 0, fb = 0;
    int st;

    if (!r) {
        snprintf(why, size, "no real backward kernel %s", c->real);
        return FAIL;
    }
    if (ga_real_open_backward(r, f, NULL, &k, &about, &err) != GA_IO_OK) {
        snprintf(why, size, "%s", err.message);
        return err.status == GA_IO_LOAD || err.status == GA_IO_UNSUPPORTED ? SKIP : FAIL;
    }
    if ((st = open_other(c, f, &other, &model, why, size)) != 0) {
        ga_plugin_close(k);
        return st > 0 ? SKIP : FAIL;
    }
    for (uint64_t done = 0; done < total;) {
        size_t n = total - done < BATCH ? (size_t)(total - done) : BATCH;
        struct ga_run_failure failure;
        for (size_t i = 0; i < n; i++)
            pair_at(f, done + i, &x[i], &dy[i]);
        if (ga_plugin_run_backward(k, dy, x, a, n, &failure) != 0
            || (other ? ga_plugin_run_backward(other, dy, x, b, n, &failure) != 0
                      : (ga_backward_run(model, f, dy, x, b, n), 0))) {
            snprintf(why, size, "a kernel failed: %s", failure.what);
            ga_plugin_close(k);
            ga_plugin_close(other);
            return FAIL;
        }
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i] && !(ga_is_nan(f, a[i]) && ga_is_nan(f, b[i])) && differ++ == 0) {
                fx = x[i];
                fdy = dy[i];
                fa = a[i];
                fb = b[i];
            }
        done += n;
    }
    ga_plugin_close(k);
    ga_plugin_close(other);
    if (differ) {
        char tx[GA_BITS_TEXT_LEN], tdy[GA_BITS_TEXT_LEN], ta[GA_BITS_TEXT_LEN], tb[GA_BITS_TEXT_LEN];
        ga_format_bits(f, fx, tx);
        ga_format_bits(f, fdy, tdy);
        ga_format_bits(f, fa, ta);
        ga_format_bits(f, fb, tb);
        snprintf(why, size, "%s and %s differ on %llu of %llu %s pairs; first at x = %s, dy = "
                 "%s: %s, %s", c->real, c->other, (unsigned long long)differ,
                 (unsigned long long)total, f->name, tx, tdy, ta, tb);
        return FAIL;
    }
    snprintf(why, size, "%s = %s bit for bit on %llu %s pairs (%s %s; %s)", c->real, c->other,
             (unsigned long long)total, f->name, r->library, about.version, about.path);
    return PASS;
}

int main(void)
{
    size_t count = sizeof claims / sizeof claims[0];
    int failed = 0;

    printf("1..%zu\n", count);
    for (size_t i = 0; i < count; i++) {
        char why[1024];
        enum verdict v = compare(&claims[i], why, sizeof why);
        if (v == SKIP)
            printf("ok %zu # SKIP %s = %s in %s: %s\n", i + 1, claims[i].real, claims[i].other,
                   ga_format_get(claims[i].format)->name, why);
        else
            printf("%s %zu - %s = %s in %s\n# %s\n", v == PASS ? "ok" : "not ok", i + 1,
                   claims[i].real, claims[i].other, ga_format_get(claims[i].format)->name, why);
        failed += v == FAIL;
        fflush(stdout);
    }
    return failed ? 1 : 0;
}
