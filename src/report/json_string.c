#include "report/json_string.h"

void ga_json_string(FILE *out, const char *v)
{
    fputc('"', out);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            fprintf(out, "\\%c", *v);
        else if ((unsigned char)*v < 0x20)
            fprintf(out, "\\u%04x", (unsigned)*v);
        else
            fputc(*v, out);
    }
    fputc('"', out);
}
