/* gelu-acc report: the whole catalogue and the real libraries, one page of
 * tables per format, plus CSV and JSON. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "cli/measure.h"
#include "state/ranks.h"
#include "cli/report_graded.h"
#include "cli/report_share.h"
#include "report/backward_section.h"
#include "report/facts.h"
#include "report/cast_section.h"
#include "report/html.h"
#include "report/pictures.h"
#include "report/plan.h"
#include "report/real_outputs.h"
#include "report/report_file.h"
#include "report/report_marker.h"
#include "report/result.h"
#include "cli/options.h"
#include "io/dir_lock.h"
#include "state/report_partial.h"
#include "state/run.h"
#include "state/shard.h"

/* The float64 report's sample: 10^7 random encodings (random sign, exponent
 * and fraction, seed 1), then 10^7 of [-40, 10] on a fixed stride in value
 * order (about every 925 000th encoding). */
#define GA_REPORT_FLOAT64_DOMAIN "random:10000000:1,range:-40:10:10000000"

static const char help[] =
    "usage: gelu-acc report --out DIR [--formats LIST] [--float32-domain D]\n"
    "                       [--real-float32-domain D] [--float64-domain D]\n"
    "                       [--real-outputs MANIFEST]...\n"
    "                       [--bfloat16-backward-domain D] [--float16-backward-domain D]\n"
    "                       [--float32-backward-domain D] [--no-backward]\n"
    "                       [--oracle fast|mpfr] [--threads N] [--force]\n"
    "       gelu-acc report --shard K/N --partial FILE [--formats LIST]\n"
    "                       [--float32-domain D] [--real-float32-domain D] [--oracle ...]\n"
    "\n"
    "Measures every catalogue implementation of each format (default: bfloat16,\n"
    "float16, float32 and the small formats float8_e4m3fn, float8_e5m2,\n"
    "float6_e2m3, float6_e3m2, float4_e2m1) against exact GELU, and the tanh-form\n"
    "ones also against the tanh formula, and writes DIR/FORMAT.md, .csv, .json\n"
    "and .html, plots in DIR/plots/, DIR/facts.md and .html (gelu-acc facts), and\n"
    "DIR/index.html.  The real libraries that run here (gelu-acc list) are\n"
    "measured the same way in the wide formats: a section of each page, and\n"
    "DIR/FORMAT-real.csv and .json.  Formats of 16 bits or fewer are exhaustive\n"
    "(a small format's page also states its truth's overflow convention);\n"
    "float32 uses --float32-domain (default stride:4096), and for the real\n"
    "libraries --real-float32-domain (default: the same).  --formats all adds\n"
    "float64 to the default list (make report uses it); float64 uses\n"
    "--float64-domain (default\n"
    GA_REPORT_FLOAT64_DOMAIN ": 10^7 random encodings over all binades, then\n"
    "10^7 encodings of [-40, 10] on a fixed stride).  --real-outputs adds\n"
    "the rows of real libraries run elsewhere (make real-onnxruntime writes such\n"
    "a manifest for ONNX Runtime), graded from their outputs files on their own\n"
    "inputs.\n"
    "Each bfloat16, float16 and float32 page ends with a backward section: every\n"
    "backward model (gelu-acc list --backward) against the derivative it\n"
    "approximates, and the tanh forms against exact gelu' too, over the pairs of\n"
    "--bfloat16-backward-domain, --float16-backward-domain (default\n"
    GA_BACKWARD_DOMAIN_16 ") and x of --float32-backward-domain with\n"
    "dy = 1 (default " GA_BACKWARD_DOMAIN_32 "); DIR/FORMAT-backward.csv and .json, and heat\n"
    "maps of the bfloat16 error over (x, dy) in DIR/plots/.  --no-backward leaves\n"
    "the section out.  DIR is created if missing; an existing DIR that gelu-acc did not\n"
    "write is refused unless --force, and so is replacing exhaustive float32\n"
    "tables in DIR "
    "with a sample.\n"
    "--shard K/N --partial FILE measures shard K of N of every measurement and\n"
    "writes its state (statistics and plot data) to FILE instead of pages;\n"
    "'gelu-acc merge --out DIR' of the N files writes what one report writes,\n"
    "byte for byte.  Under mpirun (a gelu-acc built with MPI) the ranks are the\n"
    "shards and rank 0 writes DIR.  The backward sections and the rows of\n"
    "--real-outputs are sharded the same way (each shard measures its share of\n"
    "their pairs or inputs; every shard reads the manifests' files).\n";

