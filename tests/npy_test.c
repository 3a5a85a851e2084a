/* Array files: NumPy .npy and raw.  Independent references: files written
 * by NumPy itself (tests/data/npy, see make.py there) with NumPy's own hex
 * dump of their bits, well-known IEEE encodings (1.0f = 0x3f800000), and
 * NumPy's exact header layout.  Error cases use NumPy's malformed files and
 * files crafted here byte by byte.  Random round trips draw from
 * test_random.h (a fixed seed, printed, overridable by GELU_ACC_SEED). */
#define _GNU_SOURCE
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_helpers.h"

#include "formats/format.h"
#include "io/array_file.h"
#include "io/array_open.h"
#include "io/npy.h"
#include "io/rawfile.h"
#include "test_random.h"

static enum ga_io_status read_npy(const char *path, const struct ga_format *f, ga_bits **v,
                                  size_t *n, struct ga_io_error *err)
{
    return ga_file_read(path, GA_FILE_NPY, f, v, n, err);
}

static enum ga_io_status write_array_npy(const char *path, const struct ga_format *f,
                                         const ga_bits *v, size_t n, bool overwrite,
                                         struct ga_io_error *err)
{
    return ga_file_write(path, GA_FILE_NPY, f, v, n, overwrite, err);
}

static const struct ga_format *f32, *f16, *bf16;
static char data_dir[4096];
static char tmp_dir[4096];

/* dir/name in one of 8 rotating buffers: a few paths may be live at once. */
static const char *join(const char *dir, const char *name)
{
    static char paths[8][8192];
    static unsigned next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    return path;
}

static const char *data_path(const char *name) { return join(data_dir, name); }
static const char *tmp_path(const char *name) { return join(tmp_dir, name); }

static void write_bytes(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static size_t read_bytes(const char *path, unsigned char *buf, size_t size)
{
    FILE *f = fopen(path, "rb");
    size_t n;
    assert_non_null(f);
    n = fread(buf, 1, size, f);
    fclose(f);
    return n;
}

/* The hex encodings make.py took from NumPy (a.view(uint)). */
static size_t read_hex(const char *name, const struct ga_format *f, ga_bits *out, size_t max)
{
    FILE *in = fopen(data_path(name), "r");
    char line[64];
    size_t n = 0;

    assert_non_null(in);
    while (fgets(line, sizeof line, in) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        assert_true(n < max);
        assert_int_equal(ga_parse_bits(f, line, &out[n]), 0);
        n++;
    }
    fclose(in);
    return n;
}

/* Open as npy for f and expect failure with status and message parts. */
static void expect_npy_error(const char *path, const struct ga_format *f,
                             enum ga_io_status status, const char *part1, const char *part2)
{
    struct ga_array_reader r;
    struct ga_io_error err;

    assert_int_equal(ga_npy_open(path, f, &r, &err), status);
    assert_int_equal(err.status, status);
    assert_contains(err.message, path);
    if (part1)
        assert_contains(err.message, part1);
    if (part2)
        assert_contains(err.message, part2);
    assert_int_equal(r.fd, -1);   /* nothing left open */
}

/* A .npy file from a header dict, with NumPy's prefix for version major.minor. */
static void write_npy(const char *path, int major, int minor, const char *dict,
                      const void *data, size_t data_len)
{
    unsigned char buf[4096];
    size_t len = strlen(dict), prefix = major == 1 ? 10 : 12;

    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = (unsigned char)minor;
    buf[8] = (unsigned char)(len & 0xff);
    buf[9] = (unsigned char)(len >> 8);
    buf[10] = buf[11] = 0;
    memcpy(buf + prefix, dict, len);
    memcpy(buf + prefix + len, data, data_len);
    write_bytes(path, buf, prefix + len + data_len);
}

/* ---- NumPy's files read as NumPy wrote them ---- */

static void check_numpy_file(const char *npy, const char *txt, const struct ga_format *f)
{
    ga_bits expected[64], *v;
    size_t n_expected = read_hex(txt, f, expected, 64), n;
    struct ga_io_error err;

    assert_int_equal(n_expected, 16);
    assert_int_equal(read_npy(data_path(npy), f, &v, &n, &err), GA_IO_OK);
    assert_int_equal(n, n_expected);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], expected[i]);
    free(v);
}

