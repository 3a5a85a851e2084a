/* gelu-acc report (run_report.h): the directory prepared, each format
 * measured and its page written (engine/report_format.h), the facts and the
 * index; or a shard's state saved, the ranks of mpirun merged; or the
 * shards merged into the pages one run writes. */
#include "engine/run_report.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "engine/report_format.h"
#include "io/dir_lock.h"
#include "report/facts.h"
#include "report/html.h"
#include "report/report_marker.h"
#include "state/ranks.h"
#include "state/report_partial.h"
#include "state/run.h"

/* What each format is measured on: every encoding where there are few
 * enough, else the domain given for its width. */
static const char *format_domain(const struct ga_format *f, const char *f32_domain,
                                 const char *f64_domain)
{
    return !ga_is_enumerable(f) ? f64_domain : f->bits > 16 ? f32_domain : "all";
}

/* Create dir, or accept it when empty, marked, or forced. */
static int prepare_dir(const char *dir, bool force, const struct ga_report_share *share)
{
    char path[4096];
    struct stat st;
    DIR *d;
    struct dirent *e;
    bool empty = true;

    if (mkdir(dir, 0777) == 0)
        return 0;
    if (errno != EEXIST || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        ga_report_say(share, "report: cannot create directory '%s': %s", dir,
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
    ga_report_say(share, "report: '%s' holds files that gelu-acc did not write; choose another "
                  "--out or pass --force to write there", dir);
    return -1;
}

/* A run that would replace tables measured on every input with a sample of
 * them (float32 with a --float32-domain other than all): say so. */
static bool refuses_sample(const char *dir, const char *formats, const char *f32_domain,
                           const char *f64_domain, const struct ga_report_marker *m,
                           const struct ga_report_share *share)
{
    char list[256];

    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        if (ga_report_domain_exhaustive(&m->format[f->id]) && strcmp(domain, "all") != 0) {
            ga_report_say(share, "report: '%s' holds %s tables measured on every input; "
                          "--float32-domain %s would replace them with a sample: choose "
                          "another --out or pass --force", dir, f->name, domain);
            return true;
        }
    }
    return false;
}


/* ga_report_format, and what it cost told (share->cost). */
static int measured_format(const char *dir, const struct ga_format *f, const char *domain,
                           const char *real, const struct ga_real_outputs *ro, size_t nro,
                           const struct ga_sweep_options *so, const char *how,
                           struct ga_report_domain *measured, struct ga_report_share *share,
                           const struct ga_backward_domains *bw)
{
    struct ga_report_cost mark = ga_report_cost_mark(), spent;
    int status = ga_report_format(dir, f, domain, real, ro, nro, so, how, measured, share, bw);

    if (status == GA_ENGINE_OK && share->cost != NULL) {
        spent = ga_report_cost_since(&mark);
        share->cost(f, &spent, share->save != NULL);
    }
    return status;
}
/* Every format of the list, then the index, in a directory prepared and
 * held (report_all). */
static int report_all_held(const char *dir, const char *formats, const char *f32_domain,
                           const char *real_f32_domain, const char *f64_domain,
                           const struct ga_real_outputs *ro, size_t nro,
                           const struct ga_sweep_options *so, bool force,
                           struct ga_report_share *share, const struct ga_backward_domains *bw)
{
    struct ga_io_error io;
    struct ga_report_marker measured;
    char list[256], how[GA_DOMAIN_SPEC_LEN + 64];
    int status = GA_ENGINE_OK;
    const struct ga_format *written[GA_FORMAT_COUNT];
    size_t nwritten = 0;

    if (ga_report_marker_read(dir, &measured, &io) != GA_IO_OK) {
        if (!force) {
            ga_report_say(share, "report: %s (pass --force to write there anyway)", io.message);
            return GA_ENGINE_BAD_INPUT;
        }
        memset(&measured, 0, sizeof measured);
    }
    if (!force && refuses_sample(dir, formats, f32_domain, f64_domain, &measured, share))
        return GA_ENGINE_BAD_INPUT;
    /* Forget what this run replaces until it is written. */
    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name; name = strtok(NULL, ","))
        measured.format[ga_format_by_name(name)->id].known = false;
    if (ga_report_marker_write(dir, &measured, &io) != GA_IO_OK) {
        ga_report_say(share, "report: %s", io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name && status == GA_ENGINE_OK; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        bool f32 = f->bits == 32;
        const char *real = f32 && real_f32_domain ? real_f32_domain : domain;
        snprintf(how, sizeof how, "gelu-acc report --formats %s%s%s%s%s", name,
                 f32 ? " --float32-domain " : !ga_is_enumerable(f) ? " --float64-domain " : "",
                 f->bits > 16 ? domain : "",
                 strcmp(real, domain) ? " --real-float32-domain " : "",
                 strcmp(real, domain) ? real : "");
        status = measured_format(dir, f, domain, real, ro, nro, so, how, &measured.format[f->id],
                                 share, bw);
        share->format++;
        if (status == GA_ENGINE_OK && ga_report_marker_write(dir, &measured, &io) != GA_IO_OK) {
            ga_report_say(share, "report: %s", io.message);
            status = GA_ENGINE_BAD_INPUT;
        }
        if (status == GA_ENGINE_OK && nwritten < GA_FORMAT_COUNT)
            written[nwritten++] = f;
    }
    if (status == GA_ENGINE_OK) {  /* facts about GELU, computed here (report/facts.c) */
        struct ga_facts facts;
        if (ga_facts_compute(&facts) != 0) {
            ga_report_say(share, "report: a fact about GELU could not be proved");
            status = GA_ENGINE_UNDECIDED;
        } else if (ga_write_facts_pages(dir, &facts, &io) != GA_IO_OK) {
            ga_report_say(share, "report: %s", io.message);
            status = GA_ENGINE_BAD_INPUT;
        }
    }
    /* The index last: it links the pages written (and any already there). */
    if (status == GA_ENGINE_OK && ga_write_html_index(dir, written, nwritten, &measured, &io) != GA_IO_OK) {
        ga_report_say(share, "report: %s", io.message);
        status = GA_ENGINE_BAD_INPUT;
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
        ga_report_say(share, "report: %s", io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    if (prepare_dir(dir, force, share) != 0) {  /* not a directory, or a stranger's */
        ga_dir_unlock(lock);
        return GA_ENGINE_BAD_INPUT;
    }
    if (lock < 0) {
        ga_report_say(share, "report: %s", io.message);
        return GA_ENGINE_BAD_INPUT;
    }
    status = report_all_held(dir, formats, f32_domain, real_f32_domain, f64_domain, ro, nro, so,
                             force, share, bw);
    ga_dir_unlock(lock);
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
    int status = GA_ENGINE_OK;

    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name && status == GA_ENGINE_OK; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = format_domain(f, f32_domain, f64_domain);
        const char *real = f->bits == 32 && real_f32_domain ? real_f32_domain : domain;
        status = measured_format(NULL, f, domain, real, ro, nro, so, "", NULL, share, bw);
    }
    return status;
}

/* The pages of merged shards, as one 'report' run writes them. */
static int write_merged(struct ga_report_partial *all, const char *dir, bool force, char *why,
                        size_t len)
{
    struct ga_sweep_options so = { .oracle = all->oracle };
    struct ga_report_share share = { .shard = 1, .shards = 1, .merged = all, .why = why,
                                     .why_len = len };
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

int ga_run_report_merge(char **names, size_t n, const char *dir, bool force, char *why,
                        size_t len)
{
    struct ga_report_partial *all;
    char what[GA_RUN_WHY];
    int status;

    why[0] = '\0';
    if (ga_run_merge_files(&ga_report_run_kind, names, n, (void **)&all, what, sizeof what) != 0) {
        snprintf(why, len, "merge: %s", what);
        status = strcmp(what, "out of memory") == 0 ? GA_ENGINE_UNDECIDED : GA_ENGINE_BAD_INPUT;
    } else {
        status = write_merged(all, dir, force, why, len);
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
    char what[GA_RUN_WHY];
    int status;

    if (!mine) {
        ga_report_say(share, "report: out of memory");
        return GA_ENGINE_UNDECIDED;
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
    if (status == GA_ENGINE_OK && ga_ranks_count() > 1) {
        if (ga_run_merge_ranks(&ga_report_run_kind, (void **)&mine, what, sizeof what) != 0) {
            ga_report_say(share, "report: %s", what);
            status = GA_ENGINE_UNDECIDED;
        } else if (ga_ranks_rank() == 0) {
            status = write_merged(mine, dir, force, share->why, share->why_len);
        }
    } else if (status == GA_ENGINE_OK
               && ga_run_save(&ga_report_run_kind, partial, mine, what, sizeof what) != 0) {
        ga_report_say(share, "report: partial: %s", what);
        status = GA_ENGINE_BAD_INPUT;
    }
    ga_report_run_kind.free(mine);
    return status;
}

int ga_run_report(const struct ga_report_job *job, char *why, size_t len)
{
    struct ga_report_share share = { .shard = job->shard, .shards = job->shards,
                                     .progress = job->progress, .cost = job->cost, .why = why,
                                     .why_len = len };

    why[0] = '\0';
    if (job->partial || ga_ranks_count() > 1)
        return report_shards(job->formats, job->float32_domain, job->real_float32_domain,
                             job->float64_domain, job->outputs, job->noutputs, &job->options,
                             &share, job->partial, job->dir, job->force, &job->backward);
    return report_all(job->dir, job->formats, job->float32_domain, job->real_float32_domain,
                      job->float64_domain, job->outputs, job->noutputs, &job->options,
                      job->force, &share, &job->backward);
}

/* --formats: names separated by commas, each known and given once. */
static int check_formats(const char *formats, char *why, size_t len)
{
    const struct ga_format *seen[GA_FORMAT_COUNT];
    char name[64];
    size_t n = 0;

    for (const char *at = formats;; at++) {
        size_t span = strcspn(at, ",");
        const struct ga_format *f;

        snprintf(name, sizeof name, "%.*s", (int)span, at);
        if (span >= sizeof name || !(f = ga_format_by_name(name))) {
            snprintf(why, len, "unknown format '%.*s' (known: %s)", (int)span, at,
                     ga_format_names());
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            if (seen[i] == f) {
                snprintf(why, len, "report: --formats names %s twice", f->name);
                return -1;
            }
        seen[n++] = f;
        at += span;
        if (*at == '\0')
            break;
    }
    return 0;
}

/* The backward domains of the listed formats. */
static int check_backward_domains(const char *formats, const struct ga_backward_domains *bw,
                                  char *why, size_t len)
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
            snprintf(why, len, "report: %s %s: %s", ga_backward_domain_option(f), domain, err);
            return -1;
        }
        ga_pairs_free(&p);
    }
    return 0;
}

int ga_report_check_formats(const struct ga_report_job *job, char *why, size_t len)
{
    if (strlen(job->formats) >= 256) {
        snprintf(why, len, "report: --formats is longer than 255 characters");
        return -1;
    }
    return check_formats(job->formats, why, len) != 0
           || check_backward_domains(job->formats, &job->backward, why, len) != 0 ? -1 : 0;
}
