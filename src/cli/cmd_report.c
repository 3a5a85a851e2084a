/* gelu-acc report: the whole catalogue, one page of tables per format, plus
 * CSV and JSON. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/measure.h"
#include "report/html.h"
#include "report/pictures.h"
#include "report/plan.h"
#include "report/report_file.h"
#include "report/result.h"

static const char help[] =
    "usage: gelu-acc report --out DIR [--formats LIST] [--float32-domain D]\n"
    "                       [--oracle fast|mpfr] [--threads N] [--force]\n"
    "\n"
    "Measures every catalogue implementation of each format (default:\n"
    "bfloat16,float16,float32) against exact GELU, and the tanh-form ones also\n"
    "against the tanh formula, and writes DIR/FORMAT.md, .csv, .json and .html,\n"
    "plots in DIR/plots/, and DIR/index.html.  16-bit formats are exhaustive; float32 uses\n"
    "--float32-domain (default stride:4096).  DIR is created if missing; an\n"
    "existing DIR that gelu-acc did not write is refused unless --force.\n";

/* Marks a directory as written by 'gelu-acc report'. */
static const char marker[] = ".gelu-acc-report";

struct page {
    const struct ga_format *format;
    const struct ga_result *results;
    size_t count;
    const char *how;
};

static int write_md(FILE *out, const void *ctx)
{
    const struct page *p = ctx;
    return ga_write_markdown(out, p->format, p->results, p->count, p->how);
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

static int write_marker(FILE *out, const void *ctx)
{
    (void)ctx;
    return fputs("This directory is written by 'gelu-acc report'.\n", out) < 0 ? -1 : 0;
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
    snprintf(path, sizeof path, "%s/%s", dir, marker);
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

static int report_format(const char *dir, const struct ga_format *f, const char *domain_spec,
                         const struct ga_sweep_options *base, const char *how)
{
    size_t max = ga_report_plan_max(), n;
    struct ga_measurement *m = calloc(max + 1, sizeof *m);
    struct ga_result *results = calloc(max + 1, sizeof *results);
    struct ga_domain domain;
    struct ga_io_error io;
    char err[512], name[64];
    int status;

    if (!m || !results) {
        free(m);
        free(results);
        ga_cli_error("report: out of memory");
        return GA_EXIT_INTERNAL;
    }
    n = ga_report_plan(f, m);
    if (ga_domain_parse(&domain, domain_spec, f, err, sizeof err) != 0) {
        ga_cli_error("report: %s", err);
        free(m);
        free(results);
        return GA_EXIT_USAGE;
    }
    status = ga_cli_sweep("report", f, &domain, m, n, *base, f->name);
    for (size_t i = 0; status == GA_EXIT_OK && i < n; i++)
        if (ga_result_from_measurement(&results[i], &m[i], &domain, base->oracle, NULL) != 0)
            status = GA_EXIT_INTERNAL;
    if (status == GA_EXIT_OK) {
        struct page page = { f, results, n, how };
        static const struct { const char *ext; ga_report_writer writer; } files[] = {
            { "md", write_md }, { "csv", write_csv }, { "json", write_json },
        };
        for (size_t k = 0; k < sizeof files / sizeof files[0] && status == GA_EXIT_OK; k++) {
            snprintf(name, sizeof name, "%s.%s", f->name, files[k].ext);
            if (ga_write_report_file(dir, name, true, files[k].writer, &page, &io) != GA_IO_OK) {
                ga_cli_error("report: %s", io.message);
                status = GA_EXIT_USAGE;
            }
        }
        /* The plots first: the page shows them. */
        if (status == GA_EXIT_OK
            && (ga_write_pictures(dir, f, results, n, &io) != GA_IO_OK
                || ga_write_html_page(dir, f, results, n, how, &io) != GA_IO_OK)) {
            ga_cli_error("report: %s", io.message);
            status = GA_EXIT_USAGE;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (m[i].stats)
            ga_measurement_clear(&m[i]);
    ga_domain_free(&domain);
    free(m);
    free(results);
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

int ga_cmd_report(int argc, char **argv)
{
    static const struct option options[] = {
        { "out", required_argument, NULL, 'o' },
        { "formats", required_argument, NULL, 'f' },
        { "float32-domain", required_argument, NULL, 'd' },
        { "oracle", required_argument, NULL, 'O' },
        { "threads", required_argument, NULL, 't' },
        { "force", no_argument, NULL, 'F' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *dir = NULL, *formats = "bfloat16,float16,float32", *f32_domain = "stride:4096";
    struct ga_sweep_options so = { GA_ORACLE_FAST, 0, NULL, NULL };
    struct ga_io_error io;
    bool force = false;
    char list[256], how[GA_DOMAIN_SPEC_LEN + 64];
    int opt, status = GA_EXIT_OK;
    const struct ga_format *written[GA_FORMAT_COUNT];
    size_t nwritten = 0;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (opt) {
        case 'o': dir = optarg; break;
        case 'f': formats = optarg; break;
        case 'd': f32_domain = optarg; break;
        case 'F': force = true; break;
        case 'O':
            if (ga_cli_oracle(optarg, &so.oracle) != 0)
                return GA_EXIT_USAGE;
            break;
        case 't':
            if (ga_cli_threads("report", optarg, &so.threads) != 0)
                return GA_EXIT_USAGE;
            break;
        case 'h':
            fputs(help, stdout);
            return GA_EXIT_OK;
        default:
            ga_cli_error("report: see 'gelu-acc report --help'");
            return GA_EXIT_USAGE;
        }
    }
    if (!dir || optind < argc) {
        ga_cli_error(dir ? "report: unexpected argument '%s'" : "report: --out DIR is required%s",
                     dir ? argv[optind] : "");
        return GA_EXIT_USAGE;
    }
    if (check_formats(formats, list, sizeof list) != 0)
        return GA_EXIT_USAGE;
    if (prepare_dir(dir, force) != 0)
        return GA_EXIT_USAGE;
    if (ga_write_report_file(dir, marker, true, write_marker, NULL, &io) != GA_IO_OK) {
        ga_cli_error("report: %s", io.message);
        return GA_EXIT_USAGE;
    }
    snprintf(list, sizeof list, "%s", formats);
    for (char *name = strtok(list, ","); name && status == GA_EXIT_OK; name = strtok(NULL, ",")) {
        const struct ga_format *f = ga_format_by_name(name);
        const char *domain = f->bits > 16 ? f32_domain : "all";
        snprintf(how, sizeof how, "gelu-acc report --formats %s%s%s", name,
                 f->bits > 16 ? " --float32-domain " : "", f->bits > 16 ? f32_domain : "");
        status = report_format(dir, f, domain, &so, how);
        if (status == GA_EXIT_OK && nwritten < GA_FORMAT_COUNT)
            written[nwritten++] = f;
    }
    /* The index last: it links the pages written (and any already there). */
    if (status == GA_EXIT_OK && ga_write_html_index(dir, written, nwritten, &io) != GA_IO_OK) {
        ga_cli_error("report: %s", io.message);
        status = GA_EXIT_USAGE;
    }
    return status;
}
