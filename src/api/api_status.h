/* The statuses and messages of the public library (gelu-acc.h): each
 * failing call sets its thread's message and returns its status. */
#ifndef GA_API_STATUS_H
#define GA_API_STATUS_H

#include <gelu-acc/gelu-acc.h>

/* The message of this thread's last failure, formatted; returns status. */
__attribute__((format(printf, 2, 3)))
int ga_api_fail(int status, const char *fmt, ...);

/* A call starts without a message. */
void ga_api_clear(void);

#endif
