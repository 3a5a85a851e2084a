/* Every model claimed to equal a library's kernel (real/model_claims.h) is
 * compared with that kernel, bit for bit: every bfloat16 and float16 input; in float32 every
 * 429th encoding (10 011 502 inputs, all signs and exponents), the special
 * values, and the dense set of proof_set.h (every branch and polynomial
 * interval of the models, many times over); in float64 the set of
 * proof_set.h.  Any difference fails, with the first differing input.
 * mutants_test checks that these proofs catch a one-ulp change.
 *
 * The real libraries come from the modules of src/real/ (GELU_ACC_REAL_DIR
 * says where; make check sets it).  A comparison is skipped, with the
 * reason, when its module was not built or the library refuses the format
 * on this CPU (oneDNN's bfloat16 needs AVX-512).  Which model PyTorch's
 * default bfloat16 path matches depends on the CPU: the torch module reports
 * whether it hands bfloat16 to oneDNN, and the test picks the model named
 * for that path.  Encodings are compared as encodings: +0 and -0 differ, any
 * NaN matches any NaN.
 *
 * Plain TAP (not CMocka): a skipped comparison is "ok N # SKIP reason", which
 * automake's driver counts as a skip. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/format.h"
#include "impls/impl.h"
#include "real/model_claims.h"
#include "real/real.h"
#include "proof_set.h"

enum { BATCH = 65536, F32_STRIDE = 429 };

struct pair {
    const char *name;
    const char *model;          /* catalogue name; NULL: chosen by the real path */
    const char *real;           /* real.c name */
    enum ga_format_id format;
    double (*formula)(double);  /* float64: this file's evaluation instead of a model */
};

/* PyTorch's scalar-loop tanh GELU in double as its build compiles it: GCC
 * contracts x + kappa*x^3 into a fused multiply-add (as in float32, model
 * tanh_fma); the C library's tanh. */
static double tanh_fma_double(double x)
{
    const double beta = M_SQRT2 * M_2_SQRTPI * 0.5, kappa = 0.044715;
    return 0.5 * x * (1 + tanh(beta * fma(kappa, (x * x) * x, x)));
}

/* out[i] = formula(in[i]) for float64 encodings. */
static void run_formula(double (*formula)(double), const ga_bits *in, ga_bits *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x, y;
        memcpy(&x, &in[i], sizeof x);
        y = formula(x);
        memcpy(&out[i], &y, sizeof y);
    }
}

static bool is_nan(const struct ga_format *f, ga_bits b)
{
    return isnan(ga_decode(f, b));
}

/* The proof sets (proof_set.h) of float32 and float64, made once. */
static const ga_bits *wide_set(const struct ga_format *f, size_t *n)
{
    static ga_bits *set[2];
    static size_t size[2];
    int i = f->bits == 64;

    if (set[i] == NULL && (size[i] = proof_set(f, &set[i])) == 0) {
        fprintf(stderr, "real_models_test: out of memory\n");
        exit(99);
    }
    *n = size[i];
    return set[i];
}

/* Position start onwards: every 16-bit encoding; float64's proof set; in
 * float32, every F32_STRIDE-th encoding, the specials, then the dense set. */
static size_t fill_inputs(const struct ga_format *f, uint64_t start, ga_bits *in)
{
    static const uint32_t specials[] = { 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                         0x7fc00000, 0x00000001, 0x80000001, 0xc1000000,
                                         0xc0b00000, 0x7f7fffff, 0xff7fffff };
    const uint64_t strided = 0xffffffffu / F32_STRIDE + 1,
                   nspecial = sizeof specials / sizeof specials[0];
    size_t n = 0, size;
    const ga_bits *set;

    if (f->bits == 16) {
        for (uint64_t b = start; b < 65536 && n < BATCH; b++)
            in[n++] = (ga_bits)b;
        return n;
    }
    set = wide_set(f, &size);
    for (uint64_t k = start; n < BATCH; k++) {
        if (f->bits == 64 && k < size)
            in[n++] = set[k];
        else if (f->bits == 64)
            break;
        else if (k < strided)
            in[n++] = (ga_bits)(k * F32_STRIDE);
        else if (k - strided < nspecial)
            in[n++] = specials[k - strided];
        else if (k - strided - nspecial < size)
            in[n++] = set[k - strided - nspecial];
        else
            break;
    }
    return n;
}

