/* Kernel specs (src/measure/kernel_spec.c) and graded outputs
 * (src/measure/graded.c): a catalogue name, plugin:PATH:SYMBOL and
 * outputs:FILE, with their failures (unknown name, no version for the format,
 * bad domain, missing inputs, files of different lengths, a read that fails
 * during the sweep), and relative paths resolved against a base directory,
 * a file: domain included.  Graded outputs are the MPFR oracle's correctly
 * rounded results with chosen encodings moved by a known number of ulps, so
 * the sweep's counts are known before it runs. */
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

#include "impls/impl.h"
#include "io/array_open.h"
#include "measure/kernel_spec.h"
#include "measure/sweep.h"

static const struct ga_format *f32, *bf16;
static char dir[4096];
static const char *plugin_dir;

static const char *in_dir(const char *name)
{
    static char paths[4][8192];
    static unsigned next;
    char *p = paths[next++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static void put_text(const char *name, const char *text)
{
    FILE *f = fopen(in_dir(name), "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static enum ga_io_status open_spec(struct ga_kernel *k, const char *spec,
                                   const struct ga_format *f, const char *domain,
                                   const char *inputs, const char *base, struct ga_io_error *err)
{
    struct ga_kernel_request rq = { .spec = spec, .format = f, .reference = GA_GELU,
                                    .domain = domain, .inputs = inputs, .base_dir = base };
    return ga_kernel_open(k, &rq, err);
}

static void assert_closed(const struct ga_kernel *k)
{
    assert_null(k->measurement.impl);
    assert_null(k->plugin);
    assert_false(k->has_domain);
    assert_false(k->has_graded);
}

static void test_resolve_path(void **state)
{
    char *p;
    (void)state;
    assert_string_equal(p = ga_kernel_resolve_path(NULL, "a/b"), "a/b");
    free(p);
    assert_string_equal(p = ga_kernel_resolve_path("/base", "a/b"), "/base/a/b");
    free(p);
    assert_string_equal(p = ga_kernel_resolve_path("rel", "x"), "rel/x");
    free(p);
    assert_string_equal(p = ga_kernel_resolve_path("/base", "/abs/x"), "/abs/x");
    free(p);
}

static void test_catalogue_name(void **state)
{
    struct ga_kernel k;
    struct ga_io_error err;
    (void)state;
    assert_int_equal(open_spec(&k, "erf", bf16, NULL, NULL, NULL, &err), GA_IO_OK);
    assert_ptr_equal(k.measurement.impl, ga_catalogue_find("erf"));
    assert_int_equal(k.measurement.reference, GA_GELU);
    assert_true(k.has_domain);
    assert_int_equal(k.domain.kind, GA_DOMAIN_ALL);   /* 16-bit default: every encoding */
    assert_int_equal(k.domain.size, 65536);
    ga_kernel_close(&k);
    assert_closed(&k);
    ga_kernel_close(&k);   /* twice: harmless */
    /* float32's default: every 4096th encoding */
    assert_int_equal(open_spec(&k, "tanh", f32, NULL, NULL, NULL, &err), GA_IO_OK);
    assert_int_equal(k.domain.kind, GA_DOMAIN_STRIDE);
    assert_int_equal(k.domain.size, 1u << 20);
    ga_kernel_close(&k);
    /* a domain given: [1, 2] holds 2^7 + 1 bfloat16 values */
    assert_int_equal(open_spec(&k, "erf", bf16, "range:1:2", NULL, NULL, &err), GA_IO_OK);
    assert_int_equal(k.domain.size, 129);
    ga_kernel_close(&k);
}

static void test_catalogue_failures(void **state)
{
    struct ga_kernel k;
    struct ga_io_error err;
    (void)state;
    assert_int_equal(open_spec(&k, "nope", bf16, NULL, NULL, NULL, &err), GA_IO_BAD_SPEC);
    assert_non_null(strstr(err.message, "unknown implementation 'nope'"));
    assert_closed(&k);
    /* the ggml table has float32 and float16 versions only */
    assert_int_equal(open_spec(&k, "lut_f16", bf16, NULL, NULL, NULL, &err), GA_IO_BAD_SPEC);
    assert_non_null(strstr(err.message, "'lut_f16' has no bfloat16 version"));
    assert_closed(&k);
    assert_int_equal(open_spec(&k, "erf", bf16, "range:1", NULL, NULL, &err), GA_IO_BAD_SPEC);
    assert_non_null(strstr(err.message, "range:1"));
    assert_closed(&k);
    assert_int_equal(open_spec(&k, "erf", bf16, "file:no_such_list.txt", NULL, dir, &err),
                     GA_IO_BAD_SPEC);
    assert_non_null(strstr(err.message, in_dir("no_such_list.txt")));
    assert_closed(&k);
}

/* file: domains: a relative path is found in the base directory, an
 * absolute one where it says. */
static void test_file_domain_relative(void **state)
{
    struct ga_kernel k;
    struct ga_io_error err;
    char spec[8300];
    (void)state;
    put_text("list.txt", "# two inputs\n0x3f80\n4000\n");
    assert_int_equal(open_spec(&k, "erf", bf16, "file:list.txt", NULL, dir, &err), GA_IO_OK);
    assert_int_equal(k.domain.kind, GA_DOMAIN_LIST);
    assert_int_equal(k.domain.size, 2);
    assert_int_equal(k.domain.list[0], 0x3f80);
    assert_int_equal(k.domain.list[1], 0x4000);
    ga_kernel_close(&k);
    snprintf(spec, sizeof spec, "file:%s", in_dir("list.txt"));
    assert_int_equal(open_spec(&k, "erf", bf16, spec, NULL, "/nonexistent", &err), GA_IO_OK);
    assert_int_equal(k.domain.size, 2);
    ga_kernel_close(&k);
    /* without a base, relative to the current directory (not dir) */
    assert_int_equal(open_spec(&k, "erf", bf16, "file:list.txt", NULL, NULL, &err),
                     GA_IO_BAD_SPEC);
}

static void test_plugin(void **state)
{
    struct ga_kernel k;
    struct ga_io_error err;
    char spec[8300];
    (void)state;
    if (plugin_dir == NULL)
        skip();
    /* relative to the base directory */
    assert_int_equal(open_spec(&k, "plugin:good.so:good_gelu_bf16", bf16, "range:1:2", NULL,
                               plugin_dir, &err), GA_IO_OK);
    assert_non_null(k.plugin);
    assert_ptr_equal(k.measurement.impl, ga_plugin_impl(k.plugin));
    assert_int_equal(k.measurement.impl->approximates, GA_GELU);
    assert_true(ga_impl_supports(k.measurement.impl, bf16));
    assert_int_equal(k.domain.size, 129);
    ga_kernel_close(&k);
    assert_closed(&k);
    /* the reference asked for is what the plugin approximates */
    struct ga_kernel_request rq = { .spec = "plugin:good.so:good_gelu_f32", .format = f32,
                                    .reference = GA_GELU_TANH, .base_dir = plugin_dir };
    assert_int_equal(ga_kernel_open(&k, &rq, &err), GA_IO_OK);
    assert_int_equal(k.measurement.impl->approximates, GA_GELU_TANH);
    ga_kernel_close(&k);
    /* absolute paths ignore the base */
    snprintf(spec, sizeof spec, "plugin:%s/good.so:good_gelu_f32", plugin_dir);
    assert_int_equal(open_spec(&k, spec, f32, NULL, NULL, "/nonexistent", &err), GA_IO_OK);
    ga_kernel_close(&k);
    /* failures leave nothing open */
    assert_int_equal(open_spec(&k, "plugin:good.so:no_such_symbol", f32, NULL, NULL, plugin_dir,
                               &err), GA_IO_LOAD);
    assert_closed(&k);
    assert_int_equal(open_spec(&k, "plugin:good.so:good_gelu_f32", f32, NULL, NULL, dir, &err),
                     GA_IO_LOAD);
    assert_non_null(strstr(err.message, in_dir("good.so")));
    assert_int_equal(open_spec(&k, "plugin:good.so", f32, NULL, NULL, NULL, &err),
                     GA_IO_BAD_SPEC);
    /* a plugin with a bad domain is closed again */
    assert_int_equal(open_spec(&k, "plugin:good.so:good_gelu_bf16", bf16, "stride:0", NULL,
                               plugin_dir, &err), GA_IO_BAD_SPEC);
    assert_closed(&k);
}

/* ---- outputs: graded against an inputs file ---- */

enum { N = 200 };

/* N bfloat16 inputs over [-8, 8), written as inputs.npy; outputs.bin holds
 * the correctly rounded results, with output i moved by shift[i] encodings;
 * only the first n_out outputs are written. */
static void write_graded(const int *shift, ga_bits *in, size_t n_out)
{
    ga_bits out[N];
    struct ga_io_error err;
    for (size_t i = 0; i < N; i++) {
        struct ga_truth t;
        in[i] = ga_encode(bf16, -8 + 16.0 * (double)i / N);
        assert_int_equal(ga_truth_mpfr(GA_GELU, bf16, in[i], &t), GA_TRUTH_OK);
        out[i] = (ga_bits)(t.rounded + shift[i]);
    }
    assert_int_equal(ga_file_write(in_dir("inputs.npy"), GA_FILE_NPY, bf16, in, N, true, &err),
                     GA_IO_OK);
    assert_int_equal(ga_file_write(in_dir("outputs.bin"), GA_FILE_RAW, bf16, out, n_out, true,
                                   &err), GA_IO_OK);
}

static void test_outputs_graded(void **state)
{
    int shift[N] = { 0 };
    ga_bits in[N], where;
    struct ga_kernel k;
    struct ga_io_error err;
    struct ga_summary all;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_MPFR, .threads = 2 };
    (void)state;
    /* 3 outputs off by 1, 1 and 4 encodings (x = 1.6, 2.4, 3.2) */
    shift[120] = 1;
    shift[130] = -1;
    shift[140] = 4;
    write_graded(shift, in, N);
    assert_int_equal(open_spec(&k, "outputs:outputs.bin", bf16, NULL, "inputs.npy", dir, &err),
                     GA_IO_OK);
    assert_true(k.has_graded);
    assert_null(k.measurement.impl);
    assert_int_equal(k.domain.kind, GA_DOMAIN_SOURCE);
    assert_int_equal(k.domain.size, N);
    assert_string_equal(k.domain.spec, "inputs.npy");   /* as the user wrote it */
    assert_int_equal(ga_sweep_run(bf16, &k.domain, &k.measurement, 1, &so, &where), GA_SWEEP_OK);
    assert_int_equal(ga_measurement_summary(&k.measurement, GA_REGION_ALL, &all), 0);
    assert_int_equal(all.count, N);
    assert_int_equal(all.correctly_rounded, N - 3);
    assert_int_equal(all.distance[1], 2);
    assert_int_equal(all.distance[3], 1);   /* 4 is in bucket 3-4 */
    assert_true(all.max_ulp.has);
    assert_int_equal(all.max_ulp.x, in[140]);
    assert_true(all.max_ulp.error > 3.5 && all.max_ulp.error < 4.5);
    ga_measurement_clear(&k.measurement);
    assert_false(k.graded.failed);
    ga_kernel_close(&k);
    assert_closed(&k);
}

static void test_outputs_failures(void **state)
{
    int shift[N] = { 0 };
    ga_bits in[N], where;
    struct ga_kernel k;
    struct ga_io_error err;
    struct ga_sweep_options so = { .oracle = GA_ORACLE_FAST, .threads = 1 };
    (void)state;
    /* no inputs file named */
    assert_int_equal(open_spec(&k, "outputs:outputs.bin", bf16, NULL, NULL, dir, &err),
                     GA_IO_BAD_SPEC);
    assert_non_null(strstr(err.message, "'outputs:outputs.bin' needs an inputs file"));
    assert_closed(&k);
    /* an inputs file that is not there: named, resolved */
    write_graded(shift, in, N);
    assert_int_equal(open_spec(&k, "outputs:outputs.bin", bf16, NULL, "missing.npy", dir, &err),
                     GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, in_dir("missing.npy")));
    assert_closed(&k);
    assert_int_equal(open_spec(&k, "outputs:nothing.bin", bf16, NULL, "inputs.npy", dir, &err),
                     GA_IO_SYSTEM);
    assert_non_null(strstr(err.message, in_dir("nothing.bin")));
    /* one output short */
    write_graded(shift, in, N - 1);
    assert_int_equal(open_spec(&k, "outputs:outputs.bin", bf16, NULL, "inputs.npy", dir, &err),
                     GA_IO_MISMATCH);
    assert_closed(&k);
    /* the outputs file shrinks after opening: the sweep stops, and the first
     * failure says where */
    write_graded(shift, in, N);
    assert_int_equal(open_spec(&k, "outputs:outputs.bin", bf16, NULL, "inputs.npy", dir, &err),
                     GA_IO_OK);
    assert_int_equal(truncate(in_dir("outputs.bin"), 100), 0);
    assert_int_equal(ga_sweep_run(bf16, &k.domain, &k.measurement, 1, &so, &where),
                     GA_SWEEP_READ_FAILED);
    assert_true(k.graded.failed);
    assert_non_null(k.measurement.outputs.error(k.measurement.outputs.ctx));
    assert_non_null(strstr(k.graded.error.message, "outputs.bin"));
    ga_measurement_clear(&k.measurement);
    ga_kernel_close(&k);
}

static int setup(void **state)
{
    const char *tmp = getenv("TMPDIR");
    (void)state;
    f32 = ga_format_get(GA_FLOAT32);
    bf16 = ga_format_get(GA_BFLOAT16);
    plugin_dir = getenv("GELU_ACC_PLUGIN_DIR");
    if (plugin_dir != NULL && plugin_dir[0] == '\0')
        plugin_dir = NULL;
    if (plugin_dir == NULL)
        printf("# GELU_ACC_PLUGIN_DIR is unset: the plugin: test is skipped\n");
    snprintf(dir, sizeof dir, "%s/kernel_spec_test.XXXXXX", tmp ? tmp : "/tmp");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    static const char *const names[] = { "list.txt", "inputs.npy", "outputs.bin" };
    (void)state;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(in_dir(names[i]));
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve_path),
        cmocka_unit_test(test_catalogue_name),
        cmocka_unit_test(test_catalogue_failures),
        cmocka_unit_test(test_file_domain_relative),
        cmocka_unit_test(test_plugin),
        cmocka_unit_test(test_outputs_graded),
        cmocka_unit_test(test_outputs_failures),
    };
    return cmocka_run_group_tests_name("kernel_spec", tests, setup, teardown);
}