/* What each format is measured on: every encoding where there are few
 * enough, else the domain given for its width. */
static const char *format_domain(const struct ga_format *f, const char *f32_domain,
                                 const char *f64_domain)
{
    return !ga_is_enumerable(f) ? f64_domain : f->bits > 16 ? f32_domain : "all";
}

/* --real-outputs manifests, at most this many. */
#define MAX_MANIFESTS 8

struct page {
    const struct ga_format *format;
    const struct ga_result *results;
    size_t count;
    const char *how;
    const struct ga_real_section *real;
    const struct ga_cast_result *cast;  /* float8 pages: GELU fused with a cast */
    const struct ga_backward_section *backward;  /* NULL: no backward section */
};

static int write_md(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    if (ga_write_markdown_page(out, p->format, p->results, p->count, p->how, p->real) != 0)
        return -1;
    if (p->cast && (fputc('\n', out) == EOF || ga_write_cast_markdown(out, p->cast) != 0))
        return -1;
    if (p->backward && (fputc('\n', out) == EOF || ga_write_backward_markdown(out, p->backward) != 0))
        return -1;
    return 0;
}

static int write_backward_csv(FILE *out, const void *ctx)
{
    return ga_write_backward_csv(out, ((const struct page *)ctx)->backward);
}

static int write_backward_json(FILE *out, const void *ctx)
{
    return ga_write_backward_json(out, ((const struct page *)ctx)->backward);
}

/* The input format of the float8 pages' fused-cast section, on every
 * encoding: the one FP8 epilogues most often read. */
#define CAST_INPUT GA_BFLOAT16

/* That section of f's page into *r (allocated), or NULL where f has none. */
static int measure_cast(const struct ga_format *f, struct ga_cast_result **r)
{
    struct ga_domain d;
    char err[256], hex[GA_BITS_TEXT_LEN];
    ga_bits undecided = 0;
    int status;

    *r = NULL;
    if (!ga_cast_output_allowed(f))
        return GA_EXIT_OK;
    if (!(*r = malloc(sizeof **r))
        || ga_domain_parse(&d, "all", ga_format_get(CAST_INPUT), err, sizeof err) != 0) {
        ga_cli_error("report: out of memory");
        return GA_EXIT_INTERNAL;
    }
    status = ga_cast_sweep(&d, f, *r, &undecided);
    ga_domain_free(&d);
    if (status == GA_CAST_UNDECIDED) {
        ga_format_bits(ga_format_get(CAST_INPUT), undecided, hex);
        ga_cli_error("report: the oracle reached its %d-bit cap on input %s (cast into %s)",
                     GA_ZIV_MAX_PRECISION, hex, f->name);
    }
    return status == GA_CAST_OK ? GA_EXIT_OK : GA_EXIT_INTERNAL;
}

/* FORMAT-real.csv and .json: the real libraries' figures alone, so that the
 * models' files do not depend on the machine. */
static int write_real_csv(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return ga_write_csv(out, p->real->r, p->real->n);
}

static int write_real_json(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return ga_write_json(out, p->real->r, p->real->n);
}

static int write_csv(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return ga_write_csv(out, p->results, p->count);
}

static int write_json(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return ga_write_json(out, p->results, p->count);
}

/* Create dir, or accept it when empty, marked, or forced. */
static int prepare_dir(const char *dir, bool force)
{
    char path[4096];
    struct stat st;
    DIR *d;
    struct dirent *e;
    bool empty = true;

    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        ga_cli_error("report: cannot create directory '%s': %s", dir,
                     errno == EEXIST ? "a file of that name exists" : strerror(errno));
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, GA_REPORT_MARKER);
    if (force || stat(path, &st) == 0)
        return 0;
    if ((d = opendir(dir))) {
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                empty = false;
        closedir(d);
    }
    if (empty)
        return 0;
    ga_cli_error("report: '%s' holds files that gelu-acc did not write; choose another "
                 "--out or pass --force to write there", dir);
    return -1;
}

