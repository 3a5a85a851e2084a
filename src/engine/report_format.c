/* One format of a report (engine/report_format.h). */
#include "engine/report_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/report_graded.h"
#include "engine/report_lengths.h"
#include "engine/report_proofs.h"
#include "engine/report_page.h"
#include "measure/cast_sweep.h"
#include "report/plan.h"
#include "report/result.h"
#include "truth/truth.h"

/* The input format of the float8 pages' fused-cast section, on every
 * encoding: the one FP8 epilogues most often read. */
#define CAST_INPUT GA_BFLOAT16

/* That section of f's page into *r (allocated), or NULL where f has none. */
static int measure_cast(const struct ga_format *f, struct ga_cast_result **r,
                        const struct ga_report_share *share)
{
    struct ga_domain d;
    char err[256], hex[GA_BITS_TEXT_LEN];
    ga_bits undecided = 0;
    int status;

    *r = NULL;
    if (!ga_cast_output_allowed(f))
        return GA_ENGINE_OK;
    if (!(*r = malloc(sizeof **r))
        || ga_domain_parse(&d, "all", ga_format_get(CAST_INPUT), err, sizeof err) != 0) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    status = ga_cast_sweep(&d, f, *r, &undecided);
    ga_domain_free(&d);
    if (status == GA_CAST_UNDECIDED) {
        ga_format_bits(ga_format_get(CAST_INPUT), undecided, hex);
        ga_report_say(share, "report: the oracle reached its %d-bit cap on input %s (cast into %s)",
                      GA_ZIV_MAX_PRECISION, hex, f->name);
    }
    return status == GA_CAST_OK ? GA_ENGINE_OK : GA_ENGINE_UNDECIDED;
}

/* report_format with a shard's share (engine/report_share.h): its state is
 * stored and no page is written. */
#define SHARE_SAVED (-1)  /* report_format: the shard's state stored, no page */

/* The status of a backward section that failed with err. */
static int backward_failed(const char *err, const struct ga_report_share *share)
{
    ga_report_say(share, "report: backward: %s", err);
    return strstr(err, "out of memory") || strstr(err, "not decided") ? GA_ENGINE_UNDECIDED
                                                                      : GA_ENGINE_BAD_INPUT;
}

/* f's backward section into *s (allocated), or NULL where f has none:
 * measured here, or taken from the merged shards of share. */
static int measure_backward(const struct ga_format *f, const struct ga_backward_domains *bw,
                            int threads, const struct ga_report_share *share,
                            struct ga_backward_section **s)
{
    const char *domain = ga_backward_domain_for(bw, f);
    struct ga_backward_partial *merged = NULL;
    char err[1024];
    int status;

    *s = NULL;
    if (domain == NULL)
        return GA_ENGINE_OK;
    if (share->merged && !(merged = share->merged->format[share->format].backward)) {
        ga_report_say(share, "report: the shards have no backward section of %s", f->name);
        return GA_ENGINE_BAD_INPUT;
    }
    if (!(*s = malloc(sizeof **s))) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    status = merged ? ga_backward_section_from_partial(*s, f, merged, err, sizeof err)
                    : ga_backward_section_measure(*s, f, domain, threads, err, sizeof err);
    if (status != 0) {
        free(*s);
        *s = NULL;
        return backward_failed(err, share);
    }
    return GA_ENGINE_OK;
}

/* The shard's share of f's backward section into the state of share (its
 * last format), where f has a section. */
static int save_backward_share(const struct ga_format *f, const struct ga_backward_domains *bw,
                               int threads, const struct ga_report_share *share)
{
    const char *domain = ga_backward_domain_for(bw, f);
    struct ga_report_partial *rp = share->save;
    char err[1024];

    if (domain == NULL)
        return GA_ENGINE_OK;
    if (ga_backward_section_measure_share(f, domain, threads, share->shard, share->shards,
                                          &rp->format[rp->nformats - 1].backward, err,
                                          sizeof err) != 0)
        return backward_failed(err, share);
    return GA_ENGINE_OK;
}

