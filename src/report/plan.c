/* What a report measures (plan.h). */
#include "report/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impls/impl.h"

size_t ga_report_plan_max(void)
{
    return 2 * ga_catalogue_count();
}

size_t ga_report_plan(const struct ga_format *f, struct ga_measurement *m)
{
    size_t n = 0;

    for (size_t i = 0; i < ga_catalogue_count(); i++) {
        const struct ga_impl *impl = ga_catalogue_at(i);
        if (!ga_impl_supports(impl, f))
            continue;
        m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU, .want_profile = true,
                                          .want_shape = true };
        if (impl->approximates == GA_GELU_TANH)
            m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU_TANH,
                                              .want_profile = true, .want_shape = true };
    }
    return n;
}

size_t ga_report_plan_real_max(void)
{
    return 2 * ga_real_count();
}

static void append(char *buf, size_t size, const char *text)
{
    size_t used = strlen(buf);
    if (used < size)
        snprintf(buf + used, size - used, "%s", text);
}

size_t ga_report_plan_real(const struct ga_format *f, struct ga_measurement *m,
                           struct ga_report_real *rr)
{
    char line[768], seen[512] = "";
    size_t n = 0;

    memset(rr, 0, sizeof *rr);
    if (ga_is_small_format(f))
        return 0;
    rr->kernels = calloc(ga_real_count(), sizeof *rr->kernels);
    rr->lengths = calloc(ga_real_count(), sizeof *rr->lengths);
    if (rr->lengths == NULL) {
        free(rr->kernels);
        rr->kernels = NULL;
    }
    ga_real_cpu(rr->cpu, sizeof rr->cpu, rr->isa, sizeof rr->isa);
    for (size_t i = 0; i < ga_real_count(); i++) {
        const struct ga_real *r = ga_real_at(i);
        struct ga_real_kernel *k = NULL;
        struct ga_io_error err;
        const struct ga_impl *impl;
        char version[160];
        enum ga_io_status st = rr->kernels ? ga_real_open(r, f, NULL, &k, &err) : GA_IO_SYSTEM;

        if (st != GA_IO_OK) {
            /* No paths in a report: it must not depend on where it was made. */
            if (st == GA_IO_LOAD)
                snprintf(line, sizeof line, "`%s`: the %s module was not built\n", r->desc.name,
                         r->desc.library);
            else
                snprintf(line, sizeof line, "`%s`: %s\n", r->desc.name,
                         rr->kernels ? err.message : "out of memory");
            append(rr->not_measured, sizeof rr->not_measured, line);
            continue;
        }
        rr->kernels[rr->count++] = k;
        impl = ga_real_impl(k);
        snprintf(version, sizeof version, "%s %s", r->desc.library,
                 ga_real_kernel_about(k)->version);
        if (strstr(seen, version) == NULL) {  /* each library once, in table order */
            append(seen, sizeof seen, seen[0] ? ", " : "");
            append(seen, sizeof seen, version);
        }
        m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU, .want_shape = true };
        if (impl->approximates == GA_GELU_TANH)
            m[n++] = (struct ga_measurement){ .impl = impl, .reference = GA_GELU_TANH,
                                              .want_shape = true };
    }
    if (snprintf(rr->machine, sizeof rr->machine, "%s (%s); %s; glibc %s", rr->cpu, rr->isa,
                 seen[0] ? seen : "no real library", ga_real_libc_version())
        >= (int)sizeof rr->machine)
        memcpy(rr->machine + sizeof rr->machine - 4, "...", 4);  /* cut, and says so */
    return n;
}

void ga_report_real_close(struct ga_report_real *rr)
{
    for (size_t i = 0; i < rr->count; i++)
        ga_real_close(rr->kernels[i]);
    for (size_t i = 0; i < rr->length_row_count; i++)
        ga_real_close(rr->length_rows[i].kernel);
    free(rr->kernels);
    free(rr->lengths);
    free(rr->length_rows);
    free(rr->proofs);
    memset(rr, 0, sizeof *rr);
}

/* Row r as measured here by one of rr's kernels, long or at a length;
 * false when none has its name. */
static bool describe_called(const struct ga_report_real *rr, const struct ga_format *f,
                            struct ga_result *r)
{
    enum ga_real_length length;
    const struct ga_real *real = ga_real_find_at(r->impl, &length);

