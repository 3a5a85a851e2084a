/* Atomic writes (src/io/atomic_file.c), report files written through them
 * (src/report/report_file.c) and I/O error statuses (src/io/io_error.c).
 * Checked from outside, with the file system as the reference: the final
 * name holds nothing or every byte, a failed write or render leaves the old
 * file as it was, no temporary file stays behind, an existing file is kept
 * unless overwriting was asked for, and two writers racing for a new name
 * cannot both win.  A write is made to fail by a file size limit
 * (RLIMIT_FSIZE), which holds even for root. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "io/atomic_file.h"
#include "io/io_error.h"
#include "report/report_file.h"

static char dir[4096];

static const char *in_dir(const char *name)
{
    static char paths[4][8192];
    static unsigned next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

/* The entries of the test directory, sorted, joined by spaces. */
static const char *listing(void)
{
    static char out[8192];
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    out[0] = '\0';
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") != 0 && strcmp(names[i]->d_name, "..") != 0) {
            if (out[0])
                strcat(out, " ");
            strcat(out, names[i]->d_name);
        }
        free(names[i]);
    }
    free(names);
    return out;
}

static void remove_all(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        const char *p = in_dir(e->d_name);
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 && unlink(p) != 0)
            rmdir(p);
    }
    if (d)
        closedir(d);
}

