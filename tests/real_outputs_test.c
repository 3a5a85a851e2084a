/* Manifests of real-library outputs (report/real_outputs.h): the sections
 * gelu-ort.mjs writes are read with their paths made relative to the
 * manifest, and every malformed manifest is refused with its file, line and
 * reason.  Expected fields are written by hand from each manifest's text. */
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

#include "report/real_outputs.h"

static char dir[64];
static char path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/real_outputs_test.XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    snprintf(path, sizeof path, "%s/manifest", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return rmdir(dir);
}

static void write_manifest(const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

static const char graded[] =
    "# written by a script\n"
    "[onnxruntime-gelu-float32]\n"
    "library = onnxruntime-node\n"
    "version = 1.30.0\n"
    "operator = Gelu (ai.onnx opset 20, approximate = none)\n"
    "format = float32\n"
    "reference = gelu\n"
    "kernel = outputs:out.npy\n"
    "inputs = in.npy\n"
    "domain = stride:16\n"
    "graph = Gelu\n"
    "path = long tensors\n"
    "lengths = lengths 1 and 67: the same bits on 16 inputs\n"
    "graded = out.json\n"
    "\n"
    "[onnxruntime-gelu-tanh-bfloat16]\n"
    "library = onnxruntime-node\n"
    "version = 1.30.0\n"
    "operator = Gelu (ai.onnx opset 20, approximate = tanh)\n"
    "format = bfloat16\n"
    "reference = gelu_tanh\n"
    "unsupported = the session fails   # a comment after a blank\n"
    "\n"
    "[absolute]\n"
    "library = L\n"
    "version = 1\n"
    "operator = op\n"
    "format = float16\n"
    "reference = gelu\n"
    "kernel = outputs:/data/y.npy\n"
    "inputs = /data/x.npy\n"
    "domain = all\n";

static void test_reads_graded_and_unsupported_sections(void **state)
{
    struct ga_real_outputs ro;
    char err[1024] = "", want[256];
    const struct ga_real_outputs_entry *e;

    (void)state;
    write_manifest(graded);
    if (ga_real_outputs_read(path, &ro, err, sizeof err) != 0)
        fail_msg("refused: %s", err);
    assert_int_equal(ro.count, 3);

    e = &ro.entries[0];
    assert_string_equal(e->name, "onnxruntime-gelu-float32");
    assert_string_equal(e->library, "onnxruntime-node");
    assert_string_equal(e->version, "1.30.0");
    assert_string_equal(e->operator_text, "Gelu (ai.onnx opset 20, approximate = none)");
    assert_ptr_equal(e->format, ga_format_get(GA_FLOAT32));
    assert_int_equal(e->reference, GA_GELU);
    snprintf(want, sizeof want, "%s/out.npy", dir);
    assert_string_equal(e->outputs, want);
    snprintf(want, sizeof want, "%s/in.npy", dir);
    assert_string_equal(e->inputs, want);
    assert_string_equal(e->domain, "stride:16");
    assert_string_equal(e->graph, "Gelu");
    assert_string_equal(e->path, "long tensors");
    assert_string_equal(e->lengths, "lengths 1 and 67: the same bits on 16 inputs");
    assert_string_equal(e->unsupported, "");
    assert_int_equal(e->line, 2);

    e = &ro.entries[1];
    assert_ptr_equal(e->format, ga_format_get(GA_BFLOAT16));
    assert_int_equal(e->reference, GA_GELU_TANH);
    assert_string_equal(e->unsupported, "the session fails");
    assert_string_equal(e->outputs, "");
    assert_string_equal(e->path, "");
    assert_string_equal(e->lengths, "");

    e = &ro.entries[2];
    assert_string_equal(e->outputs, "/data/y.npy");
    assert_string_equal(e->inputs, "/data/x.npy");
    ga_real_outputs_free(&ro);
    assert_null(ro.entries);
}

/* A manifest refused: its message starts with the file and names the line
 * and the reason. */
static void refused(const char *text, int line, const char *reason)
{
    struct ga_real_outputs ro;
    char err[1024] = "", where[160];

    write_manifest(text);
    if (ga_real_outputs_read(path, &ro, err, sizeof err) == 0)
        fail_msg("accepted, expected line %d: %s", line, reason);
    if (line > 0)
        snprintf(where, sizeof where, "%s:%d: ", path, line);
    else
        snprintf(where, sizeof where, "%s: ", path);
    if (strncmp(err, where, strlen(where)) != 0 || strstr(err, reason) == NULL)
        fail_msg("message \"%s\": expected \"%s...%s\"", err, where, reason);
    assert_null(ro.entries);
}

#define HEAD "[s]\nlibrary = L\nversion = 1\noperator = op\nformat = float16\nreference = gelu\n"

static void test_refusals_name_file_line_and_reason(void **state)
{
    (void)state;
    refused("", 0, "no section");
    refused("library = L\n", 1, "a setting before the first section");
    refused("[s]\nlibrary = L\nlibrary = M\n", 3, "'library' is given twice in this section (first at line 2)");
    refused(HEAD "colour = red\n", 7, "unknown key 'colour'");
    refused(HEAD "kernel = erf\n", 7, "outputs:FILE");
    refused(HEAD "kernel =\n", 7, "'kernel' has no value");
    refused("[s]\nformat = float99\n", 2, "unknown format 'float99'");
    refused("[s]\nreference = erf\n", 2, "reference 'erf': gelu or gelu_tanh");
    refused(HEAD "unsupported = no\ngraph = Gelu\n", 8, "'graph' with 'unsupported'");
    refused(HEAD "unsupported = no\nlengths = x\n", 8, "'lengths' with 'unsupported'");
    refused(HEAD "path = a\npath = b\n", 8, "'path' is given twice");
    refused(HEAD "kernel = outputs:y.npy\ninputs = x.npy\n", 1,
            "section [s] has neither 'domain' nor 'unsupported'");
    refused("[s]\nlibrary = L\n[t]\n", 1, "section [s] has no 'version'");
    refused(HEAD "unsupported = no\n[s]\n", 8, "section [s] is given twice (first at line 1)");
    refused(HEAD "domain all\n", 7, "expected 'key = value'");
    refused("[ s]\n", 1, "blanks around the section name");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reads_graded_and_unsupported_sections, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_refusals_name_file_line_and_reason, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
