/* Text inside an HTML page: what a name or a path may hold must not open a
 * tag or end an attribute. */
#include "report/html_escape.h"

int ga_html_escape(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            fputc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? '?' : *s, out);
        }
    }
    return ferror(out) ? -1 : 0;
}
