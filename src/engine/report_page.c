/* One format's page of a report (engine/report_page.h). */
#include "engine/report_page.h"

#include <stdio.h>

#include "report/cast_section.h"
#include "report/html.h"
#include "report/picture_set.h"
#include "report/report_file.h"

static int write_md(FILE *out, const void *ctx)
{
    const struct ga_report_page *p = ctx;
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
    return ga_write_backward_csv(out, ((const struct ga_report_page *)ctx)->backward);
}

static int write_backward_json(FILE *out, const void *ctx)
{
    return ga_write_backward_json(out, ((const struct ga_report_page *)ctx)->backward);
}

static int write_backward_real_csv(FILE *out, const void *ctx)
{
    return ga_write_backward_real_csv(out, ((const struct ga_report_page *)ctx)->backward);
}

static int write_backward_real_json(FILE *out, const void *ctx)
{
    return ga_write_backward_real_json(out, ((const struct ga_report_page *)ctx)->backward);
}

/* FORMAT-real.csv and .json: the real libraries' figures alone, so that the
 * models' files do not depend on the machine. */
static int write_real_csv(FILE *out, const void *ctx)
{
    const struct ga_report_page *p = ctx;
    return ga_write_csv(out, p->real->r, p->real->n);
}

static int write_real_json(FILE *out, const void *ctx)
{
    const struct ga_report_page *p = ctx;
    return ga_write_json(out, p->real->r, p->real->n);
}

static int write_csv(FILE *out, const void *ctx)
{
    const struct ga_report_page *p = ctx;
    return ga_write_csv(out, p->results, p->count);
}

static int write_json(FILE *out, const void *ctx)
{
    const struct ga_report_page *p = ctx;
    return ga_write_json(out, p->results, p->count);
}

int ga_report_write_page(const char *dir, const struct ga_report_page *p,
                         const struct ga_report_share *share)
{
    const struct ga_format *f = p->format;
    size_t nfiles = p->real ? 5 : 3;  /* no real section: no FORMAT-real files */
    static const struct { const char *ext; ga_report_writer writer; } files[] = {
        { "md", write_md }, { "csv", write_csv }, { "json", write_json },
        { "csv", write_real_csv }, { "json", write_real_json },
    };
    static const struct { const char *ext; ga_report_writer writer; } backward_files[] = {
        { "csv", write_backward_csv }, { "json", write_backward_json },
        { "csv", write_backward_real_csv }, { "json", write_backward_real_json },
    };
    struct ga_io_error io;
    char name[64];
    int status = GA_ENGINE_OK;

    for (size_t k = 0; k < nfiles && status == GA_ENGINE_OK; k++) {
        snprintf(name, sizeof name, "%s%s.%s", f->name, k >= 3 ? "-real" : "",
                 files[k].ext);
        if (ga_write_report_file(dir, name, true, files[k].writer, p, &io) != GA_IO_OK) {
            ga_report_say(share, "report: %s", io.message);
            status = GA_ENGINE_BAD_INPUT;
        }
    }
    for (size_t k = 0; p->backward && k < 4 && status == GA_ENGINE_OK; k++) {
        snprintf(name, sizeof name, "%s-backward%s.%s", f->name, k >= 2 ? "-real" : "",
                 backward_files[k].ext);
        if (ga_write_report_file(dir, name, true, backward_files[k].writer, p, &io)
            != GA_IO_OK) {
            ga_report_say(share, "report: %s", io.message);
            status = GA_ENGINE_BAD_INPUT;
        }
    }
    /* The plots first: the page shows them (models only). */
    if (status == GA_ENGINE_OK
        && (ga_write_pictures(dir, f, p->results, p->count, &io) != GA_IO_OK
            || (p->backward && ga_write_backward_heatmaps(dir, p->backward, &io) != GA_IO_OK)
            || ga_write_html_page(dir, f, p->results, p->count, p->how, p->real, p->cast,
                                  p->backward, &io) != GA_IO_OK)) {
        ga_report_say(share, "report: %s", io.message);
        status = GA_ENGINE_BAD_INPUT;
    }
    return status;
}