    for (size_t k = 0; real != NULL && k < rr->count + rr->length_row_count; k++) {
        bool long_row = k < rr->count;
        const struct ga_real_kernel *kernel =
            long_row ? rr->kernels[k] : rr->length_rows[k - rr->count].kernel;
        const struct gelu_acc_real_info *about = ga_real_kernel_about(kernel);

        if (strcmp(ga_real_impl(kernel)->name, r->impl) != 0)
            continue;
        r->machine = (struct ga_result_machine){
            rr->cpu, rr->isa, real->desc.library, about->version,
            !long_row               ? rr->length_rows[k - rr->count].call
            : f->id == GA_FLOAT64 ? real->entry64
                                  : real->desc.entry,
            about->path, long_row && rr->lengths[k][0] ? rr->lengths[k] : NULL,
            long_row && rr->proofs && rr->proofs[k].model ? &rr->proofs[k] : NULL };
        return true;
    }
    return false;
}

/* A graded line: name, cpu, isa, library, version, call (the operator and
 * the manifest's path), path (its graph), lengths. */
enum { GRADED_FIELDS = 8 };

/* Append one field of a graded line: tabs and line breaks become blanks. */
static void put_field(char *buf, size_t size, const char *text, char end)
{
    size_t used = strlen(buf);

    for (; *text && used + 2 < size; text++)
        buf[used++] = *text == '\t' || *text == '\n' ? ' ' : *text;
    if (used + 1 < size)
        buf[used++] = end;
    buf[used] = '\0';
}

void ga_report_graded_machine(const struct ga_format *f, const struct ga_real_outputs *ro,
                              size_t nro, char *buf, size_t size)
{
    static const char not_recorded[] = "not recorded (run outside gelu-acc)";

    buf[0] = '\0';
    for (size_t k = 0; k < nro; k++)
        for (size_t i = 0; i < ro[k].count; i++) {
            const struct ga_real_outputs_entry *e = &ro[k].entries[i];
            char call[sizeof e->operator_text + sizeof e->path + 2];
            const char *fields[GRADED_FIELDS] = { e->name, e->cpu[0] ? e->cpu : not_recorded,
                                                  e->isa[0] ? e->isa : not_recorded, e->library,
                                                  e->version, call,
                                                  e->graph[0] ? e->graph : "not reported",
                                                  e->lengths };
            if (e->format != f || e->unsupported[0])
                continue;
            snprintf(call, sizeof call, "%s%s%s", e->operator_text, e->path[0] ? "; " : "",
                     e->path);
            for (size_t q = 0; q < GRADED_FIELDS; q++)
                put_field(buf, size, fields[q], q + 1 < GRADED_FIELDS ? '\t' : '\n');
        }
}

void ga_report_real_describe(struct ga_report_real *rr, const struct ga_format *f,
                             struct ga_result *r, size_t n)
{
    const char *line[GRADED_FIELDS];
    char *at = rr->graded_machine;

    for (size_t i = 0; i < n; i++)
        if (!describe_called(rr, f, &r[i]))
            r[i].machine = (struct ga_result_machine){ NULL };
    /* each graded line: its fields as strings, given to the rows of its name */
    while (*at) {
        for (size_t q = 0; q < GRADED_FIELDS; q++) {
            line[q] = at;
            at += strcspn(at, q + 1 < GRADED_FIELDS ? "\t" : "\n");
            if (*at)
                *at++ = '\0';
        }
        for (size_t i = 0; i < n; i++)
            if (r[i].machine.cpu == NULL && strcmp(r[i].impl, line[0]) == 0)
                r[i].machine = (struct ga_result_machine){ line[1], line[2], line[3], line[4],
                                                           line[5], line[6],
                                                           line[7][0] ? line[7] : NULL, NULL };
    }
}

void ga_report_call_machine(const char *library, const char *entry, enum ga_real_length length,
                            const struct gelu_acc_real_info *about,
                            struct ga_report_machine_text *text, struct ga_result_machine *m)
{
    ga_real_cpu(text->cpu, sizeof text->cpu, text->isa, sizeof text->isa);
    snprintf(text->call, sizeof text->call, "%s%s%s", entry,
             length == GA_REAL_LONG ? "" : "; ",
             length == GA_REAL_LONG ? "" : ga_real_length_text(length));
    *m = (struct ga_result_machine){ text->cpu, text->isa, library, about->version, text->call,
                                     about->path, NULL, NULL };
}

void ga_report_kernel_machine(const struct ga_real_kernel *k, const struct ga_format *f,
                              struct ga_report_machine_text *text, struct ga_result_machine *m)
{
    enum ga_real_length length;
    const struct ga_real *real = ga_real_find_at(ga_real_impl(k)->name, &length);

    ga_report_call_machine(real ? real->desc.library : "",
                           real == NULL            ? ""
                           : f->id == GA_FLOAT64 ? real->entry64
                                                 : real->desc.entry,
                           length, ga_real_kernel_about(k), text, m);
}
