/* Machine-readable results (schema in doc/commands.md, "JSON"). */
#include <math.h>
#include <string.h>

#include "report/json_string.h"
#include "grade/number_text.h"
#include "report/shape_print.h"
#include "report/result.h"

/* A JSON number, or "inf" as a string, or null for NaN (not measured). */
static void number(FILE *out, const char *key, double v, bool statistic)
{
    char buf[GA_TEXT_LEN];
    if (v != v)
        fprintf(out, "\"%s\": null", key);
    else if (v == INFINITY)
        fprintf(out, "\"%s\": \"inf\"", key);
    else
        fprintf(out, "\"%s\": %s", key, statistic ? ga_text_stat(v, buf) : ga_text_error(v, buf));
}

static void string(FILE *out, const char *key, const char *v)
{
    fprintf(out, "\"%s\": ", key);
    ga_json_string(out, v);
}

static void encoding(FILE *out, const struct ga_format *f, const char *key, bool has, ga_bits x)
{
    char hex[GA_BITS_TEXT_LEN];
    if (!has) {
        fprintf(out, "\"%s\": null", key);
        return;
    }
    ga_format_bits(f, x, hex);
    fprintf(out, "\"%s\": \"%s\"", key, hex);
}

static void point(FILE *out, const struct ga_format *f, const char *name, const struct ga_point *p)
{
    char key[64], buf[GA_TEXT_LEN];

    number(out, name, p->has ? p->error : (double)NAN, false);
    snprintf(key, sizeof key, "%s_input", name);
    fputs(", ", out);
    encoding(out, f, key, p->has, p->x);
    if (strcmp(name, "max_ulp") == 0) {
        fputs(", ", out);
        encoding(out, f, "max_ulp_output", p->has, p->y);
        fputs(", ", out);
        if (p->has)
            string(out, "max_ulp_exact", ga_text_exact(&p->exact, buf));
        else
            fputs("\"max_ulp_exact\": null", out);
    }
}

static void summary(FILE *out, const struct ga_format *f, const struct ga_summary *s,
                    const char *indent)
{
    const struct ga_faithful_interval *fi = &s->faithful_interval;

    fprintf(out, "%s\"count\": %llu, \"correctly_rounded\": %llu, \"faithful\": %llu,\n%s",
            indent, (unsigned long long)s->count, (unsigned long long)s->correctly_rounded,
            (unsigned long long)s->faithful, indent);
    point(out, f, "max_ulp", &s->max_ulp);
    fprintf(out, ",\n%s", indent);
    number(out, "mean_ulp", s->mean_ulp, true);
    fputs(", ", out);
    number(out, "p50", s->p50, true);
    fputs(", ", out);
    number(out, "p95", s->p95, true);
    fputs(", ", out);
    number(out, "p99", s->p99, true);
    fprintf(out, ",\n%s", indent);
    point(out, f, "max_rel", &s->max_rel);
    fputs(", ", out);
    point(out, f, "max_abs", &s->max_abs);
    fprintf(out, ",\n%s\"flushed_to_zero\": %llu, \"nan\": %llu, \"inf\": %llu, "
            "\"wrong_zero_sign\": %llu, \"not_nan\": %llu,\n%s\"faithful_interval\": ",
            indent, (unsigned long long)s->flushed_to_zero, (unsigned long long)s->nan,
            (unsigned long long)s->inf, (unsigned long long)s->wrong_zero_sign,
            (unsigned long long)s->not_nan, indent);
    if (fi->exists) {
        fputs("{", out);
        encoding(out, f, "lo", fi->has_lo, fi->lo);
        fputs(", ", out);
        encoding(out, f, "hi", fi->has_hi, fi->hi);
        fputs(", ", out);
        encoding(out, f, "from", fi->has_extent, fi->extent_lo);
        fputs(", ", out);
        encoding(out, f, "to", fi->has_extent, fi->extent_hi);
        fputs("}", out);
    } else {
        fputs("null", out);
    }
    fputs(", ", out);
    encoding(out, f, "zero_below", s->has_zero_below, s->zero_below);
    fprintf(out, ",\n%s\"first_faults\": {", indent);
    for (int i = 0, first = 1; i < GA_FAULT_COUNT; i++) {
        const struct ga_point *p = &s->first_fault[i];
        char buf[GA_TEXT_LEN];
        if (!p->has)
            continue;
        fprintf(out, "%s\"%s\": {", first ? "" : ", ", ga_fault_name((enum ga_fault)i));
        encoding(out, f, "input", true, p->x);
        fputs(", ", out);
        encoding(out, f, "output", true, p->y);
        fputs(", ", out);
        string(out, "exact", ga_text_exact(&p->exact, buf));
        fputs("}", out);
        first = 0;
    }
    fputs("}", out);
    fprintf(out, ",\n%s\"distance_histogram\": {", indent);
    for (unsigned b = 0, first = 1; b < GA_DIST_BUCKETS; b++) {
        if (s->distance[b] == 0)
            continue;
        fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", ga_distance_bucket_label(b),
                (unsigned long long)s->distance[b]);
        first = 0;
    }
    fputs("}", out);
}

