/* What the fuzz harnesses share.  Each harness defines
 * LLVMFuzzerTestOneInput; libFuzzer drives it (./configure --enable-fuzzing,
 * tests/fuzz/run-fuzzers.sh) and replay.c runs it over its committed corpus
 * in 'make check'.  A harness aborts (a finding) when a parser breaks a
 * promise: a refusal without a message, or an accepted input that violates
 * the documented limits. */
#ifndef GA_FUZZ_H
#define GA_FUZZ_H

#define _GNU_SOURCE
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/bytes.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Stop with a message: a finding. */
#define FUZZ_ASSERT(cond)                                                          \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", __FILE__,        \
                    __LINE__, #cond);                                              \
            abort();                                                               \
        }                                                                          \
    } while (0)

/* A malloc'ed copy of data whose last 8 bytes are the FNV-1a 64 of the
 * others (io/bytes.h), so that mutations of a binary file reach the field
 * checks behind its checksum. */
static inline unsigned char *fuzz_checksummed(const uint8_t *data, size_t size)
{
    unsigned char *copy = malloc(size + 1);

    FUZZ_ASSERT(copy != NULL);
    if (size)
        memcpy(copy, data, size);
    if (size >= 8) {
        uint64_t sum = ga_bytes_fnv1a(copy, size - 8, GA_FNV1A_START);
        for (int i = 0; i < 8; i++)
            copy[size - 8 + (size_t)i] = (unsigned char)(sum >> (8 * i));
    }
    return copy;
}

/* data as a C string (malloc'ed; a NUL in data ends it, as in argv). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);

    FUZZ_ASSERT(s != NULL);
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* data as a file in memory: fills path ("/proc/self/fd/N") and returns the
 * descriptor to close afterwards. */
static inline int fuzz_file(const uint8_t *data, size_t size, char path[64])
{
    int fd = memfd_create("fuzz", 0);

    FUZZ_ASSERT(fd >= 0);
    FUZZ_ASSERT(size == 0 || write(fd, data, size) == (ssize_t)size);
    snprintf(path, 64, "/proc/self/fd/%d", fd);
    return fd;
}

#endif
