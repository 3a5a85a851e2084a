/* Lines of the plain-text files the suite reads (encodings, baselines). */
#ifndef GA_TEXT_LINE_H
#define GA_TEXT_LINE_H

/* s without leading and trailing white space (trailing ones are cut in place). */
char *ga_trim(char *s);

#endif