/* A run that would replace tables measured on every input with a sample of
 * them (float32 with a --float32-domain other than all): say so. */
static bool refuses_sample(const char *dir, const char *formats, const char *f32_domain,
                           const char *f64_domain, const struct ga_report_marker *m)
{
    char list[256];

    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        if (ga_report_domain_exhaustive(&m->format[f->id]) && strcmp(domain, "all") != 0) {
            ga_cli_error("report: '%s' holds %s tables measured on every input; "
                         "--float32-domain %s would replace them with a sample: choose "
                         "another --out or pass --force", dir, f->name, domain);
            return true;
        }
    }
    return false;
}

/* report_format with a shard's share (cli/report_share.h): its state is
 * stored and no page is written. */
#define SHARE_SAVED (-1)  /* report_format: the shard's state stored, no page */

/* The exit status of a backward section that failed with err. */
static int backward_failed(const char *err)
{
    ga_cli_error("report: backward: %s", err);
    return strstr(err, "out of memory") || strstr(err, "not decided") ? GA_EXIT_INTERNAL
                                                                      : GA_EXIT_USAGE;
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
        return GA_EXIT_OK;
    if (share->merged && !(merged = share->merged->format[share->format].backward)) {
        ga_cli_error("report: the shards have no backward section of %s", f->name);
        return GA_EXIT_USAGE;
    }
    if (!(*s = malloc(sizeof **s))) {
        ga_cli_error("report: out of memory");
        return GA_EXIT_INTERNAL;
    }
    status = merged ? ga_backward_section_from_partial(*s, f, merged, err, sizeof err)
                    : ga_backward_section_measure(*s, f, domain, threads, err, sizeof err);
    if (status != 0) {
        free(*s);
        *s = NULL;
        return backward_failed(err);
    }
    return GA_EXIT_OK;
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
        return GA_EXIT_OK;
    if (ga_backward_section_measure_share(f, domain, threads, share->shard, share->shards,
                                          &rp->format[rp->nformats - 1].backward, err,
                                          sizeof err) != 0)
        return backward_failed(err);
    return GA_EXIT_OK;
}

/* The models sweep domain_spec; the real libraries real_spec, in the same
 * pass when it is the same domain.  *measured says over what. */
