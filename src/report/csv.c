/* One CSV row per (implementation, reference, region): for spreadsheets. */
#include <string.h>

#include "grade/number_text.h"
#include "report/result.h"
#include "report/shape_print.h"

static void hex_or_empty(FILE *out, const struct ga_format *f, bool has, ga_bits x)
{
    char hex[GA_BITS_TEXT_LEN];
    if (has) {
        ga_format_bits(f, x, hex);
        fputs(hex, out);
    }
}

/* A text field (RFC 4180): quoted, its quotes doubled, where it holds a
 * comma, a quote or a line break. */
static void field(FILE *out, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        fprintf(out, ",%s", text);
        return;
    }
    fputs(",\"", out);
    for (const char *c = text; *c; c++) {
        if (*c == '"')
            fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* A real row's machine and call (result.h), after the figures. */
static void machine(FILE *out, const struct ga_format *f, const struct ga_result_machine *m)
{
    const char *fields[] = { m->cpu, m->isa, m->library, m->version, m->call, m->path,
                             m->lengths };
    char proof[512] = "";

    for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++)
        field(out, fields[k] ? fields[k] : "");
    if (m->proof != NULL) {
        size_t used = (size_t)snprintf(proof, sizeof proof, "%s: ", m->proof->model);
        ga_model_proof_text(m->proof, f, proof + used, sizeof proof - used);
    }
    field(out, proof);
}

int ga_write_csv(FILE *out, const struct ga_result *r, size_t n)
{
    bool real = false;  /* real rows: the machine's columns too */

    for (size_t i = 0; i < n; i++)
        real |= r[i].machine.cpu != NULL;
    fputs("impl,format,reference,region,count,correctly_rounded,faithful,max_ulp,max_ulp_input,"
          "mean_ulp,p50,p95,p99,max_rel,max_rel_input,max_abs,max_abs_input,flushed_to_zero,"
          "nan,inf,wrong_zero_sign,faithful_lo,faithful_hi,zero_below,", out);
    fprintf(out, "%s%s\n", ga_shape_csv_header, real ? ",cpu,isa,library,version,call,path,lengths,model_proof" : "");
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k <= GA_REGION_COUNT; k++) {
            int g = k == 0 ? GA_REGION_ALL : k - 1;  /* "all" first, then left to right */
            const struct ga_format *f = r[i].format;
            const struct ga_summary *s = &r[i].region[g];
            const struct ga_faithful_interval *fi = &s->faithful_interval;
            char a[GA_TEXT_LEN];

            if (s->count == 0 && g != GA_REGION_ALL)
                continue;
            fprintf(out, "%s,%s,%s,%s,%llu,%llu,%llu,", r[i].impl, f->name,
                    ga_function_name(r[i].reference),
                    g == GA_REGION_ALL ? "all" : ga_region_name((enum ga_region)g),
                    (unsigned long long)s->count, (unsigned long long)s->correctly_rounded,
                    (unsigned long long)s->faithful);
            fprintf(out, "%s,", s->max_ulp.has ? ga_text_error(s->max_ulp.error, a) : "");
            hex_or_empty(out, f, s->max_ulp.has, s->max_ulp.x);
            fprintf(out, ",%s,", ga_text_stat(s->mean_ulp, a));
            fprintf(out, "%s,", ga_text_stat(s->p50, a));
            fprintf(out, "%s,", ga_text_stat(s->p95, a));
            fprintf(out, "%s,", ga_text_stat(s->p99, a));
            fprintf(out, "%s,", s->max_rel.has ? ga_text_error(s->max_rel.error, a) : "");
            hex_or_empty(out, f, s->max_rel.has, s->max_rel.x);
            fprintf(out, ",%s,", s->max_abs.has ? ga_text_error(s->max_abs.error, a) : "");
            hex_or_empty(out, f, s->max_abs.has, s->max_abs.x);
            fprintf(out, ",%llu,%llu,%llu,%llu,", (unsigned long long)s->flushed_to_zero,
                    (unsigned long long)s->nan, (unsigned long long)s->inf,
                    (unsigned long long)s->wrong_zero_sign);
            hex_or_empty(out, f, fi->exists && fi->has_lo, fi->lo);
            fputc(',', out);
            hex_or_empty(out, f, fi->exists && fi->has_hi, fi->hi);
            fputc(',', out);
            hex_or_empty(out, f, s->has_zero_below, s->zero_below);
            ga_shape_write_csv(out, &r[i], g == GA_REGION_ALL);
            if (real)
                machine(out, f, &r[i].machine);
            fputc('\n', out);
        }
    return ferror(out) ? -1 : 0;
}
