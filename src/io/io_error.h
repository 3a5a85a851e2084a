/* How input/output goes wrong: a status for the program and a message for
 * the user.  Library code never prints; it fills a struct ga_io_error and
 * returns its status.  Messages name the file and where in it (byte offset,
 * header key) the problem is. */
#ifndef GA_IO_ERROR_H
#define GA_IO_ERROR_H

enum ga_io_status {
    GA_IO_OK = 0,
    GA_IO_SYSTEM,       /* a system call failed: open, read, write, fsync, rename, fork */
    GA_IO_EXISTS,       /* the output exists and overwriting was not asked for */
    GA_IO_MALFORMED,    /* not a valid file of its kind: magic, header syntax, truncated, trailing bytes */
    GA_IO_UNSUPPORTED,  /* valid, but not what is read here: version, dtype, byte order, shape */
    GA_IO_MISMATCH,     /* two arrays that belong together differ in length */
    GA_IO_RANGE,        /* an index or value outside what the array or format holds */
    GA_IO_BAD_SPEC,     /* a plugin spec that is not "path:symbol" */
    GA_IO_LOAD,         /* dlopen or dlsym refused the plugin */
    GA_IO_KERNEL_FAULT, /* the plugin's constructors crashed, exited, hung or printed */
};

struct ga_io_error {
    enum ga_io_status status;
    char message[512];
};

/* Fill *err (which may be NULL) and return status.  printf-style. */
enum ga_io_status ga_io_fail(struct ga_io_error *err, enum ga_io_status status,
                             const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Mark *err (which may be NULL) as success; returns GA_IO_OK. */
enum ga_io_status ga_io_ok(struct ga_io_error *err);

/* "system error", "file exists", ...: short names for logs and tests. */
const char *ga_io_status_name(enum ga_io_status status);

#endif
