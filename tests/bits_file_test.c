/* Text files of encodings (io/bits_file.h) and the lines they are made of
 * (io/text_line.h): what the README says is read, and every refusal with
 * the file, the line (and column) and the reason.  Expected encodings are
 * the hex written in each file. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "io/bits_file.h"
#include "io/text_line.h"

static char dir[64];
static char path[128];
static const struct ga_format *f32, *bf16;

static int setup(void **state)
{
    snprintf(dir, sizeof dir, "/tmp/bits_file_test.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/bits.txt", dir);
    f32 = ga_format_by_name("float32");
    bf16 = ga_format_by_name("bfloat16");
    return 0;
}

static int teardown(void **state)
{
    unlink(path);
    return rmdir(dir);
}

static void write_file(const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static void refused_n(const struct ga_format *f, const char *text, size_t len,
                      const char *where, const char *reason)
{
    char err[512] = "", prefix[200];
    ga_bits *v = NULL;
    size_t n = 0;

    write_file(text, len);
    if (ga_read_bits_file(path, f, &v, &n, err, sizeof err) == 0)
        fail_msg("accepted %zu encodings of: %.*s", n, (int)len, text);
    snprintf(prefix, sizeof prefix, "%s:%s: ", path, where);
    assert_contains(err, prefix);
    assert_contains(err, reason);
    assert_null(v);
}

static void refused(const struct ga_format *f, const char *text, const char *where,
                    const char *reason)
{
    refused_n(f, text, strlen(text), where, reason);
}

static void test_reads_encodings(void **state)
{
    static const char text[] = "# inputs\n"
                               "0x3f800000\n"
                               "\n"
                               "   \t\n"
                               "  ff800000\t\r\n"
                               "\t# indented comment\n"
                               "0X0000007F\n"
                               "1";   /* no final newline */
    ga_bits *v;
    size_t n;
    char err[512];

    write_file(text, sizeof text - 1);
    assert_int_equal(ga_read_bits_file(path, f32, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 4);
    assert_int_equal(v[0], 0x3f800000);
    assert_int_equal(v[1], 0xff800000);
    assert_int_equal(v[2], 0x7f);
    assert_int_equal(v[3], 1);
    free(v);

    write_file("", 0);
    assert_int_equal(ga_read_bits_file(path, bf16, &v, &n, err, sizeof err), 0);
    assert_int_equal(n, 0);
    free(v);
}

static void test_refusals(void **state)
{
    static const char nul[] = "0x3f80\n0x40\0" "00\n";
    char *long_line;

    /* A NUL byte used to hide the rest of its line: "0x40" was read. */
    refused_n(bf16, nul, sizeof nul - 1, "2:5", "NUL byte");
    refused(bf16, "0x3f80\n0x1ffff\n", "2", "wider than bfloat16's 16 bits");
    refused(f32, "0x1ffffffff\n", "1", "wider than float32's 32 bits");
    refused(f32, "0xfffffffffffffffffff\n", "1", "wider");
    refused(bf16, "-1\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "+3f80\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "0x\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "3f80 # one\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "3f 80\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "1.5\n", "1", "is not a hexadecimal encoding");
    refused(bf16, "3f80\r\r\n", "1:5", "carriage return inside the line");
    refused(bf16, "\n\n3f\v80\n", "3:3", "control character");
    long_line = malloc(5002);
    assert_non_null(long_line);
    memset(long_line, ' ', 5000);
    memcpy(long_line + 4990, "3f80", 4);
    strcpy(long_line + 5000, "\n");
    refused(bf16, long_line, "1:4097", "line longer than 4096 bytes");
    free(long_line);
}

static void test_missing_file(void **state)
{
    char err[512];
    ga_bits *v;
    size_t n;

    unlink(path);
    assert_int_equal(ga_read_bits_file(path, bf16, &v, &n, err, sizeof err), -1);
    assert_contains(err, path);
    assert_contains(err, "cannot open");
}

/* ga_line_text on its own: newline, CRLF, blanks, and where it refuses. */
static void test_line_text(void **state)
{
    char a[] = "  key = value \t\r\n", b[] = "x\0y\n", c[] = "\r\n", d[] = "caf\xc3\xa9\n";
    char e[] = "a\x7f", *long_line = malloc(GA_LINE_MAX + 2);
    const char *why = NULL;
    size_t column = 0;

    assert_string_equal(ga_line_text(a, sizeof a - 1, &column, &why), "key = value");
    assert_null(ga_line_text(b, sizeof b - 1, &column, &why));
    assert_string_equal(why, "NUL byte");
    assert_int_equal(column, 2);
    assert_string_equal(ga_line_text(c, sizeof c - 1, &column, &why), "");
    assert_string_equal(ga_line_text(d, sizeof d - 1, &column, &why), "caf\xc3\xa9");
    assert_null(ga_line_text(e, sizeof e - 1, &column, &why));
    assert_int_equal(column, 2);
    /* GA_LINE_MAX bytes are read, one more is not */
    assert_non_null(long_line);
    memset(long_line, 'x', GA_LINE_MAX);
    long_line[GA_LINE_MAX] = '\n';
    long_line[GA_LINE_MAX + 1] = '\0';
    assert_int_equal(strlen(ga_line_text(long_line, GA_LINE_MAX + 1, &column, &why)), GA_LINE_MAX);
    memset(long_line, 'x', GA_LINE_MAX + 1);
    assert_null(ga_line_text(long_line, GA_LINE_MAX + 1, &column, &why));
    assert_int_equal(column, GA_LINE_MAX + 1);
    free(long_line);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_encodings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_line_text),
    };
    return cmocka_run_group_tests_name("bits_file", tests, setup, teardown);
}