static int report_format(const char *dir, const struct ga_format *f, const char *domain_spec,
                         const char *real_spec, const struct ga_real_outputs *ro, size_t nro,
                         const struct ga_sweep_options *base, const char *how,
                         struct ga_report_domain *measured, struct ga_report_share *share,
                         const struct ga_backward_domains *bw)
{
    /* the rows graded from files: each section against one or two references */
    size_t outside = share->merged && share->format < share->merged->nformats
                         ? share->merged->format[share->format].graded
                         : ga_cli_graded_rows(f, ro, nro);
    size_t max = ga_report_plan_max() + ga_report_plan_real_max(), n, nreal;
    struct ga_measurement *m = calloc(max + 1, sizeof *m);
    struct ga_result *results = calloc(max + outside + 1, sizeof *results);
    struct ga_cli_graded_text *text = calloc(outside + 1, sizeof *text);
    struct ga_cast_result *cast = NULL;
    struct ga_backward_section *backward = NULL;
    struct ga_report_real rr;
    struct ga_domain domain, real_domain;
    bool separate = strcmp(domain_spec, real_spec) != 0;
    struct ga_io_error io;
    char err[512], name[64];
    int status;

    if (!m || !results || !text) {
        free(m);
        free(results);
        free(text);
        ga_cli_error("report: out of memory");
        return GA_EXIT_INTERNAL;
    }
    n = ga_report_plan(f, m);
    nreal = ga_report_plan_real(f, m + n, &rr);
    status = ga_domain_parse(&domain, domain_spec, f, err, sizeof err) != 0 ? -1 : 0;
    if (status == 0 && separate
        && ga_domain_parse(&real_domain, real_spec, f, err, sizeof err) != 0) {
        ga_domain_free(&domain);
        status = -1;
    }
    if (status != 0) {
        ga_cli_error("report: %s", err);
        ga_report_real_close(&rr);
        free(m);
        free(results);
        free(text);
        return GA_EXIT_USAGE;
    }
    if (!separate)
        real_domain = domain;
    if (share->merged) {
        status = ga_cli_report_take_merged(f, m, n + nreal, n, &domain, &real_domain, share);
    } else if (separate) {
        status = ga_cli_report_sweep_share(f, &domain, m, n, *base, share, f->name);
        if (status == GA_EXIT_OK)
            status = ga_cli_report_sweep_share(f, &real_domain, m + n, nreal, *base, share,
                                               f->name);
    } else {
        status = ga_cli_report_sweep_share(f, &domain, m, n + nreal, *base, share, f->name);
    }
    if (status == GA_EXIT_OK && share->save) {
        size_t none = 0;
        status = ga_cli_report_save_share(f, m, n, nreal, ga_cli_graded_rows(f, ro, nro),
                                          &domain, &real_domain, base, share);
        if (status == GA_EXIT_OK)
            status = save_backward_share(f, bw, base->threads, share);
        if (status == GA_EXIT_OK)
            status = ga_cli_grade_outside(f, ro, nro, base, &rr, NULL, &none, text, share);
        n = nreal = 0;  /* no page */
        status = status == GA_EXIT_OK ? SHARE_SAVED : status;
    }
    for (size_t i = 0; status == GA_EXIT_OK && i < n + nreal; i++)
        if (ga_result_from_measurement(&results[i], &m[i], i < n ? &domain : &real_domain,
                                       base->oracle, NULL) != 0)
            status = GA_EXIT_INTERNAL;
    if (status == GA_EXIT_OK)
        status = measure_cast(f, &cast);
    if (status == GA_EXIT_OK)
        status = measure_backward(f, bw, base->threads, share, &backward);
    /* Measured here, then graded from files: after this, nreal counts both. */
    if (status == GA_EXIT_OK) {
        size_t rows = n + nreal;
        status = share->merged ? ga_cli_take_graded(f, share, &rr, results, &rows)
                               : ga_cli_grade_outside(f, ro, nro, base, &rr, results, &rows, text,
                                                      share);
        nreal = rows - n;
    }
    if (status == GA_EXIT_OK) {
        /* No real library computes a small format: their pages have no
         * such section, and so do not depend on the machine. */
        struct ga_real_section real = { results + n, nreal, rr.machine, rr.not_measured };
        struct page page = { f, results, n, how, ga_is_small_format(f) ? NULL : &real, cast,
                             backward };
        size_t nfiles = ga_is_small_format(f) ? 3 : 5;
        static const struct { const char *ext; ga_report_writer writer; } files[] = {
            { "md", write_md }, { "csv", write_csv }, { "json", write_json },
            { "csv", write_real_csv }, { "json", write_real_json },
        };
        for (size_t k = 0; k < nfiles && status == GA_EXIT_OK; k++) {
            snprintf(name, sizeof name, "%s%s.%s", f->name, k >= 3 ? "-real" : "",
                     files[k].ext);
            if (ga_write_report_file(dir, name, true, files[k].writer, &page, &io) != GA_IO_OK) {
                ga_cli_error("report: %s", io.message);
                status = GA_EXIT_USAGE;
            }
        }
        static const struct { const char *ext; ga_report_writer writer; } backward_files[] = {
            { "csv", write_backward_csv }, { "json", write_backward_json },
        };
        for (size_t k = 0; backward && k < 2 && status == GA_EXIT_OK; k++) {
            snprintf(name, sizeof name, "%s-backward.%s", f->name, backward_files[k].ext);
            if (ga_write_report_file(dir, name, true, backward_files[k].writer, &page, &io)
                != GA_IO_OK) {
                ga_cli_error("report: %s", io.message);
                status = GA_EXIT_USAGE;
            }
        }
        /* The plots first: the page shows them (models only). */
        if (status == GA_EXIT_OK
            && (ga_write_pictures(dir, f, results, n, &io) != GA_IO_OK
                || (backward && ga_write_backward_heatmaps(dir, backward, &io) != GA_IO_OK)
                || ga_write_html_page(dir, f, results, n, how, page.real, cast, backward,
                                      &io) != GA_IO_OK)) {
            ga_cli_error("report: %s", io.message);
            status = GA_EXIT_USAGE;
        }
    }
    if (status == SHARE_SAVED)
        status = GA_EXIT_OK;
    if (status == GA_EXIT_OK && n > 0 && measured) {
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

/* --formats: names separated by commas, each known and given once. */
static int check_formats(const char *formats, char *list, size_t size)
{
    const struct ga_format *seen[GA_FORMAT_COUNT];
    size_t n = 0;

    if (strlen(formats) >= size) {
        ga_cli_error("report: --formats is longer than %zu characters", size - 1);
        return -1;
    }
    for (const char *name = formats;; name++) {
        size_t len = strcspn(name, ",");
        const struct ga_format *f;

        snprintf(list, size, "%.*s", (int)len, name);
        if (!(f = ga_cli_format(list)))
            return -1;
        for (size_t i = 0; i < n; i++)
            if (seen[i] == f) {
                ga_cli_error("report: --formats names %s twice", f->name);
                return -1;
            }
        seen[n++] = f;
        name += len;
        if (*name == '\0')
            break;
    }
    return 0;
}

/* The backward domains of the listed formats, checked before anything is
 * measured. */
static int check_backward_domains(const char *formats, const struct ga_backward_domains *bw)
{
    char list[256], err[1024];

    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = ga_backward_domain_for(bw, f);
        struct ga_pairs p;
        if (domain == NULL)
            continue;
        if (ga_pairs_parse(&p, domain, f, ga_encode(f, 1.0), err, sizeof err) != 0) {
            ga_cli_error("report: %s %s: %s", ga_backward_domain_option(f), domain, err);
            return -1;
        }
        ga_pairs_free(&p);
    }
    return 0;
}

/* The --real-outputs manifests, read before anything is measured. */
static int read_manifests(const char *const *paths, size_t n, struct ga_real_outputs *ro)
{
    char err[1024];

    for (size_t k = 0; k < n; k++)
        if (ga_real_outputs_read(paths[k], &ro[k], err, sizeof err) != 0) {
            ga_cli_error("report: --real-outputs %s", err);
            for (size_t q = 0; q < k; q++)
                ga_real_outputs_free(&ro[q]);
            return GA_EXIT_USAGE;
        }
    return GA_EXIT_OK;
}

/* Every format of the list, then the index. */
static int report_all_held(const char *dir, const char *formats, const char *f32_domain,
                      const char *real_f32_domain, const char *f64_domain,
                      const struct ga_real_outputs *ro, size_t nro,
                      const struct ga_sweep_options *so, bool force, struct ga_report_share *share,
                      const struct ga_backward_domains *bw)
{
    struct ga_io_error io;
    struct ga_report_marker measured;
    char list[256], how[GA_DOMAIN_SPEC_LEN + 64];
    int status = GA_EXIT_OK;
    const struct ga_format *written[GA_FORMAT_COUNT];
    size_t nwritten = 0;

    if (ga_report_marker_read(dir, &measured, &io) != GA_IO_OK) {
        if (!force) {
            ga_cli_error("report: %s (pass --force to write there anyway)", io.message);
            return GA_EXIT_USAGE;
        }
        memset(&measured, 0, sizeof measured);
    }
    if (!force && refuses_sample(dir, formats, f32_domain, f64_domain, &measured))
        return GA_EXIT_USAGE;
    /* Forget what this run replaces until it is written. */
    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ","))
        measured.format[ga_format_by_name(name)->id].known = false;
    if (ga_report_marker_write(dir, &measured, &io) != GA_IO_OK) {
        ga_cli_error("report: %s", io.message);
        return GA_EXIT_USAGE;
    }
    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name && status == GA_EXIT_OK; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        bool f32 = f->bits == 32;
        const char *real = f32 && real_f32_domain ? real_f32_domain : domain;
        snprintf(how, sizeof how, "gelu-acc report --formats %s%s%s%s%s", name,
                 f32 ? " --float32-domain " : !ga_is_enumerable(f) ? " --float64-domain " : "",
                 f->bits > 16 ? domain : "",
                 strcmp(real, domain) ? " --real-float32-domain " : "",
                 strcmp(real, domain) ? real : "");
        status = report_format(dir, f, domain, real, ro, nro, so, how, &measured.format[f->id],
                               share, bw);
        share->format++;
        if (status == GA_EXIT_OK && ga_report_marker_write(dir, &measured, &io) != GA_IO_OK) {
            ga_cli_error("report: %s", io.message);
            status = GA_EXIT_USAGE;
        }
        if (status == GA_EXIT_OK && nwritten < GA_FORMAT_COUNT)
            written[nwritten++] = f;
    }
    if (status == GA_EXIT_OK) {  /* facts about GELU, computed here (report/facts.c) */
        struct ga_facts facts;
        if (ga_facts_compute(&facts) != 0) {
            ga_cli_error("report: a fact about GELU could not be proved");
            status = GA_EXIT_INTERNAL;
        } else if (ga_write_facts_pages(dir, &facts, &io) != GA_IO_OK) {
            ga_cli_error("report: %s", io.message);
            status = GA_EXIT_USAGE;
        }
    }
    /* The index last: it links the pages written (and any already there). */
    if (status == GA_EXIT_OK && ga_write_html_index(dir, written, nwritten, &measured, &io) != GA_IO_OK) {
        ga_cli_error("report: %s", io.message);
        status = GA_EXIT_USAGE;
    }
    return status;
}

