/* A grader against recorded bounds: the check of 'gelu-acc check', with the
 * same baseline reader and the same comparison (check/baseline.h). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api_array.h"
#include "api/api_status.h"
#include "api/grader.h"
#include "api/truth_block.h"
#include "check/baseline.h"

/* The entry's bounds against the grader's summaries. */
static int compare(const gelu_acc_grader *g, const struct ga_baseline_entry *e, int *exceeded,
                   char *report, size_t report_size)
{
    struct ga_summary s[GA_REGION_COUNT + 1];
    char *lines = NULL;
    size_t length = 0;
    FILE *out;
    int status = ga_api_grader_summaries(g, s);

    if (status != GELU_ACC_OK)
        return status;
    if (!(out = open_memstream(&lines, &length)))
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for the check's report");
    *exceeded = ga_baseline_compare(out, e, s);
    if (fclose(out) != 0) {
        free(lines);
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for the check's report");
    }
    if (report && report_size > 0)
        snprintf(report, report_size, "%s", lines);
    free(lines);
    return GELU_ACC_OK;
}

/* The entry records bounds of this grader's function and format. */
static int same_measurement(const gelu_acc_grader *g, const struct ga_baseline_entry *e,
                            const char *where)
{
    if (e->backward)
        return ga_api_fail(GELU_ACC_E_MISMATCH, "%s [%s] records a backward kernel (reference "
                           "%s): a grader grades forward outputs", where, e->name,
                           ga_function_name(e->reference));
    if (e->format != g->stats->format || e->reference != g->reference)
        return ga_api_fail(GELU_ACC_E_MISMATCH, "%s [%s] records %s in %s, the grader %s in %s",
                           where, e->name, ga_function_name(e->reference), e->format->name,
                           ga_function_name(g->reference), g->stats->format->name);
    return GELU_ACC_OK;
}

static const struct ga_baseline_entry *find_section(const struct ga_baseline *b,
                                                    const char *path, const char *section)
{
    if (!section) {
        if (b->count == 1)
            return &b->entries[0];
        ga_api_fail(GELU_ACC_E_MISMATCH, "%s has %zu sections: name the one to check", path,
                    b->count);
        return NULL;
    }
    for (size_t i = 0; i < b->count; i++)
        if (strcmp(b->entries[i].name, section) == 0)
            return &b->entries[i];
    ga_api_fail(GELU_ACC_E_MISMATCH, "%s has no section [%s]", path, section);
    return NULL;
}

static int check_arguments(const gelu_acc_grader *g, const char *text, const char *what,
                           int *exceeded)
{
    if (!g || !text || !exceeded)
        return ga_api_fail(GELU_ACC_E_ARGUMENT, "%s: a NULL argument", what);
    *exceeded = 0;
    return GELU_ACC_OK;
}

GELU_ACC_API int gelu_acc_grader_check_baseline(const gelu_acc_grader *grader, const char *path,
                                                const char *section, int *exceeded,
                                                char *report, size_t report_size)
{
    const struct ga_baseline_entry *e;
    struct ga_baseline b;
    char err[1024];
    int status;

    ga_api_clear();
    if ((status = check_arguments(grader, path, "gelu_acc_grader_check_baseline", exceeded)))
        return status;
    if (ga_baseline_read(path, &b, err, sizeof err) != 0)
        return ga_api_fail(GELU_ACC_E_FILE, "%s", err);
    if (!(e = find_section(&b, path, section)))
        status = GELU_ACC_E_MISMATCH;
    else if ((status = same_measurement(grader, e, path)) == GELU_ACC_OK)
        status = compare(grader, e, exceeded, report, report_size);
    ga_baseline_free(&b);
    ga_api_call_done();
    return status;
}

GELU_ACC_API int gelu_acc_grader_check_bounds(const gelu_acc_grader *grader, const char *bounds,
                                              int *exceeded, char *report, size_t report_size)
{
    /* The bounds become a section of a baseline: these lines come first,
     * numbered from -3 so that the caller's lines are numbered from 1. */
    static const char format[] = "[bounds]\nkernel = -\nformat = %s\nreference = %s\n%s";
    struct ga_baseline b;
    char err[1024];
    char *text;
    int status;

    ga_api_clear();
    if ((status = check_arguments(grader, bounds, "gelu_acc_grader_check_bounds", exceeded)))
        return status;
    if (asprintf(&text, format, grader->stats->format->name, ga_function_name(grader->reference),
                 bounds) < 0)
        return ga_api_fail(GELU_ACC_E_MEMORY, "out of memory for the bounds");
    if (ga_baseline_read_text("bounds", text, -3, &b, err, sizeof err) != 0)
        status = ga_api_fail(GELU_ACC_E_ARGUMENT, "%s", err);
    else {
        status = b.count == 1 ? compare(grader, &b.entries[0], exceeded, report, report_size)
                              : ga_api_fail(GELU_ACC_E_ARGUMENT, "bounds:%d: bounds are lines "
                                            "of one section, without a '[name]' header",
                                            b.entries[1].line);
        ga_baseline_free(&b);
    }
    free(text);
    ga_api_call_done();
    return status;
}