enum verdict { PASS, FAIL, SKIP };

/* Compare p's model and real kernel; why says what was found. */
static enum verdict compare(const struct pair *p, char *why, size_t size)
{
    const struct ga_format *f = ga_format_get(p->format);
    const struct ga_real *real = ga_real_find(p->real);
    const struct ga_impl *model;
    struct ga_real_kernel *k, *other = NULL;
    struct ga_io_error err;
    struct gelu_acc_real_info about;
    const char *model_name = p->model;
    static ga_bits in[BATCH], a[BATCH], b[BATCH];
    uint64_t done = 0, differ = 0;
    ga_bits first = 0, first_model = 0, first_real = 0;
    char x[GA_BITS_TEXT_LEN], y[GA_BITS_TEXT_LEN], z[GA_BITS_TEXT_LEN];

    if (real == NULL) {
        snprintf(why, size, "no real implementation %s", p->real);
        return FAIL;
    }
    if (ga_real_describe(&real->desc, f, &about, &err) != GA_IO_OK) {
        snprintf(why, size, "%s", err.message);
        return SKIP;
    }
    if (about.refusal[0]) {
        snprintf(why, size, "%s %s refuses %s here: %s", real->desc.library, about.version, f->name,
                 about.refusal);
        return SKIP;
    }
    if (model_name == NULL)
        model_name = ga_model_claim_model(&(struct ga_model_claim){ p->real, p->format, NULL },
                                          about.path);
    model = ga_catalogue_find(p->formula ? "erf_f64" : model_name);  /* unused with a formula */
    if (model == NULL && ga_real_find(model_name) != NULL) {
        /* a real library against another: PyTorch's vector path against SLEEF */
        enum ga_io_status st = ga_real_open(ga_real_find(model_name), f, NULL, &other, &err);
        if (st != GA_IO_OK) {
            snprintf(why, size, "%s", err.message);
            return st == GA_IO_LOAD || st == GA_IO_UNSUPPORTED ? SKIP : FAIL;
        }
        model = ga_real_impl(other);
    }
    if (model == NULL || !ga_impl_supports(model, f)) {
        snprintf(why, size, "no model %s for %s", model_name, f->name);
        ga_real_close(other);
        return FAIL;
    }
    if (ga_real_open(real, f, NULL, &k, &err) != GA_IO_OK) {
        snprintf(why, size, "%s", err.message);
        ga_real_close(other);
        return FAIL;
    }
    for (size_t n; (n = fill_inputs(f, done, in)) > 0; done += n) {
        struct ga_run_failure failure;
        if (p->formula)
            run_formula(p->formula, in, a, n);
        if ((!p->formula && model->run(model, f, in, a, n, &failure) != 0)
            || ga_real_impl(k)->run(ga_real_impl(k), f, in, b, n, &failure) != 0) {
            snprintf(why, size, "a kernel failed: %s", failure.what);
            ga_real_close(k);
            ga_real_close(other);
            return FAIL;
        }
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i] && !(is_nan(f, a[i]) && is_nan(f, b[i])) && differ++ == 0) {
                first = in[i];
                first_model = a[i];
                first_real = b[i];
            }
    }
    ga_real_close(k);
    ga_real_close(other);
    ga_format_bits(f, first, x);
    ga_format_bits(f, first_model, y);
    ga_format_bits(f, first_real, z);
    if (differ != 0) {
        snprintf(why, size, "model %s and %s differ on %llu of %llu %s inputs; first at %s: "
                 "model %s, real %s", model_name, p->real, (unsigned long long)differ,
                 (unsigned long long)done, f->name, x, y, z);
        return FAIL;
    }
    if (done < (f->bits == 16 ? 65536u : f->bits == 64 ? 2000000u : 15000000u)) {
        snprintf(why, size, "only %llu inputs compared", (unsigned long long)done);
        return FAIL;
    }
    snprintf(why, size, "%s = %s bit for bit on %llu %s inputs (%s %s; %s)", model_name,
             p->real, (unsigned long long)done, f->name, real->desc.library, about.version,
             about.path);
    return PASS;
}