/* A shard of every format of the list into share->save (no page). */
static int report_shard(const char *formats, const char *f32_domain,
                        const char *real_f32_domain, const char *f64_domain,
                        const struct ga_real_outputs *ro, size_t nro,
                        const struct ga_sweep_options *so, struct ga_report_share *share,
                        const struct ga_backward_domains *bw)
{
    char list[256];
    int status = GA_EXIT_OK;

    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name && status == GA_EXIT_OK; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        const char *real = f->bits == 32 && real_f32_domain ? real_f32_domain : domain;
        status = report_format(NULL, f, domain, real, ro, nro, so, "", NULL, share, bw);
    }
    return status;
}

/* report_all_held with dir held for this run (io/dir_lock.h): a second
 * report into it at the same time is refused, not mixed with this one. */
static int report_all(const char *dir, const char *formats, const char *f32_domain,
                      const char *real_f32_domain, const char *f64_domain,
                      const struct ga_real_outputs *ro, size_t nro,
                      const struct ga_sweep_options *so, bool force, struct ga_report_share *share,
                      const struct ga_backward_domains *bw)
{
    struct ga_io_error io;
    int lock, status;

    /* held before its files are looked at: another run's half-written
     * files are not taken for a stranger's */
    mkdir(dir, 0777);  /* prepare_dir says why, if it could not be made */
    if (ga_dir_lock(dir, &lock, &io) == GA_IO_EXISTS) {
        ga_cli_error("report: %s", io.message);
        return GA_EXIT_USAGE;
    }
    if (prepare_dir(dir, force) != 0) {  /* not a directory, or a stranger's */
        ga_dir_unlock(lock);
        return GA_EXIT_USAGE;
    }
    if (lock < 0) {
        ga_cli_error("report: %s", io.message);
        return GA_EXIT_USAGE;
    }
    status = report_all_held(dir, formats, f32_domain, real_f32_domain, f64_domain, ro, nro, so,
                             force, share, bw);
    ga_dir_unlock(lock);
    return status;
}

