/* The result of an oracle audit (audit/audit.h) as text: a summary for the
 * terminal and a Markdown page to publish (reports/audit-*.md). */
#ifndef GA_AUDIT_PAGE_H
#define GA_AUDIT_PAGE_H

#include <stdio.h>

#include "audit/audit.h"

/* The summary: what was audited, the counts, the disagreements listed; the
 * CPU time on a line of its own ("cpu: ..."), the one line that changes
 * from run to run.  Returns 0, or -1 on a write error. */
int ga_write_audit_text(FILE *out, const struct ga_audit *a);

/* The page; `command` is the command line that reproduces it. */
int ga_write_audit_markdown(FILE *out, const struct ga_audit *a, const char *command);

/* The first line of every page, by which a rerun knows it may replace it. */
#define GA_AUDIT_PAGE_TITLE "# Oracle audit: "

#endif
