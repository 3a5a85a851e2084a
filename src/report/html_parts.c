/* What the HTML pages of a report share: the page head with its style
 * sheet, figures, the navigation line and the approximation plots. */
#include "report/html_parts.h"

#include <stdio.h>
#include <sys/stat.h>

#include "report/html_escape.h"
#include "report/pictures.h"

/* One style sheet for both pages: readable tables with numbers right-aligned
 * in tabular figures, failures on a red ground. */
static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
    "margin:0 auto;max-width:1400px;padding:0 1.2em 3em;color:#222;line-height:1.45}\n"
    "h1{font-size:1.7em;margin:.7em 0 .3em}\n"
    "h2{margin-top:1.8em;border-bottom:1px solid #ddd;padding-bottom:.2em}\n"
    "h3{margin-top:1.5em}\n"
    "a{color:#0a58a8}\n"
    "code{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}\n"
    "p.nav{font-size:.92em;color:#555;margin:.8em 0 0}\n"
    "div.scroll{overflow-x:auto}\n"
    "table{border-collapse:collapse;font-size:.82em;margin:.5em 0 1em}\n"
    "th,td{padding:.25em .45em;border-bottom:1px solid #e3e3e3}\n"
    "th{background:#f3f3f3;text-align:left;vertical-align:bottom}\n"
    "th.num,td.num{text-align:right}\n"
    "td.num{font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "tbody tr:hover{background:#f5f9ff}\n"
    "td.bad,span.bad{background:#fde2dd;color:#8a1c0b;font-weight:600}\n"
    "span.bad{padding:0 .3em}\n"
    "nav.toc{background:#fafafa;border:1px solid #e3e3e3;padding:.3em 1.2em;font-size:.92em}\n"
    "nav.toc ol{margin:.2em 0;padding-left:1.4em}\n"
    "nav.toc li li{display:inline;margin-right:.8em}\n"
    "div.plots{display:flex;flex-wrap:wrap;gap:.8em;align-items:flex-start}\n"
    /* a table is as wide as its image, and its caption wraps to that */
    "figure{margin:.5em 0;display:table}\n"
    "figure img{max-width:100%;height:auto;border:1px solid #e5e5e5;display:block}\n"
    "figcaption{font-size:.88em;color:#555;display:table-caption;caption-side:bottom}\n"
    "p.facts{font-size:.92em}\n";

void ga_html_head(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>", out);
    ga_html_escape(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

/* <img> of a plot, with a caption. */
void ga_html_figure(FILE *out, const char *src, const char *alt, const char *caption)
{
    /* The image links to itself: full size in its own tab. */
    fputs("<figure><a href=\"", out);
    ga_html_escape(out, src);
    fputs("\"><img src=\"", out);
    ga_html_escape(out, src);
    fputs("\" alt=\"", out);
    ga_html_escape(out, alt);
    fputs("\"></a>", out);
    if (caption) {
        fputs("<figcaption>", out);
        ga_html_escape(out, caption);
        fputs("</figcaption>", out);
    }
    fputs("</figure>\n", out);
}

bool ga_html_file_exists(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The two difference curves, with the formulas (when dir is given, only
 * the plots that exist there), and the end of their <div>. */
void ga_html_approximation_figures(FILE *out, const char *dir)
{
    static const char caption[] =
        "gelu_tanh(x) = (x/2)(1 + tanh(√(2/π)(x + 0.044715x³))) and gelu(x) = x·Φ(x) "
        "from the MPFR oracle's exact values; quick(x) = x/(1 + exp(−1.702x)) in double.";
    if (!dir || ga_html_file_exists(dir, GA_PICTURE_APPROXIMATIONS))
        ga_html_figure(out, GA_PICTURE_APPROXIMATIONS, "gelu_tanh minus gelu and quick minus gelu",
               caption);
    if (!dir || ga_html_file_exists(dir, GA_PICTURE_APPROXIMATIONS_TANH))
        ga_html_figure(out, GA_PICTURE_APPROXIMATIONS_TANH, "gelu_tanh minus gelu",
               "The tanh form alone, at its own scale: the curve of the plot beside.");
    fputs("</div>\n", out);
}

void ga_html_links(FILE *out, const char *name, bool page)
{
    fputs("<p class=\"nav\">", out);
    if (page)
        fputs("<a href=\"index.html\">All formats</a> · "
              "<a href=\"README.md\">How the figures are defined (README)</a> · ", out);
    else {
        fputs("<a href=\"", out);
        ga_html_escape(out, name);
        fputs(".html\">The full page</a> · ", out);
    }
    fputs("Data: <a href=\"", out);
    ga_html_escape(out, name);
    fputs(".csv\">CSV</a>, <a href=\"", out);
    ga_html_escape(out, name);
    fputs(".json\">JSON</a>, <a href=\"", out);
    ga_html_escape(out, name);
    fputs(".md\">Markdown</a></p>\n", out);
}