/* Merge the shards parts[0..n) of one report (named names[i], or rank i)
 * into *out; a message names the shard that does not fit. */
/* The pages of merged shards, as one 'report' run writes them. */
static int write_merged(struct ga_report_partial *all, const char *dir, bool force)
{
    struct ga_sweep_options so = { .oracle = all->oracle };
    struct ga_report_share share = { .shard = 1, .shards = 1, .merged = all };
    const char *const *domain = (const char *const[]){ all->backward_domain[0],
                                                        all->backward_domain[1],
                                                        all->backward_domain[2] };
    struct ga_backward_domains bw = { .none = all->no_backward,
                                      .bfloat16 = domain[0][0] ? domain[0] : NULL,
                                      .float16 = domain[1][0] ? domain[1] : NULL,
                                      .float32 = domain[2][0] ? domain[2] : NULL };

    return report_all(dir, all->formats, all->float32_domain,
                      all->real_float32_domain[0] ? all->real_float32_domain : NULL,
                      all->float64_domain, NULL, 0,
                      &so, force, &share, &bw);
}

int ga_cli_report_merge(char **names, size_t n, const char *dir, bool force)
{
    struct ga_report_partial *all;
    char why[GA_RUN_WHY];
    int status;

    if (ga_run_merge_files(&ga_report_run_kind, names, n, (void **)&all, why, sizeof why) != 0) {
        ga_cli_error("merge: %s", why);
        status = strcmp(why, "out of memory") == 0 ? GA_EXIT_INTERNAL : GA_EXIT_USAGE;
    } else {
        status = write_merged(all, dir, force);
    }
    ga_report_run_kind.free(all);
    return status;
}

