/* gelu-acc list: the catalogue of models, then the real libraries. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "impls/impl.h"
#include "real/real.h"

static void list_models(void)
{
    puts("Models (the built-in catalogue: formulas written after the libraries named):\n");
    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *impl = ga_catalogue_at(i);
        char formats[64] = "";

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

/* Each real implementation, per format: what ran, or why not. */
static void list_real(void)
{
    static const enum ga_format_id order[] = { GA_FLOAT32, GA_BFLOAT16, GA_FLOAT16 };
    char dir[PATH_MAX], model[128], isa[128];

    ga_real_cpu(model, sizeof model, isa, sizeof isa);
    printf("\nReal libraries (modules in %s; CPU: %s; %s):\n\n",
           ga_real_module_dir(dir, sizeof dir), model, isa);
    for (size_t i = 0; i < ga_real_count(); i++) {
        const struct ga_real *r = ga_real_at(i);

        printf("%-22s %-25s %s\n", r->name, r->library, ga_function_name(r->approximates));
        printf("    calls:    %s\n    formula:  %s\n    computes: %s\n", r->entry, r->formula,
               r->computes);
        for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
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
}

int ga_cmd_list(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        puts("usage: gelu-acc list\n\nLists the built-in models (name, formats, the function "
             "each approximates, the formula as computed, its precision, what it models), "
             "then the real libraries: for each, what is called, and per format the library "
             "version and the code path it reports, or why it does not run here.");
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