static void test_numpy_float32(void **state)
{
    ga_bits *v;
    size_t n;

    (void)state;
    check_numpy_file("f32.npy", "f32.txt", f32);
    /* Known IEEE binary32 encodings of make.py's F32 values. */
    assert_int_equal(read_npy(data_path("f32.npy"), f32, &v, &n, NULL), GA_IO_OK);
    assert_int_equal(v[0], 0x00000000);   /* +0 */
    assert_int_equal(v[1], 0x80000000);   /* -0 */
    assert_int_equal(v[2], 0x3f800000);   /* 1 */
    assert_int_equal(v[4], 0x3dcccccd);   /* 0.1 rounded to nearest */
    assert_int_equal(v[5], 0xc0200000);   /* -2.5 */
    assert_int_equal(v[8], 0x7f7fffff);   /* largest finite */
    assert_int_equal(v[10], 0x00000001);  /* 2^-149 */
    assert_int_equal(v[12], 0x7f800000);  /* +inf */
    assert_int_equal(v[13], 0xff800000);  /* -inf */
    assert_true(ga_is_nan(f32, v[14]));
    free(v);
}

static void test_numpy_float16(void **state)
{
    ga_bits *v;
    size_t n;

    (void)state;
    check_numpy_file("f16.npy", "f16.txt", f16);
    assert_int_equal(read_npy(data_path("f16.npy"), f16, &v, &n, NULL), GA_IO_OK);
    assert_int_equal(v[2], 0x3c00);   /* 1 */
    assert_int_equal(v[5], 0xc100);   /* -2.5 */
    assert_int_equal(v[8], 0x7bff);   /* 65504, largest finite */
    assert_int_equal(v[9], 0x0400);   /* 2^-14, smallest normal */
    assert_int_equal(v[10], 0x0001);  /* 2^-24 */
    assert_int_equal(v[13], 0xfc00);  /* -inf */
    free(v);
}

static void test_numpy_bfloat16_bits(void **state)
{
    ga_bits *v;
    size_t n;

    (void)state;
    check_numpy_file("bf16.npy", "bf16.txt", bf16);
    assert_int_equal(read_npy(data_path("bf16.npy"), bf16, &v, &n, NULL), GA_IO_OK);
    assert_int_equal(v[2], 0x3f80);   /* 1: high half of 0x3f800000 */
    assert_int_equal(v[8], 0x7f7f);   /* largest finite */
    assert_int_equal(v[12], 0x7f80);  /* +inf */
    free(v);
}

/* The dtype names the format when the caller gives none. */
static void test_format_from_dtype(void **state)
{
    static const struct { const char *file; enum ga_format_id id; } cases[] = {
        { "f32.npy", GA_FLOAT32 }, { "f16.npy", GA_FLOAT16 }, { "bf16.npy", GA_BFLOAT16 },
    };
    struct ga_array_reader r;

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(ga_npy_open(data_path(cases[i].file), NULL, &r, NULL), GA_IO_OK);
        assert_ptr_equal(r.format, ga_format_get(cases[i].id));
        assert_int_equal(r.length, 16);
        assert_int_equal(r.data_offset % 64, 0);
        ga_array_close(&r);
    }
    assert_string_equal(ga_npy_dtype(f32), "<f4");
    assert_string_equal(ga_npy_dtype(f16), "<f2");
    assert_string_equal(ga_npy_dtype(bf16), "<u2");
    assert_string_equal(ga_npy_dtype(ga_format_get(GA_FLOAT64)), "<f8");
    assert_ptr_equal(ga_npy_format_for_dtype("<f8"), ga_format_get(GA_FLOAT64));
    assert_null(ga_npy_format_for_dtype("<f16"));
}

/* make.py's f64.npy is f32.npy widened by NumPy: each float64 element
 * holds the same value, so its bits are the float32's widened by hand. */
