/* One format's page of a report (gelu-acc report): FORMAT.md, .csv, .json
 * and .html with its plots, and where the page has them FORMAT-real.csv
 * and .json (the real libraries' figures) and FORMAT-backward.csv and .json
 * with the backward heat maps. */
#ifndef GA_ENGINE_REPORT_PAGE_H
#define GA_ENGINE_REPORT_PAGE_H

#include <stddef.h>

#include "engine/report_share.h"
#include "formats/format.h"
#include "measure/cast_sweep.h"
#include "report/backward_section.h"
#include "report/result.h"

struct ga_report_page {
    const struct ga_format *format;
    const struct ga_result *results;
    size_t count;
    const char *how;
    const struct ga_real_section *real;
    const struct ga_cast_result *cast;  /* float8 pages: GELU fused with a cast */
    const struct ga_backward_section *backward;  /* NULL: no backward section */
};

/* Every file of page p into dir, each written atomically, the plots before
 * the HTML page that shows them.  A GA_ENGINE_* status, said in share->why. */
int ga_report_write_page(const char *dir, const struct ga_report_page *p,
                         const struct ga_report_share *share);

#endif
