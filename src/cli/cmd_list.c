/* gelu-acc list: the catalogue of models, then the real libraries; with
 * --formats, the format table instead. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "impls/backward.h"
#include "impls/impl.h"
#include "real/real.h"
#include "truth/fast.h"

static void list_models(void)
{
    puts("Models (the built-in catalogue: formulas written after the libraries named):\n");
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *impl = ga_catalogue_at(i);
        char formats[160] = "";

        for (int id = 0; id < GA_FORMAT_COUNT; id++)
            if (impl->formats & GA_FORMAT_BIT(id)) {
                if (formats[0])
                    strcat(formats, ",");
                strcat(formats, ga_format_get((enum ga_format_id)id)->name);
            }
        printf("%-22s %-25s %s\n", impl->name, formats, ga_function_name(impl->approximates));
        printf("    formula:  %s\n    computes: %s\n    models:   %s\n", impl->formula,
               impl->computes, impl->models);
    }
    printf("\nThe float32 models call the C library's libm (glibc %s): erff, erfcf, "
           "tanhf, expf.\n", ga_real_libc_version());
}

static const char *specials_text(const struct ga_format *f)
{
    switch (f->specials) {
    case GA_SPECIALS_IEEE: return "+-inf, NaN";
    case GA_SPECIALS_NAN_ONLY: return "NaN = S.1111.111";
    default: return "none";
    }
}

/* The format table: layout, range, special encodings, the overflow
 * conventions rounding offers, and which oracle answers. */
static void list_formats(void)
{
    puts("Formats (doc/formats.md; files hold each encoding in bytes, little-endian):\n");
    printf("%-14s %4s %5s %2s %5s %4s %4s %-15s %-15s %-17s %-20s %s\n", "name", "bits", "bytes",
           "p", "emin", "emax", "bias", "largest", "smallest", "not numbers", "overflow",
           "fast oracle");
    for (int id = 0; id < GA_FORMAT_COUNT; id++) {
        const struct ga_format *f = ga_format_get((enum ga_format_id)id);
        char overflow[32], fast[32] = "";

        snprintf(overflow, sizeof overflow, "%s%s", ga_overflow_name(ga_default_overflow(f)),
                 ga_overflow_allowed(f, GA_OVERFLOW_NAN) && !ga_has_infinity(f)
                     ? " (or nan)" : "");
        for (int fn = 0; fn < GA_FUNCTION_COUNT; fn++)
            if (ga_truth_fast_covers((enum ga_function)fn, f))
                snprintf(fast + strlen(fast), sizeof fast - strlen(fast), "%s%s",
                         fast[0] ? "," : "", ga_function_name((enum ga_function)fn));
        printf("%-14s %4d %5d %2d %5d %4d %4d %-15.9g %-15.9g %-17s %-20s %s\n", f->name,
               f->bits, ga_storage_bytes(f), f->precision, f->emin, f->emax,
               ga_exponent_bias(f), ga_decode(f, ga_max_finite(f, false)),
               ga_decode(f, ga_min_subnormal(f, false)), specials_text(f), overflow,
               fast[0] ? fast : "none (MPFR)");
    }
    puts("\nEvery format has signed zeros and subnormals.  'fast oracle' names the functions "
         "whose\nfast path has certified thresholds for the format (a double evaluation with "
         "a proven\nbound, MPFR where it does not decide); the others are answered by the MPFR "
         "oracle alone.");
}

/* The machine line before a list of real implementations. */
static void real_heading(const char *what)
{
    char dir[PATH_MAX], model[128], isa[128];

    ga_real_cpu(model, sizeof model, isa, sizeof isa);
    printf("\n%s (modules in %s; CPU: %s; %s):\n\n", what,
           ga_real_module_dir(dir, sizeof dir), model, isa);
}

/* A real kernel: what it calls and computes (then float64's, where the
 * forward table has it) and, per format, what ran or why not. */
static void list_real_kernel(const struct ga_real_desc *r, const struct ga_real *forward,
                             const enum ga_format_id *order, size_t formats)
{
    printf("%-22s %-25s %s\n", r->name, r->library, ga_function_name(r->approximates));
    printf("    calls:    %s\n    formula:  %s\n    computes: %s\n", r->entry, r->formula,
           r->computes);
    if (forward && forward->formula64 != NULL)
        printf("    in float64: calls %s; formula %s; computes %s\n", forward->entry64,
               forward->formula64, forward->computes64);
    for (size_t k = 0; k < formats; k++) {
        const struct ga_format *f = ga_format_get(order[k]);
        struct gelu_acc_real_info about;
        struct ga_io_error err;

        if (ga_real_describe(r, f, &about, &err) != GA_IO_OK)
            printf("    %-9s not available: %s\n", f->name, err.message);
        else if (about.refusal[0])
            printf("    %-9s refused by %s %s: %s\n", f->name, r->library, about.version,
                   about.refusal);
        else
            printf("    %-9s %s %s; %s\n", f->name, r->library, about.version, about.path);
    }
}

static void list_real(void)
{
    static const enum ga_format_id order[] = { GA_FLOAT32, GA_BFLOAT16, GA_FLOAT16, GA_FLOAT64 };

    real_heading("Real libraries");
    for (size_t i = 0; i < ga_real_count(); i++) {
        const struct ga_real *r = ga_real_at(i);
        list_real_kernel(&r->desc, r, order, sizeof order / sizeof order[0]);
    }
}

static void list_backward(void)
{
    static const enum ga_format_id backward_formats[] = { GA_FLOAT32, GA_BFLOAT16, GA_FLOAT16 };

    puts("Backward kernels (gelu-acc sweep --backward): dx = dy * d(x) as written after the "
         "sources named:\n");
    for (size_t i = 0; i < ga_backward_catalogue_count(); i++) {
        const struct ga_backward_impl *impl = ga_backward_catalogue_at(i);
        printf("%-34s %-25s %s\n", impl->name,
               impl->formats & GA_FORMAT_BIT(GA_FLOAT32) ? "float32,float16,bfloat16" : "float16,bfloat16",
               ga_function_name(impl->approximates));
        printf("    formula:  %s\n    computes: %s\n    models:   %s\n", impl->formula,
               impl->computes, impl->models);
    }
    real_heading("Real libraries' backward kernels (gelu-acc sweep --backward --impl NAME)");
    for (size_t i = 0; i < ga_real_backward_count(); i++)
        list_real_kernel(ga_real_backward_at(i), NULL, backward_formats,
                         sizeof backward_formats / sizeof backward_formats[0]);
}

int ga_cmd_list(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        puts("usage: gelu-acc list [--formats | --backward]\n\nLists the built-in models (name, formats, "
             "the function each approximates, the formula as computed, its precision, what it "
             "models), then the real libraries: for each, what is called, and per format the "
             "library version and the code path it reports, or why it does not run here.\n"
             "  --formats  the format table instead: width, precision, exponent range, bias, "
             "largest and smallest values, the encodings that are not numbers, overflow "
             "conventions, and which functions have a fast oracle in each format.\n"
             "  --backward the backward kernels instead (doc/gradients.md).");
        return GA_EXIT_OK;
    }
    if (argc == 2 && strcmp(argv[1], "--formats") == 0) {
        list_formats();
        return GA_EXIT_OK;
    }
    if (argc == 2 && strcmp(argv[1], "--backward") == 0) {
        list_backward();
        return GA_EXIT_OK;
    }
    if (argc > 1) {
        ga_cli_error("list: unexpected argument '%s'", argv[1]);
        return GA_EXIT_USAGE;
    }
    list_models();
    list_real();
    return GA_EXIT_OK;
}