/* --shard K/N --partial FILE, or this rank's shard under mpirun. */
static int report_shards(const char *formats, const char *f32_domain,
                         const char *real_f32_domain, const char *f64_domain,
                         const struct ga_real_outputs *ro, size_t nro,
                         const struct ga_sweep_options *so,
                         struct ga_report_share *share, const char *partial, const char *dir,
                         bool force, const struct ga_backward_domains *bw)
{
    struct ga_report_partial *mine = calloc(1, sizeof *mine);
    char why[GA_RUN_WHY];
    int status;

    if (!mine) {
        ga_cli_error("report: out of memory");
        return GA_EXIT_INTERNAL;
    }
    mine->oracle = so->oracle;
    if (ga_ranks_count() > 1) {
        share->shard = ga_ranks_rank() + 1;
        share->shards = ga_ranks_count();
    }
    snprintf(mine->program, sizeof mine->program, "%s %s", PACKAGE_NAME, PACKAGE_VERSION);
    snprintf(mine->formats, sizeof mine->formats, "%s", formats);
    snprintf(mine->float32_domain, sizeof mine->float32_domain, "%s", f32_domain);
    snprintf(mine->real_float32_domain, sizeof mine->real_float32_domain, "%s",
             real_f32_domain ? real_f32_domain : "");
    snprintf(mine->float64_domain, sizeof mine->float64_domain, "%s", f64_domain);
    mine->no_backward = bw->none;
    snprintf(mine->backward_domain[0], sizeof mine->backward_domain[0], "%s", bw->bfloat16 ? bw->bfloat16 : "");
    snprintf(mine->backward_domain[1], sizeof mine->backward_domain[1], "%s", bw->float16 ? bw->float16 : "");
    snprintf(mine->backward_domain[2], sizeof mine->backward_domain[2], "%s", bw->float32 ? bw->float32 : "");
    mine->shard = share->shard;
    mine->shards = share->shards;
    share->save = mine;
    status = report_shard(formats, f32_domain, real_f32_domain, f64_domain, ro, nro, so, share,
                          bw);
    if (status == GA_EXIT_OK && ga_ranks_count() > 1) {
        if (ga_run_merge_ranks(&ga_report_run_kind, (void **)&mine, why, sizeof why) != 0) {
            ga_cli_error("report: %s", why);
            status = GA_EXIT_INTERNAL;
        } else if (ga_ranks_rank() == 0) {
            status = write_merged(mine, dir, force);
        }
    } else if (status == GA_EXIT_OK
               && ga_run_save(&ga_report_run_kind, partial, mine, why, sizeof why) != 0) {
        ga_cli_error("report: partial: %s", why);
        status = GA_EXIT_USAGE;
    }
    ga_report_run_kind.free(mine);
    return status;
}

