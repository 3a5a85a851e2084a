/* gelu-acc list: the catalogue, with what each entry models. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "impls/impl.h"

int ga_cmd_list(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        puts("usage: gelu-acc list\n\nLists the built-in implementations: name, formats, the "
             "function each approximates, the formula as computed, its precision, what it models.");
        return GA_EXIT_OK;
    }
    if (argc > 1) {
        ga_cli_error("list: unexpected argument '%s'", argv[1]);
        return GA_EXIT_USAGE;
    }
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
    return GA_EXIT_OK;
}
