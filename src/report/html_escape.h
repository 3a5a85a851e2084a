/* Text inside an HTML page, escaped. */
#ifndef GA_HTML_ESCAPE_H
#define GA_HTML_ESCAPE_H

#include <stdio.h>

/* Writes s with & < > " ' as character references and control characters
 * other than tab and newline as '?'.  Returns 0, or -1 on a write error. */
int ga_html_escape(FILE *out, const char *s);

#endif