static void test_numpy_float64(void **state)
{
    const struct ga_format *f64 = ga_format_get(GA_FLOAT64);
    ga_bits *narrow, *wide;
    size_t n32, n64;

    (void)state;
    assert_int_equal(read_npy(data_path("f32.npy"), f32, &narrow, &n32, NULL), GA_IO_OK);
    assert_int_equal(read_npy(data_path("f64.npy"), NULL, &wide, &n64, NULL), GA_IO_OK);
    assert_int_equal(n64, n32);
    for (size_t i = 0; i < n32; i++) {
        uint32_t b = (uint32_t)narrow[i];
        float v;
        double d;
        uint64_t expected;
        memcpy(&v, &b, sizeof v);
        d = v;
        memcpy(&expected, &d, sizeof expected);
        if (isnan(v))
            assert_true(ga_is_nan(f64, wide[i]));
        else
            assert_int_equal(wide[i], expected);
    }
    free(narrow);
    free(wide);
}

/* Version 2.0 and a 1-D array flagged fortran_order hold the same array. */
static void test_numpy_variants_same_array(void **state)
{
    static const char *const files[] = { "f32_v2.npy", "f32_1d_fortran.npy" };
    ga_bits *ref, *v;
    size_t n_ref, n;

    (void)state;
    assert_int_equal(read_npy(data_path("f32.npy"), f32, &ref, &n_ref, NULL), GA_IO_OK);
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(read_npy(data_path(files[i]), f32, &v, &n, NULL), GA_IO_OK);
        assert_int_equal(n, n_ref);
        assert_memory_equal(v, ref, n * sizeof *v);
        free(v);
    }
    free(ref);
}

/* ---- NumPy's malformed files ---- */

static void test_numpy_error_files(void **state)
{
    (void)state;
    expect_npy_error(data_path("f32_be.npy"), f32, GA_IO_UNSUPPORTED, "big-endian", "'>f4'");
    expect_npy_error(data_path("f32_be.npy"), NULL, GA_IO_UNSUPPORTED, "big-endian", "'<f4'");
    expect_npy_error(data_path("f32_2d_fortran.npy"), f32, GA_IO_UNSUPPORTED, "(4, 4) is 2-D",
                     "Fortran order");
    expect_npy_error(data_path("f64.npy"), f32, GA_IO_UNSUPPORTED, "dtype '<f8' found",
                     "'<f4' expected for float32");
    /* 16 float32 = 64 bytes from byte 128; make.py cut 3 of them. */
    expect_npy_error(data_path("f32_truncated.npy"), f32, GA_IO_MALFORMED, "truncated data",
                     "needs 64 bytes from byte 128, found 61");
    expect_npy_error(data_path("f32_trailing.npy"), f32, GA_IO_MALFORMED, "4 trailing bytes",
                     "ends at byte 192, the file at byte 196");
}

/* The right file for another format: say which dtype was found and which expected. */
static void test_wrong_format(void **state)
{
    (void)state;
    expect_npy_error(data_path("f32.npy"), f16, GA_IO_UNSUPPORTED, "dtype '<f4' found",
                     "'<f2' expected for float16");
    expect_npy_error(data_path("f16.npy"), bf16, GA_IO_UNSUPPORTED, "'<u2' expected for bfloat16",
                     "a.view(np.uint16)");
    expect_npy_error(data_path("bf16.npy"), f16, GA_IO_UNSUPPORTED, "dtype '<u2' found",
                     "bfloat16 bit patterns");
}

/* ---- crafted headers ---- */

static const unsigned char one_f32[4] = { 0x00, 0x00, 0x80, 0x3f };   /* 1.0f, little-endian */