/* The domains of the models and, when separate, of the real libraries;
 * where the same, *real_domain is *domain. */
static int parse_domains(const struct ga_format *f, const char *domain_spec,
                         const char *real_spec, bool separate, struct ga_domain *domain,
                         struct ga_domain *real_domain, const struct ga_report_share *share)
{
    char err[512];
    int status;

    status = ga_domain_parse(domain, domain_spec, f, err, sizeof err) != 0 ? -1 : 0;
    if (status == 0 && separate
        && ga_domain_parse(real_domain, real_spec, f, err, sizeof err) != 0) {
        ga_domain_free(domain);
        status = -1;
    }
    if (status != 0) {
        ga_report_say(share, "report: %s", err);
        return GA_ENGINE_BAD_INPUT;
    }
    if (!separate)
        *real_domain = *domain;
    return GA_ENGINE_OK;
}

/* The plan's n models over domain and nreal real kernels over real_domain
 * into m: taken from merged shards, or swept (in one pass when the domains
 * are the same). */
static int sweep_plan(const struct ga_format *f, struct ga_measurement *m, size_t n,
                      size_t nreal, const struct ga_domain *domain,
                      const struct ga_domain *real_domain, bool separate,
                      const struct ga_sweep_options *base, struct ga_report_share *share)
{
    int status;

    if (share->merged)
        return ga_report_take_merged(f, m, n + nreal, n, domain, real_domain, share);
    if (!separate)
        return ga_report_sweep_share(f, domain, m, n + nreal, *base, share, f->name);
    status = ga_report_sweep_share(f, domain, m, n, *base, share, f->name);
    if (status == GA_ENGINE_OK)
        status = ga_report_sweep_share(f, real_domain, m + n, nreal, *base, share, f->name);
    return status;
}

/* A shard's share of f into its state: the plan's measurements, the
 * backward section, the rows graded from files.  SHARE_SAVED when done. */
static int save_shard(const struct ga_format *f, struct ga_measurement *m, size_t n,
                      size_t nreal, const struct ga_domain *domain,
                      const struct ga_domain *real_domain, const struct ga_real_outputs *ro,
                      size_t nro, const struct ga_sweep_options *base, struct ga_report_real *rr,
                      struct ga_report_graded_text *text, struct ga_report_share *share,
                      const struct ga_backward_domains *bw)
{
    size_t none = 0;
    int status = ga_report_save_share(f, m, n, nreal, ga_report_graded_rows(f, ro, nro),
                                      domain, real_domain, base, share);

    if (status == GA_ENGINE_OK)
        status = save_backward_share(f, bw, base->threads, share);
    if (status == GA_ENGINE_OK)
        status = ga_report_grade_outside(f, ro, nro, base, rr, NULL, &none, text, share);
    return status == GA_ENGINE_OK ? SHARE_SAVED : status;
}

/* What the real kernels' rows (results[n...n + *nreal)) need beyond their
 * sweep: their other tensor lengths, rows after theirs where they differ;
 * the models claimed to equal them, checked on the same inputs. */
static int check_real(const struct ga_format *f, struct ga_report_real *rr,
                      const struct ga_domain *real_domain, const struct ga_sweep_options *base,
                      const struct ga_report_share *share, struct ga_result *results, size_t n,
                      size_t *nreal)
{
    size_t rows = n + *nreal;
    int status = ga_report_lengths(f, rr, real_domain, base, share, results, &rows);

    *nreal = rows - n;
    return status == GA_ENGINE_OK
               ? ga_report_proofs(f, rr, real_domain, base->threads, share)
               : status;
}