/* "failure": the spans of failing inputs in domain order, and what the
 * failures cost. */
static void failure(FILE *out, const struct ga_format *f, const struct ga_result *r)
{
    fputs("   \"failure\": {", out);
    string(out, "what", r->spans[0].what);
    fputs(", ", out);
    encoding(out, f, "first_input", true, r->spans[0].first);
    fputs(",\n    \"spans\": [", out);
    for (size_t i = 0; i < r->span_count; i++) {
        fputs(i ? ",\n     {" : "{", out);
        string(out, "what", r->spans[i].what);
        fputs(", ", out);
        encoding(out, f, "first_input", true, r->spans[i].first);
        fputs(", ", out);
        encoding(out, f, "last_input", true, r->spans[i].last);
        fprintf(out, ", \"batches\": %llu}", (unsigned long long)r->spans[i].batches);
    }
    fprintf(out, "],\n    \"unlisted_spans\": %llu, \"batches\": %llu, "
            "\"inputs_not_measured\": %llu, \"stopped_early\": %s},\n",
            (unsigned long long)r->unlisted_spans, (unsigned long long)r->failed_batches,
            (unsigned long long)(r->failed_inputs + r->skipped_inputs),
            r->skipped_inputs ? "true" : "false");
}

/* The check of the model claimed to equal a real row's kernel
 * (report/model_proof.h). */
static void model_proof(FILE *out, const struct ga_format *f, const struct ga_model_proof *p)
{
    fputs("\"model_proof\": {", out);
    string(out, "model", p->model);
    fprintf(out, ", \"checked\": %s, ", p->checked ? "true" : "false");
    if (!p->checked) {
        string(out, "why", p->why);
    } else {
        fprintf(out, "\"inputs\": %llu, \"differ\": %llu, ",
                (unsigned long long)p->match.inputs, (unsigned long long)p->match.differ);
        encoding(out, f, "first_x", p->match.differ > 0, p->match.x);
        fputs(", ", out);
        encoding(out, f, "first_model", p->match.differ > 0, p->match.a);
        fputs(", ", out);
        encoding(out, f, "first_library", p->match.differ > 0, p->match.b);
    }
    fputs("},\n   ", out);
}

/* A real row's machine and call, one line (result.h). */
static void machine(FILE *out, const struct ga_format *f, const struct ga_result_machine *m)
{
    string(out, "cpu", m->cpu);
    fputs(", ", out);
    string(out, "isa", m->isa);
    fputs(", ", out);
    string(out, "library", m->library);
    fputs(", ", out);
    string(out, "version", m->version);
    fputs(",\n   ", out);
    string(out, "call", m->call);
    fputs(", ", out);
    string(out, "path", m->path);
    fputs(",\n   ", out);
    if (m->lengths != NULL) {
        string(out, "lengths", m->lengths);
        fputs(",\n   ", out);
    }
    if (m->proof != NULL)
        model_proof(out, f, m->proof);
}

int ga_write_json(FILE *out, const struct ga_result *r, size_t n)
{
    fputs("[\n", out);
    for (size_t i = 0; i < n; i++) {
        const struct ga_format *f = r[i].format;

        fputs("  {", out);
        string(out, "impl", r[i].impl);
        fputs(", ", out);
        string(out, "format", f->name);
        fputs(", ", out);
        string(out, "reference", ga_function_name(r[i].reference));
        fputs(", ", out);
        string(out, "approximates", ga_function_name(r[i].approximates));
        fputs(",\n   ", out);
        string(out, "models", r[i].models);
        fputs(", ", out);
        string(out, "formula", r[i].formula);
        fputs(", ", out);
        string(out, "computes", r[i].computes);
        fputs(",\n   ", out);
        if (r[i].machine.cpu != NULL)
            machine(out, f, &r[i].machine);
        string(out, "domain", r[i].domain);
        fputs(", ", out);
        string(out, "oracle", r[i].oracle == GA_ORACLE_FAST ? "fast" : "mpfr");
        fprintf(out, ", \"failed\": %s,\n", r[i].failed ? "true" : "false");
        if (r[i].failed)
            failure(out, f, &r[i]);
        summary(out, f, &r[i].region[GA_REGION_ALL], "   ");
        ga_shape_write_json(out, &r[i]);
        fputs(",\n   \"regions\": {\n", out);
        for (int g = 0; g < GA_REGION_COUNT; g++) {
            fprintf(out, "    \"%s\": {\n", ga_region_name((enum ga_region)g));
            summary(out, f, &r[i].region[g], "     ");
            fprintf(out, "}%s\n", g + 1 < GA_REGION_COUNT ? "," : "");
        }
        fprintf(out, "   }}%s\n", i + 1 < n ? "," : "");
    }
    fputs("]\n", out);
    return ferror(out) ? -1 : 0;
}