static void test_bad_magic_and_version(void **state)
{
    const char *p = tmp_path("crafted.npy");
    static const char dict[] = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n";

    (void)state;
    write_bytes(p, "\x93NUMPX\x01\x00", 8);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "not a NumPy .npy file",
                     "found 93 4e 55 4d 50 58");
    write_bytes(p, "", 0);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "an empty file", NULL);
    write_bytes(p, "\x93NU", 3);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "file too short", NULL);
    write_bytes(p, "\x93NUMPY\x01", 7);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "inside the version", NULL);
    write_bytes(p, "\x93NUMPY\x01\x00\x40", 9);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "inside the header length", NULL);
    write_npy(p, 3, 0, dict, one_f32, 4);
    expect_npy_error(p, f32, GA_IO_UNSUPPORTED, "version 3.0", "1.0 and 2.0");
    write_npy(p, 1, 1, dict, one_f32, 4);
    expect_npy_error(p, f32, GA_IO_UNSUPPORTED, "version 1.1", NULL);
    /* The header length says 0x100 bytes; the file is far shorter. */
    write_bytes(p, "\x93NUMPY\x01\x00\x00\x01{", 11);
    expect_npy_error(p, f32, GA_IO_MALFORMED, "truncated header", "256 header bytes");
    /* Version 2.0: a 4-byte length over NumPy's 10000-byte limit. */
    write_bytes(p, "\x93NUMPY\x02\x00\x00\x00\x01\x00{", 13);
    expect_npy_error(p, f32, GA_IO_UNSUPPORTED, "header length 65536", "10000");
    /* The crafted writer itself is sound: the good dict reads. */
    write_npy(p, 1, 0, dict, one_f32, 4);
    expect_npy_error(tmp_path("missing.npy"), f32, GA_IO_SYSTEM, "cannot open", NULL);
    {
        ga_bits *v;
        size_t n;
        assert_int_equal(read_npy(p, f32, &v, &n, NULL), GA_IO_OK);
        assert_int_equal(n, 1);
        assert_int_equal(v[0], 0x3f800000);
        free(v);
    }
}

/* Each malformed dict, with a part of the message and the text at which
 * the error must point ("header byte N", N found here by strstr). */
static void test_malformed_headers(void **state)
{
    static const struct {
        const char *dict;
        enum ga_io_status status;
        const char *part;
        const char *at;   /* the error is at the first occurrence of this */
    } cases[] = {
        { "{'descr' '<f4', 'fortran_order': False, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected ':' after a key", "'<f4'" },
        { "{'descr': '<f4', 'fortran_order': False, }",
          GA_IO_MALFORMED, "no 'shape' key", NULL },
        { "{'descr': '<f4', 'shape': (1,), }",
          GA_IO_MALFORMED, "no 'fortran_order' key", NULL },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}",
          GA_IO_MALFORMED, "unexpected key 'extra'", "'extra'" },
        { "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}",
          GA_IO_MALFORMED, "key 'descr' appears twice", "'descr': '<f4', 'fo" },
        { "{'descr': '<f4, 'fortran_order': False, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected ',' or '}' after a value", "fortran_order': F" },
        { "{'descr': '<f4', 'fortran_order': false, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected True or False", "false" },
        { "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected True or False", "Falsey" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (1), }",
          GA_IO_MALFORMED, "not a tuple", "), }" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': 1, }",
          GA_IO_MALFORMED, "expected a tuple", "1, }" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
          GA_IO_MALFORMED, "negative dimension", "-1" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (1 2,), }",
          GA_IO_MALFORMED, "expected ',' or ')'", "2,)" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } x",
          GA_IO_MALFORMED, "unexpected text after the header dict", "x" },
        { "{'descr': '<f4' 'fortran_order': False, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected ',' or '}'", "'fortran_order'" },
        { "'descr': '<f4', 'fortran_order': False, 'shape': (1,), }",
          GA_IO_MALFORMED, "expected '{'", NULL },
        { "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }",
          GA_IO_UNSUPPORTED, "structured dtypes", "[(" },
        { "{'descr': 'f4\\x', 'fortran_order': False, 'shape': (1,), }",
          GA_IO_MALFORMED, "escape sequence", "\\x" },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (), }",
          GA_IO_UNSUPPORTED, "shape () is 0-D", NULL },
        { "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
          GA_IO_MALFORMED, "exceeds 2^64", NULL },
    };
    const char *p = tmp_path("crafted.npy");
    char at[64];

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_npy(p, 1, 0, cases[i].dict, one_f32, 4);
        if (cases[i].at != NULL) {
            /* 10 bytes of magic, version and length precede the dict. */
            snprintf(at, sizeof at, "byte %zu:",
                     10 + (size_t)(strstr(cases[i].dict, cases[i].at) - cases[i].dict));
        }
        print_message("# case %zu: %s\n", i, cases[i].dict);
        expect_npy_error(p, f32, cases[i].status, cases[i].part, cases[i].at ? at : NULL);
    }
}

/* Python literal syntax NumPy's reader accepts: double quotes, any key
 * order, newlines, Python 2's long suffix, no trailing comma, version 2.0. */
