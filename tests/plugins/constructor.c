/* Test plugin: the good float32 kernel in a library whose constructor
 * misbehaves as GELU_ACC_TEST_CONSTRUCTOR says: "abort", "crash"
 * (SIGSEGV), "exit" (exit(9)), "stdout" (a line on stdout) or "hang";
 * unset, it does nothing.  With GELU_ACC_TEST_CONSTRUCTOR_LATER=FILE it
 * misbehaves only once FILE exists, and the first load creates FILE: the
 * load probe passes, the workers' loads misbehave.  And it aborts in the
 * process whose pid is GELU_ACC_TEST_MAIN_PID, whatever else is set: run
 * as that process, gelu-acc must never load it.  Loading it must not cost
 * gelu-acc its process, its output or the other sections of a check. */
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gelu-acc/kernel.h>

GELU_ACC_EXTERN_C GELU_ACC_EXPORT gelu_acc_kernel_f32 constructor_gelu_f32;

static volatile int spinning = 1;

__attribute__((constructor)) static void misbehave(void)
{
    const char *how = getenv("GELU_ACC_TEST_CONSTRUCTOR");
    const char *main_pid = getenv("GELU_ACC_TEST_MAIN_PID");
    const char *later = getenv("GELU_ACC_TEST_CONSTRUCTOR_LATER");

    if (main_pid && strtol(main_pid, NULL, 10) == (long)getpid())
        abort();
    if (!how)
        return;
    if (later) {
        int fd = open(later, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd >= 0) {   /* the first load: behave */
            close(fd);
            return;
        }
    }
    if (strcmp(how, "abort") == 0)
        abort();
    if (strcmp(how, "crash") == 0)
        raise(SIGSEGV);
    if (strcmp(how, "exit") == 0)
        exit(9);
    if (strcmp(how, "stdout") == 0)
        printf("hello from a constructor\n");
    while (strcmp(how, "hang") == 0 && spinning)
        continue;
}

void constructor_gelu_f32(const float *in, float *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        out[i] = isinf(x) && x < 0 ? -0.0f : (float)(0.5 * x * erfc(-x * M_SQRT1_2));
    }
}
