/* A report's rows graded from files (engine/report_graded.h). */
#include "engine/report_graded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "measure/graded.h"

static void append_line(char *buf, size_t size, const char *line)
{
    size_t used = strlen(buf);

    if (used + strlen(line) < size)
        memcpy(buf + used, line, strlen(line) + 1);
}

/* The rows a shard keeps for the manifests' sections of f: one per
 * reference of each measured section. */
size_t ga_report_graded_rows(const struct ga_format *f, const struct ga_real_outputs *ro,
                             size_t nro)
{
    size_t n = 0;

    for (size_t k = 0; k < nro; k++)
        for (size_t i = 0; i < ro[k].count; i++) {
            const struct ga_real_outputs_entry *e = &ro[k].entries[i];
            if (e->format == f && !e->unsupported[0])
                n += e->reference == GA_GELU ? 1 : 2;
        }
    return n;
}

/* What the page says of the manifests: the libraries on the machine line,
 * the unsupported sections among the real libraries not measured. */
static void say_graded(struct ga_report_real *rr, const char *libraries,
                       const char *not_measured)
{
    char line[600];

    append_line(rr->not_measured, sizeof rr->not_measured, not_measured);
    if (libraries[0]) {
        snprintf(line, sizeof line, "; run elsewhere and graded from files: %s", libraries);
        append_line(rr->machine, sizeof rr->machine, line);
    }
}

/* Graded row r of a section, measured over the shard's share, as the next
 * graded part of the shard's format entry: the partial's identity names the
 * section, describes it as the page does and records the section's domain. */
static int keep_graded(const struct ga_format *f, const struct ga_real_outputs_entry *e,
                       const struct ga_measurement *m, const struct ga_domain *stated,
                       enum ga_oracle oracle, const struct ga_report_share *share, size_t *kept)
{
    struct ga_report_partial_format *entry = &share->save->format[share->save->nformats - 1];
    struct ga_partial_identity *id = malloc(sizeof *id);
    int status;

    if (!id || ga_partial_identity_init(id, PACKAGE_NAME " " PACKAGE_VERSION, f, e->name, m,
                                        stated, oracle, 0, 0) != 0) {
        free(id);
        ga_report_say(share, "report: section [%s] of the real outputs: out of memory, or a "
                      "text too long for a partial file", e->name);
        return GA_ENGINE_UNDECIDED;
    }
    status = ga_report_store_partial(entry, entry->count - entry->graded + (*kept)++, id, m,
                                         share);
    free(id);
    return status;
}

/* Where grade_section puts what it grades: results[*n...] with their texts
 * from text[*t], or, in a shard, the shard's state (*kept rows so far). */
struct graded_rows {
    struct ga_result *results;
    size_t *n;
    struct ga_report_graded_text *text;
    size_t t, kept;
};

/* Section e (measured, of format f) graded on its own inputs against its
 * reference, and tanh forms against exact GELU too, into *out. */
static int grade_section(const struct ga_format *f, const struct ga_real_outputs_entry *e,
                         const struct ga_sweep_options *base, struct graded_rows *out,
                         const struct ga_report_share *share)
{
    enum ga_function refs[2] = { GA_GELU, e->reference };
    size_t nrefs = e->reference == GA_GELU ? 1 : 2;
    struct ga_graded g[2];
    struct ga_measurement m[2];
    struct ga_domain d, second, stated;  /* second: g[1]'s inputs, unused */
    struct ga_io_error io;
    char why[512];
    int status = GA_ENGINE_OK;

    if (ga_domain_parse(&stated, e->domain, f, why, sizeof why) != 0) {
        ga_report_say(share, "report: section [%s] (line %d) of the real outputs: domain: %s",
                      e->name, e->line, why);
        return GA_ENGINE_BAD_INPUT;
    }
    memset(m, 0, sizeof m);
    for (size_t r = 0; r < nrefs; r++) {
        if (ga_graded_open(&g[r], e->inputs, e->outputs, f, &io) != GA_IO_OK) {
            ga_report_say(share, "report: section [%s] of the real outputs: %s", e->name,
                          io.message);
            for (size_t q = 0; q < r; q++)
                ga_graded_close(&g[q]);
            ga_domain_free(&stated);
            return GA_ENGINE_BAD_INPUT;
        }
        ga_graded_attach(&g[r], e->name, r == 0 ? &d : &second, &m[r]);
        m[r].reference = refs[r];
        m[r].want_profile = false;
        m[r].want_shape = true;
    }
    /* The inputs must be the domain the section names: at least as many. */
    if (g[0].inputs.length != stated.size) {
        ga_report_say(share, "report: section [%s] of the real outputs: %s holds %llu inputs, "
                      "its domain '%s' has %llu", e->name, e->inputs,
                      (unsigned long long)g[0].inputs.length, e->domain,
                      (unsigned long long)stated.size);
        status = GA_ENGINE_BAD_INPUT;
    }
    if (status == GA_ENGINE_OK)
        status = ga_report_sweep_share(f, &d, m, nrefs, *base, share, e->name);
    for (size_t r = 0; r < nrefs && status == GA_ENGINE_OK; r++, out->t++) {
        /* measured: the row described as the page shows it */
        struct ga_report_graded_text *text = &out->text[out->t];
        struct ga_impl row = { .name = e->name, .approximates = e->reference,
                               .models = text->models, .formula = text->formula,
                               .computes = text->computes, .real = true };
        snprintf(text->models, sizeof text->models, "%s %s: %s, run outside "
                 "gelu-acc%s%s%s%s", e->library, e->version, e->operator_text,
                 e->graph[0] ? "; graph as run: " : "", e->graph, e->path[0] ? "; " : "",
                 e->path);
        snprintf(text->formula, sizeof text->formula, "as the library computes it");
        snprintf(text->computes, sizeof text->computes, "outputs graded from files");
        m[r].impl = &row;
        if (share->save) {
            status = keep_graded(f, e, &m[r], &stated, base->oracle, share, &out->kept);
        } else if (ga_result_from_measurement(&out->results[*out->n], &m[r], &d, base->oracle,
                                              NULL) != 0) {
            status = GA_ENGINE_UNDECIDED;
        } else {
            snprintf(out->results[(*out->n)++].domain, sizeof out->results->domain, "%s",
                     e->domain);
        }
        m[r].impl = NULL;
    }
    for (size_t r = 0; r < nrefs; r++) {
        if (m[r].stats)
            ga_measurement_clear(&m[r]);
        ga_graded_close(&g[r]);
    }
    ga_domain_free(&d);
    if (nrefs > 1)
        ga_domain_free(&second);
    ga_domain_free(&stated);
    return status;
}