int ga_cmd_report(int argc, char **argv)
{
    static const struct option options[] = {
        { "out", required_argument, NULL, 'o' },
        { "formats", required_argument, NULL, 'f' },
        { "float32-domain", required_argument, NULL, 'd' },
        { "real-float32-domain", required_argument, NULL, 'R' },
        { "float64-domain", required_argument, NULL, 'D' },
        { "real-outputs", required_argument, NULL, 'M' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "force", no_argument, NULL, 'F' },
        { "shard", required_argument, NULL, 'S' },
        { "partial", required_argument, NULL, 'P' },
        { "bfloat16-backward-domain", required_argument, NULL, 'B' },
        { "float16-backward-domain", required_argument, NULL, 'H' },
        { "float32-backward-domain", required_argument, NULL, 'W' },
        { "no-backward", no_argument, NULL, 'N' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    struct ga_report_share share = { .shard = 1, .shards = 1 };
    struct ga_backward_domains bw = { 0 };
    const char *partial = NULL;
    const char *dir = NULL, *formats = GA_REPORT_FORMATS, *f32_domain = "stride:4096",
               *real_f32_domain = NULL, *f64_domain = GA_REPORT_FLOAT64_DOMAIN;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST };
    bool force = false;
    char list[256];
    int opt, status;
    const char *manifests[MAX_MANIFESTS];
    struct ga_real_outputs ro[MAX_MANIFESTS];
    size_t nro = 0;

    struct ga_cli_seen seen = { 0 };
    optind = 1;
    while ((opt = ga_cli_getopt("report", argc, argv, "", options, &seen)) != -1) {
        switch (opt) {
        case 'o': dir = optarg; break;
        case 'f': formats = optarg; break;
        case 'd': f32_domain = optarg; break;
        case 'R': real_f32_domain = optarg; break;
        case 'D': f64_domain = optarg; break;
        case 'M':
            if (nro == MAX_MANIFESTS) {
                ga_cli_error("report: more than %d --real-outputs", MAX_MANIFESTS);
                return GA_EXIT_USAGE;
            }
            manifests[nro++] = optarg;
            break;
        case 'F': force = true; break;
        case 'O':
            if (ga_cli_oracle(optarg, &so.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("report", optarg, &so.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'S':
            if (ga_shard_parse(optarg, &share.shard, &share.shards) != 0) {
                ga_cli_error("report: --shard takes K/N with 1 <= K <= N <= %u, not '%s'",
                             GA_SHARD_MAX, optarg);
                return GA_EXIT_USAGE;
            }
            break;
        case 'P': partial = optarg; break;
        case 'B': bw.bfloat16 = optarg; break;
        case 'H': bw.float16 = optarg; break;
        case 'W': bw.float32 = optarg; break;
        case 'N': bw.none = true; break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("report: see 'gelu-acc report --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        ga_cli_error("report: unexpected argument '%s'", argv[optind]);
        return GA_EXIT_USAGE;
    }
    if (!dir == !partial) {
        ga_cli_error("report: give --out DIR, or --partial FILE for a shard");
        return GA_EXIT_USAGE;
    }
    if (ga_cli_writable("report", "partial", partial) != 0)
        return GA_EXIT_USAGE;
    if (share.shards > 1 && !partial) {
        ga_cli_error("report: --shard needs --partial FILE (then 'gelu-acc merge --out DIR')");
        return GA_EXIT_USAGE;
    }
    if (ga_ranks_count() > 1 && (partial || share.shards > 1)) {
        ga_cli_error("report: under mpirun the ranks are the shards: --shard and --partial "
                     "cannot be used");
        return GA_EXIT_USAGE;
    }
    if (strcmp(formats, "all") == 0)
        formats = GA_REPORT_FORMATS_ALL;
    if (check_formats(formats, list, sizeof list) != 0 || check_backward_domains(formats, &bw) != 0)
        return GA_EXIT_USAGE;
    status = read_manifests(manifests, nro, ro);
    if (status == GA_EXIT_OK && (partial || ga_ranks_count() > 1))
        status = report_shards(formats, f32_domain, real_f32_domain, f64_domain, ro, nro, &so,
                               &share, partial, dir, force, &bw);
    else if (status == GA_EXIT_OK)
        status = report_all(dir, formats, f32_domain, real_f32_domain, f64_domain, ro, nro, &so,
                            force, &share, &bw);
    for (size_t k = 0; k < nro; k++)
        ga_real_outputs_free(&ro[k]);
    return status;
}