/* The claims of real/model_claims.h, then this test's own float64 formula
 * of PyTorch's scalar tanh loop. */
static size_t make_pairs(struct pair **out)
{
    static char names[64][128];
    size_t n = 0, count = ga_model_claim_count + 1;
    struct pair *p = calloc(count, sizeof *p);

    if (p == NULL || ga_model_claim_count >= 64) {
        fprintf(stderr, "real_models_test: out of memory\n");
        exit(99);
    }
    for (size_t i = 0; i < ga_model_claim_count; i++, n++) {
        const struct ga_model_claim *c = &ga_model_claims[i];
        snprintf(names[i], sizeof names[i], "%s = %s in %s",
                 c->model ? c->model : "(model of its path)", c->real,
                 ga_format_get(c->format)->name);
        p[n] = (struct pair){ names[i], c->model, c->real, c->format, NULL };
    }
    p[n++] = (struct pair){ "0.5x(1 + tanh(beta*fma(kappa, x^3, x))) = torch_strided_tanh in "
                            "float64", "(this test's tanh_fma_double)", "torch_strided_tanh",
                            GA_FLOAT64, tanh_fma_double };
    *out = p;
    return n;
}

/* Opening a module runs it in our process (its constructors, its
 * description): a library that sets its own thread count (libtorch,
 * oneDNN) must leave our sweeps their threads, as a report opens them. */
static enum verdict threads_kept(char *why, size_t size)
{
    int before = omp_get_max_threads(), opened = 0;

    for (size_t i = 0; i < ga_real_count(); i++)
        for (int id = 0; id < GA_FORMAT_COUNT; id++) {
            struct ga_real_kernel *k;
            if (ga_real_open(ga_real_at(i), ga_format_get((enum ga_format_id)id), NULL, &k, NULL)
                == GA_IO_OK) {
                opened++;
                ga_real_close(k);
            }
            if (omp_get_max_threads() != before) {
                snprintf(why, size, "opening %s left %d OpenMP threads, not %d",
                         ga_real_at(i)->desc.name, omp_get_max_threads(), before);
                return FAIL;
            }
        }
    snprintf(why, size, "%d kernels opened, %d threads kept", opened, before);
    return opened ? PASS : SKIP;
}

int main(void)
{
    struct pair *pairs;
    size_t count = make_pairs(&pairs);
    int failed = 0;
    char kept[256];
    enum verdict v0;

    printf("1..%zu\n", count + 1);
    omp_set_num_threads(2);  /* so that a library's 1 shows, on any machine */
    v0 = threads_kept(kept, sizeof kept);
    printf("%s 1%s - opening the modules keeps our OpenMP threads\n# %s\n",
           v0 == FAIL ? "not ok" : "ok", v0 == SKIP ? " # SKIP" : "", kept);
    failed += v0 == FAIL;
    for (size_t i = 0; i < count; i++) {
        char why[1024];
        enum verdict v = compare(&pairs[i], why, sizeof why);
        if (v == SKIP)
            printf("ok %zu # SKIP %s: %s\n", i + 2, pairs[i].name, why);
        else
            printf("%s %zu - %s\n# %s\n", v == PASS ? "ok" : "not ok", i + 2, pairs[i].name,
                   why);
        failed += v == FAIL;
        fflush(stdout);
    }
    free(pairs);
    return failed ? 1 : 0;
}