static void test_liberal_headers(void **state)
{
    static const char *const dicts[] = {
        "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<f4\"}",
        "{'descr':'<f4','fortran_order':False,'shape':(2L,)}\n",
        "{\n  'descr': '<f4',\n  'fortran_order': False,\n  'shape': ( 2 , ),\n}    \n",
    };
    static const unsigned char two[8] = { 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0 };   /* 1.0f, -2.0f */
    const char *p = tmp_path("liberal.npy");

    (void)state;
    for (int version = 1; version <= 2; version++) {
        for (size_t i = 0; i < sizeof dicts / sizeof dicts[0]; i++) {
            ga_bits *v;
            size_t n;
            struct ga_io_error err;
            write_npy(p, version, 0, dicts[i], two, sizeof two);
            if (read_npy(p, f32, &v, &n, &err) != GA_IO_OK)
                fail_msg("%s: %s", dicts[i], err.message);
            assert_int_equal(n, 2);
            assert_int_equal(v[0], 0x3f800000);
            assert_int_equal(v[1], 0xc0000000);
            free(v);
        }
    }
}

/* ---- writing ---- */

static void fill_random(const struct ga_format *f, ga_bits *v, size_t n, struct test_rng *rng)
{
    for (size_t i = 0; i < n; i++)
        v[i] = test_rng_encoding(rng, f);
}

/* Our file of make.py's values is byte for byte NumPy's (NumPy 1.24 also
 * pads to 64 bytes; its extra room for growing the shape fits in the same
 * 128-byte header). */
static void test_written_equals_numpy(void **state)
{
    static const struct { const char *npy, *txt; enum ga_format_id id; } cases[] = {
        { "f32.npy", "f32.txt", GA_FLOAT32 },
        { "f16.npy", "f16.txt", GA_FLOAT16 },
        { "bf16.npy", "bf16.txt", GA_BFLOAT16 },
    };
    unsigned char ours[512], theirs[512];

    (void)state;
    for (size_t i = 0; i < 3; i++) {
        const struct ga_format *f = ga_format_get(cases[i].id);
        ga_bits v[16];
        size_t n = read_hex(cases[i].txt, f, v, 16), a, b;
        const char *p = tmp_path("ours.npy");
        assert_int_equal(write_array_npy(p, f, v, n, true, NULL), GA_IO_OK);
        a = read_bytes(p, ours, sizeof ours);
        b = read_bytes(data_path(cases[i].npy), theirs, sizeof theirs);
        assert_int_equal(a, b);
        assert_memory_equal(ours, theirs, a);
    }
}

/* Header layout for any length: version 1.0, data on a 64-byte boundary,
 * the header ending in '\n', NumPy's dict text. */
static void test_written_header_layout(void **state)
{
    static const uint64_t lengths[] = { 0, 1, 9, 10, 65536, 4294967296u };
    unsigned char buf[256];
    char expected[128];

    (void)state;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        struct ga_array_writer w;
        const char *p = tmp_path("layout.npy");
        size_t hlen, n;

        /* Start a writer and abort it after the header: the header is
         * flushed to the temporary file, which we read before aborting. */
        assert_int_equal(ga_npy_create(p, f16, lengths[i], true, &w, NULL), GA_IO_OK);
        n = read_bytes(w.file.tmp_path, buf, sizeof buf);
        ga_array_abort(&w);
        assert_memory_equal(buf, "\x93NUMPY\x01\x00", 8);
        hlen = buf[8] | (size_t)buf[9] << 8;
        assert_int_equal((10 + hlen) % 64, 0);
        assert_int_equal(n, 10 + hlen);
        assert_int_equal(buf[10 + hlen - 1], '\n');
        snprintf(expected, sizeof expected,
                 "{'descr': '<f2', 'fortran_order': False, 'shape': (%llu,), }",
                 (unsigned long long)lengths[i]);
        assert_memory_equal(buf + 10, expected, strlen(expected));
        for (size_t j = 10 + strlen(expected); j < 10 + hlen - 1; j++)
            assert_int_equal(buf[j], ' ');
        assert_int_equal(access(p, F_OK), -1);   /* aborted: never created */
    }
}