int ga_report_format(const char *dir, const struct ga_format *f, const char *domain_spec,
                     const char *real_spec, const struct ga_real_outputs *ro, size_t nro,
                     const struct ga_sweep_options *base, const char *how,
                     struct ga_report_domain *measured, struct ga_report_share *share,
                     const struct ga_backward_domains *bw)
{
    /* the rows graded from files: each section against one or two references */
    size_t outside = share->merged && share->format < share->merged->nformats
                         ? share->merged->format[share->format].graded
                         : ga_report_graded_rows(f, ro, nro);
    size_t max = ga_report_plan_max() + ga_report_plan_real_max(), n, nreal;
    struct ga_measurement *m = calloc(max + 1, sizeof *m);
    struct ga_result *results = calloc(max + ga_report_lengths_max() + outside + 1,
                                       sizeof *results);
    struct ga_report_graded_text *text = calloc(outside + 1, sizeof *text);
    struct ga_cast_result *cast = NULL;
    struct ga_backward_section *backward = NULL;
    struct ga_report_real rr;
    struct ga_domain domain, real_domain;
    bool separate = strcmp(domain_spec, real_spec) != 0;
    int status;

    if (!m || !results || !text) {
        free(m);
        free(results);
        free(text);
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
    }
    n = ga_report_plan(f, m);
    nreal = ga_report_plan_real(f, m + n, &rr);
    status = parse_domains(f, domain_spec, real_spec, separate, &domain, &real_domain, share);
    if (status != GA_ENGINE_OK) {
        ga_report_real_close(&rr);
        free(m);
        free(results);
        free(text);
        return status;
    }
    status = sweep_plan(f, m, n, nreal, &domain, &real_domain, separate, base, share);
    if (status == GA_ENGINE_OK && share->save) {
        status = save_shard(f, m, n, nreal, &domain, &real_domain, ro, nro, base, &rr, text,
                            share, bw);
        n = nreal = 0;  /* no page */
    }
    for (size_t i = 0; status == GA_ENGINE_OK && i < n + nreal; i++)
        if (ga_result_from_measurement(&results[i], &m[i], i < n ? &domain : &real_domain,
                                       base->oracle, NULL) != 0)
            status = GA_ENGINE_UNDECIDED;
    if (status == GA_ENGINE_OK && nreal > 0)
        status = check_real(f, &rr, &real_domain, base, share, results, n, &nreal);
    if (status == GA_ENGINE_OK)
        status = measure_cast(f, &cast, share);
    if (status == GA_ENGINE_OK)
        status = measure_backward(f, bw, base->threads, share, &backward);
    /* Measured here, then graded from files: after this, nreal counts both. */
    if (status == GA_ENGINE_OK) {
        size_t rows = n + nreal;
        status = share->merged ? ga_report_take_graded(f, share, &rr, results, &rows)
                               : ga_report_grade_outside(f, ro, nro, base, &rr, results, &rows,
                                                         text, share);
        nreal = rows - n;
    }
    if (status == GA_ENGINE_OK) {
        /* No real library computes a small format: their pages have no
         * such section, and so do not depend on the machine. */
        struct ga_real_section real = { results + n, nreal, rr.machine, rr.not_measured };
        ga_report_real_describe(&rr, f, results + n, nreal);
        struct ga_report_page page = { f, results, n, how,
                                       ga_is_small_format(f) ? NULL : &real, cast, backward };
        status = ga_report_write_page(dir, &page, share);
    }
    if (status == SHARE_SAVED)
        status = GA_ENGINE_OK;
    if (status == GA_ENGINE_OK && n > 0 && measured) {
        measured->known = true;
        measured->count = results[0].region[GA_REGION_ALL].count;
        snprintf(measured->domain, sizeof measured->domain, "%s", results[0].domain);
    }
    for (size_t i = 0; i <= max; i++)
        if (m[i].stats)
            ga_measurement_clear(&m[i]);
    ga_report_real_close(&rr);
    ga_domain_free(&domain);
    if (separate)
        ga_domain_free(&real_domain);
    free(m);
    free(results);
    free(text);
    free(cast);
    if (backward)
        ga_backward_section_free(backward);
    free(backward);
    return status;
}
