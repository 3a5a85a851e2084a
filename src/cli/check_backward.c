/* gelu-acc check on a backward entry of a baseline: the kernel (a backward
 * catalogue name or plugin:lib.so:symbol, relative to the baseline) swept
 * over its pair domain, then compared with its bounds. */
#include "cli/check_backward.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/run_backward.h"

int ga_cli_check_backward(const char *path, const char *baseline_dir,
                          const struct ga_baseline_entry *e, int threads, double timeout_s,
                          struct ga_backward_stats *st)
{
    struct ga_plugin_options po;
    struct ga_backward_kernel k;
    struct ga_backward_request rq = {
        .spec = e->kernel, .format = e->format, .reference = e->reference,
        .have_reference = true, .domain = e->domain, .dy = e->dy[0] ? e->dy : NULL,
        .base_dir = baseline_dir, .name = e->name, .plugin_options = &po, .threads = threads,
    };
    struct ga_io_error io;
    char why[GA_ENGINE_WHY];
    int status;

    ga_plugin_default_options(&po);
    po.name = e->name;
    if (timeout_s > 0 || e->timeout_s > 0)
        po.timeout_s = timeout_s > 0 ? timeout_s : e->timeout_s;
    if (ga_backward_kernel_open(&k, &rq, &io) != GA_IO_OK) {
        ga_cli_error("check: %s:%d: [%s]: %s", path, e->line, e->name, io.message);
        return GA_EXIT_USAGE;
    }
    status = ga_run_backward_sweep(&k.sweep, st, NULL, NULL, why, sizeof why);
    if (status != GA_ENGINE_OK)
        ga_cli_error("check: [%s]: %s", e->name, why);
    ga_backward_kernel_close(&k);
    return status;
}

int ga_cli_check_backward_verdict(const struct ga_baseline_entry *e,
                                  const struct ga_backward_stats *st, bool update)
{
    int n;

    if (st->failed_batches > 0) {
        char x[GA_BITS_TEXT_LEN], dy[GA_BITS_TEXT_LEN];
        ga_format_bits(e->format, st->failure.x, x);
        ga_format_bits(e->format, st->failure.dy, dy);
        printf("FAIL %s: the kernel %s on pairs %llu..%llu (x = %s, dy = %s); %llu failed "
               "batch%s, %llu pairs not measured\n", e->name, st->failure.what,
               (unsigned long long)st->failure.first, (unsigned long long)st->failure.last, x,
               dy, (unsigned long long)st->failed_batches, st->failed_batches == 1 ? "" : "es",
               (unsigned long long)st->failed_pairs);
        return 1;
    }
    if (update)
        return 0;
    n = ga_backward_bounds_compare(stdout, e->name, e->format, &e->backward_bounds, st);
    printf("%s %s (%s, backward, %s, %llu pairs)\n", n ? "FAIL" : "PASS", e->name,
           e->format->name, ga_function_name(e->reference), (unsigned long long)st->all.count);
    return n;
}