static void round_trip(const struct ga_format *f, enum ga_file_kind kind, size_t n,
                       struct test_rng *rng)
{
    ga_bits *v = malloc((n + 1) * sizeof *v), *back;
    const char *p = tmp_path(kind == GA_FILE_NPY ? "round.npy" : "round.bin");
    struct ga_io_error err;
    size_t m;

    fill_random(f, v, n, rng);
    if (kind == GA_FILE_NPY) {
        assert_int_equal(write_array_npy(p, f, v, n, true, &err), GA_IO_OK);
        assert_int_equal(read_npy(p, f, &back, &m, &err), GA_IO_OK);
    } else {
        assert_int_equal(ga_file_write(p, GA_FILE_RAW, f, v, n, true, &err), GA_IO_OK);
        assert_int_equal(ga_file_read(p, GA_FILE_RAW, f, &back, &m, &err), GA_IO_OK);
    }
    assert_int_equal(m, n);
    if (n > 0)
        assert_memory_equal(back, v, n * sizeof *v);
    free(back);
    free(v);
}

static void test_round_trips(void **state)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 16383, 16384, 16385, 100000 };
    struct test_rng rng = test_rng(0);

    (void)state;
    for (int id = 0; id < GA_FORMAT_COUNT; id++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            round_trip(ga_format_get((enum ga_format_id)id), GA_FILE_NPY, sizes[i], &rng);
            round_trip(ga_format_get((enum ga_format_id)id), GA_FILE_RAW, sizes[i], &rng);
        }
}

/* Raw files are little-endian whatever the host: check the bytes. */
static void test_raw_bytes(void **state)
{
    static const ga_bits v32[2] = { 0x3f800000, 0x01020304 };
    static const ga_bits v16[2] = { 0x3c00, 0xabcd };
    static const unsigned char b32[8] = { 0, 0, 0x80, 0x3f, 4, 3, 2, 1 };
    static const unsigned char b16[4] = { 0x00, 0x3c, 0xcd, 0xab };
    unsigned char buf[16];
    const char *p = tmp_path("bytes.bin");

    (void)state;
    assert_int_equal(ga_file_write(p, GA_FILE_RAW, f32, v32, 2, true, NULL), GA_IO_OK);
    assert_int_equal(read_bytes(p, buf, sizeof buf), 8);
    assert_memory_equal(buf, b32, 8);
    assert_int_equal(ga_file_write(p, GA_FILE_RAW, f16, v16, 2, true, NULL), GA_IO_OK);
    assert_int_equal(read_bytes(p, buf, sizeof buf), 4);
    assert_memory_equal(buf, b16, 4);
}

static void test_raw_errors(void **state)
{
    const char *p = tmp_path("odd.bin");
    struct ga_array_reader r;
    struct ga_io_error err;

    (void)state;
    write_bytes(p, "\1\2\3\4\5\6", 6);
    assert_int_equal(ga_raw_open(p, f32, &r, &err), GA_IO_MALFORMED);
    assert_contains(err.message, p);
    assert_contains(err.message, "6 bytes is not a whole number of 4-byte float32 elements");
    assert_contains(err.message, "2 bytes left over at byte 4");
    /* The same 6 bytes are 3 float16 elements. */
    assert_int_equal(ga_raw_open(p, f16, &r, &err), GA_IO_OK);
    assert_int_equal(r.length, 3);
    ga_array_close(&r);
    write_bytes(p, "\1\2\3", 3);
    assert_int_equal(ga_raw_open(p, bf16, &r, &err), GA_IO_MALFORMED);
    assert_contains(err.message, "2-byte bfloat16");
}

/* Existing files survive unless overwrite is asked for; no temporary
 * files are left behind, on success or failure. */