/* The rows of the manifests' sections for f: each graded on its own inputs
 * (grade_section) into results[*n...], or, in a shard, over its share into
 * the shard's state; unsupported sections are listed in rr->not_measured.
 * Returns a GA_ENGINE_* status. */
int ga_report_grade_outside(const struct ga_format *f, const struct ga_real_outputs *ro,
                            size_t nro, const struct ga_sweep_options *base,
                            struct ga_report_real *rr, struct ga_result *results, size_t *n,
                            struct ga_report_graded_text *text,
                            const struct ga_report_share *share)
{
    char line[1536], seen[512] = "", not_measured[4096] = "";
    struct graded_rows out = { results, n, text, 0, 0 };

    for (size_t k = 0; k < nro; k++) {
        for (size_t i = 0; i < ro[k].count; i++) {
            const struct ga_real_outputs_entry *e = &ro[k].entries[i];
            int status;

            if (e->format != f)
                continue;
            snprintf(line, sizeof line, "%s %s", e->library, e->version);
            if (strstr(seen, line) == NULL && strlen(seen) + strlen(line) + 3 < sizeof seen) {
                strcat(seen, seen[0] ? ", " : "");
                strcat(seen, line);
            }
            if (e->unsupported[0]) {
                snprintf(line, sizeof line, "`%s`: %s %s, %s: %s\n", e->name, e->library,
                         e->version, e->operator_text, e->unsupported);
                append_line(not_measured, sizeof not_measured, line);
                continue;
            }
            status = grade_section(f, e, base, &out, share);
            if (status != GA_ENGINE_OK)
                return status;
        }
    }
    if (share->save) {
        struct ga_report_partial_format *entry = &share->save->format[share->save->nformats - 1];
        snprintf(entry->graded_libraries, sizeof entry->graded_libraries, "%s", seen);
        snprintf(entry->graded_not_measured, sizeof entry->graded_not_measured, "%s",
                 not_measured);
        ga_report_graded_machine(f, ro, nro, entry->graded_machine, sizeof entry->graded_machine);
    } else {
        say_graded(rr, seen, not_measured);
        ga_report_graded_machine(f, ro, nro, rr->graded_machine, sizeof rr->graded_machine);
    }
    return GA_ENGINE_OK;
}

/* The rows graded from files in merged shards, into results[*n...]: their
 * figures, descriptions and domains are the shards'. */
int ga_report_take_graded(const struct ga_format *f, const struct ga_report_share *share,
                          struct ga_report_real *rr, struct ga_result *results, size_t *n)
{
    struct ga_report_partial_format *e = &share->merged->format[share->format];

    for (size_t j = e->count - e->graded; j < e->count; j++) {
        const struct ga_partial *p = e->parts[j];
        struct ga_domain stated;
        char why[512];
        int status;

        if (ga_domain_parse(&stated, p->id.domain, f, why, sizeof why) != 0) {
            ga_report_say(share, "report: the shards' row %s: domain: %s", p->id.impl, why);
            return GA_ENGINE_BAD_INPUT;
        }
        status = ga_result_from_measurement(&results[(*n)++], &p->m, &stated, share->merged->oracle,
                                            p->id.impl);
        ga_domain_free(&stated);
        if (status != 0)
            return GA_ENGINE_UNDECIDED;
    }
    say_graded(rr, e->graded_libraries, e->graded_not_measured);
    snprintf(rr->graded_machine, sizeof rr->graded_machine, "%s", e->graded_machine);
    return GA_ENGINE_OK;
}
