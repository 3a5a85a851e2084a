/* What the HTML pages of a report (html.h) share. */
#ifndef GA_HTML_PARTS_H
#define GA_HTML_PARTS_H

#include <stdbool.h>
#include <stdio.h>

/* The document's start up to <body>, with the inline style sheet. */
void ga_html_head(FILE *out, const char *title);

/* <img> of a plot linking to itself, with a caption (may be NULL). */
void ga_html_figure(FILE *out, const char *src, const char *alt, const char *caption);

/* Whether DIR/NAME is a regular file. */
bool ga_html_file_exists(const char *dir, const char *name);

/* The two difference curves, with the formulas (when dir is given, only
 * the plots that exist there), and the end of their <div>. */
void ga_html_approximation_figures(FILE *out, const char *dir);

/* The navigation line of a format's page (page) or of its entry in the
 * index: the index, the README and the page's CSV, JSON and Markdown. */
void ga_html_links(FILE *out, const char *name, bool page);

#endif