static void test_no_overwrite(void **state)
{
    static const ga_bits a[2] = { 1, 2 }, b[3] = { 3, 4, 5 };
    const char *p = tmp_path("keep.npy");
    struct ga_io_error err;
    ga_bits *v;
    size_t n;
    DIR *d;
    struct dirent *e;

    (void)state;
    unlink(p);
    assert_int_equal(write_array_npy(p, f32, a, 2, false, &err), GA_IO_OK);
    assert_int_equal(write_array_npy(p, f32, b, 3, false, &err), GA_IO_EXISTS);
    assert_contains(err.message, p);
    assert_contains(err.message, "not overwritten");
    assert_int_equal(ga_file_write(p, GA_FILE_RAW, f32, b, 3, false, &err), GA_IO_EXISTS);
    assert_int_equal(read_npy(p, f32, &v, &n, NULL), GA_IO_OK);
    assert_int_equal(n, 2);
    free(v);
    assert_int_equal(write_array_npy(p, f32, b, 3, true, &err), GA_IO_OK);
    assert_int_equal(read_npy(p, f32, &v, &n, NULL), GA_IO_OK);
    assert_int_equal(n, 3);
    assert_int_equal(v[2], 5);
    free(v);

    /* The file appears between create and commit: commit must not replace it. */
    {
        struct ga_array_writer w;
        const char *q = tmp_path("race.npy");
        unlink(q);
        assert_int_equal(ga_npy_create(q, f32, 2, false, &w, NULL), GA_IO_OK);
        assert_int_equal(ga_array_append(&w, a, 2, NULL), GA_IO_OK);
        write_bytes(q, "theirs", 6);
        assert_int_equal(ga_array_commit(&w, &err), GA_IO_EXISTS);
        assert_contains(err.message, "appeared while it was being written");
        assert_int_equal(ga_file_read(q, GA_FILE_RAW, bf16, &v, &n, NULL), GA_IO_OK);
        assert_int_equal(n, 3);   /* still the 6 bytes written above */
        free(v);
    }

    d = opendir(tmp_dir);
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp") != NULL)
            fail_msg("temporary file %s left behind", e->d_name);
    closedir(d);
}

/* Writers refuse too many or too few elements and values that do not fit. */
static void test_writer_checks(void **state)
{
    static const ga_bits v[3] = { 1, 2, 0x10000 };
    const char *p = tmp_path("checks.npy");
    struct ga_array_writer w;
    struct ga_io_error err;

    (void)state;
    unlink(p);
    assert_int_equal(ga_npy_create(p, f16, 2, false, &w, NULL), GA_IO_OK);
    assert_int_equal(ga_array_append(&w, v, 3, &err), GA_IO_RANGE);
    assert_contains(err.message, "exceed the announced length 2");
    assert_int_equal(ga_array_append(&w, v, 1, &err), GA_IO_OK);
    assert_int_equal(ga_array_commit(&w, &err), GA_IO_RANGE);
    assert_contains(err.message, "1 of the 2 announced elements");
    assert_int_equal(access(p, F_OK), -1);

    assert_int_equal(ga_raw_create(p, f16, 3, false, &w, NULL), GA_IO_OK);
    assert_int_equal(ga_array_append(&w, v, 3, &err), GA_IO_RANGE);
    assert_contains(err.message, "element 2 is 0x10000, not a float16 encoding");
    ga_array_abort(&w);
    assert_int_equal(access(p, F_OK), -1);
}

/* Partial reads, range checks, and the length-mismatch helper. */
static void test_reader(void **state)
{
    struct ga_array_reader a, b;
    struct ga_io_error err;
    ga_bits expected[16], v[16];
    const char *p = tmp_path("short.bin");

    (void)state;
    read_hex("f32.txt", f32, expected, 16);
    assert_int_equal(ga_npy_open(data_path("f32.npy"), f32, &a, NULL), GA_IO_OK);
    assert_int_equal(ga_array_read(&a, 5, 7, v, &err), GA_IO_OK);
    assert_memory_equal(v, expected + 5, 7 * sizeof *v);
    assert_int_equal(ga_array_read(&a, 16, 0, v, &err), GA_IO_OK);
    assert_int_equal(ga_array_read(&a, 10, 7, v, &err), GA_IO_RANGE);
    assert_contains(err.message, "[10, 17) asked for, the array has 16");

    assert_int_equal(ga_file_write(p, GA_FILE_RAW, f32, expected, 15, true, NULL), GA_IO_OK);
    assert_int_equal(ga_raw_open(p, f32, &b, NULL), GA_IO_OK);
    assert_int_equal(ga_array_check_same_length(&a, &b, &err), GA_IO_MISMATCH);
    assert_contains(err.message, "f32.npy has 16 elements but");
    assert_contains(err.message, "short.bin has 15");
    assert_int_equal(ga_array_check_same_length(&a, &a, &err), GA_IO_OK);
    ga_array_close(&a);
    ga_array_close(&b);
}

