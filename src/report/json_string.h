/* A JSON string: the one writer of every JSON file, so that names and
 * domains holding quotes, backslashes or control characters stay valid. */
#ifndef GA_JSON_STRING_H
#define GA_JSON_STRING_H

#include <stdio.h>

/* v between double quotes, '"' and '\' escaped, control characters as \u00XX. */
void ga_json_string(FILE *out, const char *v);

#endif