static void put_file(const char *name, const char *text)
{
    FILE *f = fopen(in_dir(name), "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* The whole file (at most 1 MiB), NUL-terminated; NULL when absent. */
static char *get_file(const char *name, size_t *len)
{
    static char buf[1 << 20];
    FILE *f = fopen(in_dir(name), "r");
    if (!f)
        return NULL;
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = '\0';
    fclose(f);
    return buf;
}

static const char *contents(const char *name)
{
    size_t len;
    return get_file(name, &len);
}

static bool exists(const char *name)
{
    struct stat st;
    return lstat(in_dir(name), &st) == 0;
}

/* The final name appears only at commit, with every byte. */
static void test_appears_complete(void **state)
{
    struct ga_atomic_file a;
    struct ga_io_error err;
    static char big[300000];
    size_t len;
    (void)state;
    remove_all();
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)('a' + i % 26);
    assert_int_equal(ga_atomic_open(&a, in_dir("out.txt"), false, &err), GA_IO_OK);
    assert_int_equal(err.status, GA_IO_OK);
    assert_int_equal(ga_atomic_write(&a, "head\n", 5, &err), GA_IO_OK);
    assert_false(exists("out.txt"));
    /* the bytes so far sit in one hidden temporary file next to it */
    char expect[64];
    snprintf(expect, sizeof expect, ".out.txt.%ld.", (long)getpid());
    assert_memory_equal(listing(), expect, strlen(expect));
    assert_null(strchr(listing(), ' '));
    assert_int_equal(ga_atomic_write(&a, big, sizeof big, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_write(&a, "", 0, &err), GA_IO_OK);
    assert_false(exists("out.txt"));
    assert_int_equal(ga_atomic_commit(&a, &err), GA_IO_OK);
    assert_int_equal(a.fd, -1);
    assert_string_equal(listing(), "out.txt");
    const char *got = get_file("out.txt", &len);
    assert_int_equal(len, 5 + sizeof big);
    assert_memory_equal(got, "head\n", 5);
    assert_memory_equal(got + 5, big, sizeof big);
}

/* Without overwrite an existing file is refused at open, and kept. */
static void test_refuses_to_overwrite(void **state)
{
    struct ga_atomic_file a;
    struct ga_io_error err;
    (void)state;
    remove_all();
    put_file("old.txt", "old\n");
    assert_int_equal(ga_atomic_open(&a, in_dir("old.txt"), false, &err), GA_IO_EXISTS);
    assert_int_equal(err.status, GA_IO_EXISTS);
    assert_non_null(strstr(err.message, in_dir("old.txt")));
    assert_string_equal(listing(), "old.txt");
    assert_string_equal(contents("old.txt"), "old\n");
    /* a dangling symbolic link is an existing name too */
    assert_int_equal(symlink("nowhere", in_dir("link")), 0);
    assert_int_equal(ga_atomic_open(&a, in_dir("link"), false, &err), GA_IO_EXISTS);
    /* with overwrite: replaced, whole */
    assert_int_equal(ga_atomic_open(&a, in_dir("old.txt"), true, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_write(&a, "new\n", 4, &err), GA_IO_OK);
    assert_string_equal(contents("old.txt"), "old\n");
    assert_int_equal(ga_atomic_commit(&a, &err), GA_IO_OK);
    assert_string_equal(contents("old.txt"), "new\n");
    assert_string_equal(listing(), "link old.txt");
}

/* Two writers of one new name: the first commit wins, the second gets
 * GA_IO_EXISTS and leaves the winner's bytes and no temporary file. */
static void test_race_for_a_new_name(void **state)
{
    struct ga_atomic_file a, b;
    struct ga_io_error err;
    (void)state;
    remove_all();
    assert_int_equal(ga_atomic_open(&a, in_dir("race"), false, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_open(&b, in_dir("race"), false, &err), GA_IO_OK);
    assert_string_not_equal(a.tmp_path, b.tmp_path);
    assert_int_equal(ga_atomic_write(&a, "first", 5, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_write(&b, "second", 6, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_commit(&a, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_commit(&b, &err), GA_IO_EXISTS);
    assert_non_null(strstr(err.message, "appeared while it was being written"));
    assert_string_equal(contents("race"), "first");
    assert_string_equal(listing(), "race");
}

/* A write that fails (the file size limit) leaves the old file and, once
 * aborted, no temporary file. */
static void test_failed_write_keeps_old_file(void **state)
{
    struct ga_atomic_file a;
    struct ga_io_error err;
    struct rlimit saved, small;
    static char block[8192];
    enum ga_io_status st;
    (void)state;
    remove_all();
    put_file("keep.txt", "precious\n");
    assert_int_equal(ga_atomic_open(&a, in_dir("keep.txt"), true, &err), GA_IO_OK);
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small = saved;
    small.rlim_cur = 4096;
    signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    st = ga_atomic_write(&a, block, sizeof block, &err);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, SIG_DFL);
    assert_int_equal(st, GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, in_dir("keep.txt")));
    assert_non_null(strstr(err.message, strerror(EFBIG)));
    ga_atomic_abort(&a);
    assert_string_equal(listing(), "keep.txt");
    assert_string_equal(contents("keep.txt"), "precious\n");
}

/* A commit whose rename fails (the name is a directory) removes the
 * temporary file and leaves the directory alone. */
static void test_failed_commit_cleans_up(void **state)
{
    struct ga_atomic_file a;
    struct ga_io_error err;
    (void)state;
    remove_all();
    assert_int_equal(mkdir(in_dir("taken"), 0777), 0);
    put_file("taken/inside", "x");
    assert_int_equal(ga_atomic_open(&a, in_dir("taken"), true, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_write(&a, "data", 4, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_commit(&a, &err), GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, "rename"));
    assert_string_equal(listing(), "taken");
    assert_string_equal(contents("taken/inside"), "x");
    unlink(in_dir("taken/inside"));
}

static void test_abort_and_bad_names(void **state)
{
    struct ga_atomic_file a;
    struct ga_io_error err;
    (void)state;
    remove_all();
    assert_int_equal(ga_atomic_open(&a, in_dir("never"), false, &err), GA_IO_OK);
    assert_int_equal(ga_atomic_write(&a, "x", 1, &err), GA_IO_OK);
    ga_atomic_abort(&a);
    assert_string_equal(listing(), "");
    assert_null(a.path);
    assert_int_equal(ga_atomic_open(&a, "", true, &err), GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, "not a file name"));
    assert_int_equal(ga_atomic_open(&a, in_dir("sub/"), true, &err), GA_IO_SYSTEM);
    assert_int_equal(ga_atomic_open(&a, in_dir("no/such/dir/file"), true, &err), GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, "no/such/dir/file"));
    assert_non_null(strstr(err.message, strerror(ENOENT)));
    assert_string_equal(listing(), "");
    /* a NULL error is allowed */
    assert_int_equal(ga_atomic_open(&a, "", true, NULL), GA_IO_SYSTEM);
}

/* Threads replacing one file: every reader sees one writer's bytes, whole. */
static void test_threads_replace_whole(void **state)
{
    (void)state;
    remove_all();
    put_file("shared", "start");
    int failures = 0;
    #pragma omp parallel for num_threads(4) reduction(+:failures)
    for (int i = 0; i < 64; i++) {
        char text[4096];
        struct ga_atomic_file a;
        memset(text, 'A' + i % 26, sizeof text);
        if (ga_atomic_open(&a, in_dir("shared"), true, NULL) != GA_IO_OK
            || ga_atomic_write(&a, text, sizeof text, NULL) != GA_IO_OK
            || ga_atomic_commit(&a, NULL) != GA_IO_OK)
            failures++;
    }
    assert_int_equal(failures, 0);
    size_t len;
    const char *got = get_file("shared", &len);
    assert_int_equal(len, 4096);
    for (size_t k = 1; k < len; k++)
        assert_int_equal(got[k], got[0]);
    assert_string_equal(listing(), "shared");
}

/* ---- report files ---- */

static int write_greeting(FILE *out, const void *ctx)
{
    fprintf(out, "hello %s\n", (const char *)ctx);
    return 0;
}

static int write_then_fail(FILE *out, const void *ctx)
{
    (void)ctx;
    fputs("half a report", out);
    return -1;
}

static void test_report_file(void **state)
{
    struct ga_io_error err;
    (void)state;
    remove_all();
    assert_int_equal(ga_write_report_file(dir, "r.txt", false, write_greeting, "world", &err),
                     GA_IO_OK);
    assert_string_equal(contents("r.txt"), "hello world\n");
    /* kept without overwrite, replaced with it */
    assert_int_equal(ga_write_report_file(dir, "r.txt", false, write_greeting, "again", &err),
                     GA_IO_EXISTS);
    assert_string_equal(contents("r.txt"), "hello world\n");
    assert_int_equal(ga_write_report_file(dir, "r.txt", true, write_greeting, "again", &err),
                     GA_IO_OK);
    assert_string_equal(contents("r.txt"), "hello again\n");
    /* a writer that fails: nothing written, the old file kept */
    assert_int_equal(ga_write_report_file(dir, "r.txt", true, write_then_fail, NULL, &err),
                     GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, "r.txt: could not render"));
    assert_int_equal(ga_write_report_file(dir, "s.txt", true, write_then_fail, NULL, &err),
                     GA_IO_SYSTEM);
    assert_string_equal(contents("r.txt"), "hello again\n");
    assert_string_equal(listing(), "r.txt");
    /* a directory that does not exist */
    assert_int_equal(ga_write_report_file(in_dir("none"), "r.txt", true, write_greeting, "x",
                                          &err), GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, "none/r.txt"));
}

static void test_status_names(void **state)
{
    struct ga_io_error err;
    (void)state;
    assert_string_equal(ga_io_status_name(GA_IO_OK), "ok");
    assert_string_equal(ga_io_status_name(GA_IO_EXISTS), "file exists");
    assert_string_equal(ga_io_status_name(GA_IO_LOAD), "plugin load failure");
    assert_string_equal(ga_io_status_name((enum ga_io_status)99), "unknown status");
    assert_int_equal(ga_io_fail(&err, GA_IO_RANGE, "index %d of %s", 7, "a.npy"), GA_IO_RANGE);
    assert_int_equal(err.status, GA_IO_RANGE);
    assert_string_equal(err.message, "index 7 of a.npy");
    assert_int_equal(ga_io_ok(&err), GA_IO_OK);
    assert_string_equal(err.message, "");
    assert_int_equal(ga_io_fail(NULL, GA_IO_MALFORMED, "x"), GA_IO_MALFORMED);
    /* long messages are cut, never overflow */
    char long_name[2000];
    memset(long_name, 'n', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    ga_io_fail(&err, GA_IO_SYSTEM, "%s", long_name);
    assert_int_equal(strlen(err.message), sizeof err.message - 1);
}

static int setup(void **state)
{
    const char *tmp = getenv("TMPDIR");
    (void)state;
    snprintf(dir, sizeof dir, "%s/atomic_file_test.XXXXXX", tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    remove_all();
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appears_complete),
        cmocka_unit_test(test_refuses_to_overwrite),
        cmocka_unit_test(test_race_for_a_new_name),
        cmocka_unit_test(test_failed_write_keeps_old_file),
        cmocka_unit_test(test_failed_commit_cleans_up),
        cmocka_unit_test(test_abort_and_bad_names),
        cmocka_unit_test(test_threads_replace_whole),
        cmocka_unit_test(test_report_file),
        cmocka_unit_test(test_status_names),
    };
    return cmocka_run_group_tests_name("atomic_file", tests, setup, teardown);
}