/* Magic-byte detection, and opening with detection. */
static void test_detect(void **state)
{
    const char *raw = tmp_path("detect.bin");
    enum ga_file_kind kind;
    struct ga_array_reader r;
    struct ga_io_error err;

    (void)state;
    assert_int_equal(ga_file_detect(data_path("f16.npy"), &kind, NULL), GA_IO_OK);
    assert_int_equal(kind, GA_FILE_NPY);
    assert_int_equal(ga_file_detect(data_path("f32_truncated.npy"), &kind, NULL), GA_IO_OK);
    assert_int_equal(kind, GA_FILE_NPY);
    write_bytes(raw, "\x93NUMP", 5);   /* shorter than the magic: raw */
    assert_int_equal(ga_file_detect(raw, &kind, NULL), GA_IO_OK);
    assert_int_equal(kind, GA_FILE_RAW);
    write_bytes(raw, "\0\0\x80\x3f", 4);
    assert_int_equal(ga_file_detect(raw, &kind, NULL), GA_IO_OK);
    assert_int_equal(kind, GA_FILE_RAW);
    assert_int_equal(ga_file_detect(tmp_path("none"), &kind, &err), GA_IO_SYSTEM);
    assert_contains(err.message, "cannot open");

    assert_int_equal(ga_file_open(raw, GA_FILE_AUTO, f32, &r, NULL), GA_IO_OK);
    assert_int_equal(r.kind, GA_FILE_RAW);
    assert_int_equal(r.length, 1);
    ga_array_close(&r);
    assert_int_equal(ga_file_open(data_path("bf16.npy"), GA_FILE_AUTO, NULL, &r, NULL), GA_IO_OK);
    assert_int_equal(r.kind, GA_FILE_NPY);
    assert_ptr_equal(r.format, bf16);
    ga_array_close(&r);
    assert_int_equal(ga_file_open(raw, GA_FILE_AUTO, NULL, &r, &err), GA_IO_UNSUPPORTED);
    assert_contains(err.message, "does not say its format");
    /* Forced raw: the .npy header is read as elements. */
    assert_int_equal(ga_file_open(data_path("f32.npy"), GA_FILE_RAW, f32, &r, NULL), GA_IO_OK);
    assert_int_equal(r.length, 192 / 4);
    ga_array_close(&r);
}

static int setup(void **state)
{
    const char *src = getenv("top_srcdir");
    const char *tmp = getenv("TMPDIR");

    (void)state;
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    test_random_init();
    snprintf(data_dir, sizeof data_dir, "%s/tests/data/npy", src ? src : ".");
    if (access(data_dir, R_OK) != 0) {
        fprintf(stderr, "npy_test: no test data in %s (set top_srcdir)\n", data_dir);
        return -1;
    }
    snprintf(tmp_dir, sizeof tmp_dir, "%s/npy_test.XXXXXX", tmp ? tmp : "/tmp");
    if (mkdtemp(tmp_dir) == NULL)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    DIR *d = opendir(tmp_dir);
    struct dirent *e;
    char path[8192];

    (void)state;
    if (d != NULL) {
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", tmp_dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(tmp_dir);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numpy_float32),
        cmocka_unit_test(test_numpy_float16),
        cmocka_unit_test(test_numpy_bfloat16_bits),
        cmocka_unit_test(test_format_from_dtype),
        cmocka_unit_test(test_numpy_float64),
        cmocka_unit_test(test_numpy_variants_same_array),
        cmocka_unit_test(test_numpy_error_files),
        cmocka_unit_test(test_wrong_format),
        cmocka_unit_test(test_bad_magic_and_version),
        cmocka_unit_test(test_malformed_headers),
        cmocka_unit_test(test_liberal_headers),
        cmocka_unit_test(test_written_equals_numpy),
        cmocka_unit_test(test_written_header_layout),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_raw_bytes),
        cmocka_unit_test(test_raw_errors),
        cmocka_unit_test(test_no_overwrite),
        cmocka_unit_test(test_writer_checks),
        cmocka_unit_test(test_reader),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests_name("npy", tests, setup, teardown);
}
