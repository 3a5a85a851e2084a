/* Statuses, their names and the calling thread's last message. */
#include "api/api_status.h"

#include <stdarg.h>
#include <stdio.h>

#include "config.h"

/* One per thread: several threads may fail at once. */
static _Thread_local char last_error[1024];

int ga_api_fail(int status, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

void ga_api_clear(void)
{
    last_error[0] = '\0';
}

GELU_ACC_API const char *gelu_acc_last_error(void)
{
    return last_error;
}

GELU_ACC_API const char *gelu_acc_version(void)
{
    return PACKAGE_VERSION;
}

GELU_ACC_API const char *gelu_acc_status_name(int status)
{
    static const char *const names[] = {
        [GELU_ACC_OK] = "GELU_ACC_OK",
        [GELU_ACC_E_ARGUMENT] = "GELU_ACC_E_ARGUMENT",
        [GELU_ACC_E_FORMAT] = "GELU_ACC_E_FORMAT",
        [GELU_ACC_E_ENCODING] = "GELU_ACC_E_ENCODING",
        [GELU_ACC_E_MEMORY] = "GELU_ACC_E_MEMORY",
        [GELU_ACC_E_UNDECIDED] = "GELU_ACC_E_UNDECIDED",
        [GELU_ACC_E_FILE] = "GELU_ACC_E_FILE",
        [GELU_ACC_E_MISMATCH] = "GELU_ACC_E_MISMATCH",
        [GELU_ACC_E_TOO_LARGE] = "GELU_ACC_E_TOO_LARGE",
    };

    if (status < 0 || (size_t)status >= sizeof names / sizeof *names || !names[status])
        return "unknown status";
    return names[status];
}
