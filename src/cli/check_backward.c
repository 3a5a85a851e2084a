/* gelu-acc check on a backward entry of a baseline: the kernel (a backward
 * catalogue name or plugin:lib.so:symbol, relative to the baseline) swept
 * over its pair domain, then compared with its bounds. */
#include "cli/check_backward.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "formats/parse_value.h"
#include "measure/backward_sweep.h"
#include "measure/kernel_spec.h"

/* The kernel of e into s: 0, or -1 with a message in why. */
static int open_kernel(const struct ga_baseline_entry *e, const char *baseline_dir,
                       double timeout_s, struct ga_backward_sweep *s, char *why, size_t why_size)
{
    struct ga_plugin_options po;
    struct ga_io_error io;
    char *path;
    int rc;

    if (strncmp(e->kernel, "plugin:", 7) != 0) {
        s->impl = ga_backward_catalogue_find(e->kernel);
        if (!s->impl || !ga_backward_supports(s->impl, e->format)) {
            snprintf(why, why_size, "'%.200s' is no backward kernel for %s ('gelu-acc list "
                     "--backward')", e->kernel, e->format->name);
            return -1;
        }
        return 0;
    }
    ga_plugin_default_options(&po);
    po.name = e->name;
    if (timeout_s > 0)
        po.timeout_s = timeout_s;
    if (po.narrow_timeout_s > po.timeout_s)
        po.narrow_timeout_s = po.timeout_s;
    if (!(path = ga_kernel_resolve_path(baseline_dir, e->kernel + 7))) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    rc = ga_plugin_open_backward(path, e->format, &po, &s->plugin, &io) == GA_IO_OK ? 0 : -1;
    if (rc != 0)
        snprintf(why, why_size, "%s", io.message);
    free(path);
    return rc;
}

int ga_cli_check_backward(const char *path, const char *baseline_dir,
                          const struct ga_baseline_entry *e, int threads, double timeout_s,
                          struct ga_backward_stats *st)
{
    struct ga_backward_sweep s = { .name = e->name, .reference = e->reference,
                                   .threads = threads };
    struct ga_pairs pairs;
    ga_bits dy;
    char why[1400];
    int status = GA_EXIT_OK;

    if (ga_parse_value(e->format, e->dy[0] ? e->dy : "1", &dy) != 0)
        snprintf(why, sizeof why, "dy '%s' is not a number", e->dy);
    else if (ga_pairs_parse(&pairs, e->domain, e->format, dy, why, sizeof why) == 0)
        why[0] = '\0';
    if (why[0]) {
        ga_cli_error("check: %s:%d: [%s]: %s", path, e->line, e->name, why);
        return GA_EXIT_USAGE;
    }
    if (open_kernel(e, baseline_dir, timeout_s > 0 ? timeout_s : e->timeout_s, &s, why,
                    sizeof why) != 0) {
        ga_cli_error("check: %s:%d: [%s]: %s", path, e->line, e->name, why);
        status = GA_EXIT_USAGE;
    } else {
        s.pairs = &pairs;
        if (ga_backward_sweep_run(&s, st, why, sizeof why) != 0) {
            ga_cli_error("check: [%s]: %s", e->name, why);
            status = GA_EXIT_INTERNAL;
        }
    }
    ga_plugin_close(s.plugin);
    ga_pairs_free(&pairs);
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
