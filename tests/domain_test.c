/* Domains (src/domain/domain.c): every kind's size worked out by hand, the
 * inputs each visits (range in increasing value with -0 before +0, stride
 * from its offset, random reproducible and the same in any chunking, file
 * lists as written), and the messages of bad specs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "formats/format.h"
#include "domain/domain.h"

static const struct ga_format *f32, *f16, *bf16;

static struct ga_domain parse_ok(const char *spec, const struct ga_format *f)
{
    struct ga_domain d;
    char err[256] = "";
    if (ga_domain_parse(&d, spec, f, err, sizeof err) != 0)
        fail_msg("%s: %s", spec, err);
    assert_string_equal(d.spec, spec);
    assert_ptr_equal(d.format, f);
    return d;
}

static void parse_fails(const char *spec, const struct ga_format *f, const char *message)
{
    struct ga_domain d;
    char err[256] = "";
    assert_int_equal(ga_domain_parse(&d, spec, f, err, sizeof err), -1);
    if (!strstr(err, message))
        fail_msg("%s: message '%s' lacks '%s'", spec, err, message);
    ga_domain_free(&d);
}

/* Every input of d, filled in chunks of `chunk`. */
static ga_bits *inputs(const struct ga_domain *d, size_t chunk)
{
    ga_bits *v = malloc((size_t)d->size * sizeof *v + 1);
    assert_non_null(v);
    for (uint64_t at = 0; at < d->size; at += chunk) {
        size_t n = d->size - at < chunk ? (size_t)(d->size - at) : chunk;
        assert_int_equal(ga_domain_fill(d, at, n, v + at), 0);
    }
    return v;
}

static void test_defaults_and_all(void **state)
{
    (void)state;
    assert_string_equal(ga_domain_default(f32), "stride:4096");
    assert_string_equal(ga_domain_default(f16), "all");
    assert_string_equal(ga_domain_default(bf16), "all");
    struct ga_domain d = parse_ok("all", bf16);
    assert_int_equal(d.kind, GA_DOMAIN_ALL);
    assert_int_equal(d.size, 65536);
    ga_bits *v = inputs(&d, 1000);
    for (uint32_t i = 0; i < 65536; i++)
        assert_int_equal(v[i], i);
    free(v);
    d = parse_ok("all", f32);
    assert_true(d.size == 4294967296u);
    ga_bits tail[3];
    assert_int_equal(ga_domain_fill(&d, 4294967293u, 3, tail), 0);
    assert_int_equal(tail[2], 0xffffffffu);
}

static void test_range(void **state)
{
    (void)state;
    /* [-1, 1] in float16: magnitudes 0 .. 0x3c00 of each sign */
    struct ga_domain d = parse_ok("range:-1:1", f16);
    assert_int_equal(d.kind, GA_DOMAIN_RANGE);
    assert_int_equal(d.size, 2 * (0x3c00 + 1));
    ga_bits *v = inputs(&d, 4096);
    assert_int_equal(v[0], 0xbc00);
    assert_int_equal(v[d.size - 1], 0x3c00);
    for (uint64_t i = 1; i < d.size; i++) {
        double a = ga_decode(f16, v[i - 1]), b = ga_decode(f16, v[i]);
        if (a == 0 && b == 0)   /* -0 just before +0 */
            assert_true(v[i - 1] == 0x8000 && v[i] == 0x0000);
        else
            assert_true(a < b && ga_next_up(f16, v[i - 1]) == v[i]);
    }
    free(v);
    /* bounds rounded to the format: 0.1 and 0.2 in bfloat16 */
    d = parse_ok("range:0.1:0.2", bf16);
    v = inputs(&d, 7);
    assert_int_equal(v[0], ga_encode(bf16, 0.1));
    assert_int_equal(v[d.size - 1], ga_encode(bf16, 0.2));
    assert_int_equal(d.size, ga_encode(bf16, 0.2) - ga_encode(bf16, 0.1) + 1);
    free(v);
    /* one value; the infinities; a negative range */
    assert_int_equal(parse_ok("range:2:2", f32).size, 1);
    assert_int_equal(parse_ok("range:-inf:inf", f16).size, 2 * (0x7c00 + 1));
    d = parse_ok("range:-3:-2", bf16);
    v = inputs(&d, 4096);
    assert_int_equal(v[0], 0xc040);
    assert_int_equal(v[d.size - 1], 0xc000);
    assert_int_equal(d.size, 0x40 + 1);
    free(v);
    parse_fails("range:3:1", f16, "A is above B");
    parse_fails("range:0:-0", f16, "A is above B");   /* +0 is above -0 */
    parse_fails("range:x:1", f16, "A 'x' is not a number");
    parse_fails("range:nan:1", f16, "A is NaN");
    parse_fails("range:1", f16, "expected range:A:B");
    parse_fails("range:1:2:x", f16, "N 'x' is not a decimal whole number");
}

static void test_stride(void **state)
{
    (void)state;
    struct ga_domain d = parse_ok("stride:4096", f32);
    assert_int_equal(d.kind, GA_DOMAIN_STRIDE);
    assert_int_equal(d.size, 1u << 20);
    ga_bits v[4];
    assert_int_equal(ga_domain_fill(&d, (1u << 20) - 2, 2, v), 0);
    assert_int_equal(v[0], 0xfffff000u - 4096);
    assert_int_equal(v[1], 0xfffff000u);
    /* 3 and offset 2 on 65536 encodings: 2, 5, ..., 65534 */
    d = parse_ok("stride:3:2", f16);
    assert_int_equal(d.size, 21845);
    assert_int_equal(ga_domain_fill(&d, 0, 2, v), 0);
    assert_int_equal(v[0], 2);
    assert_int_equal(v[1], 5);
    assert_int_equal(ga_domain_fill(&d, 21844, 1, v), 0);
    assert_int_equal(v[0], 65534);
    assert_int_equal(parse_ok("stride:65536", f16).size, 1);
    assert_int_equal(parse_ok("stride:010", bf16).size, 6554);   /* decimal, not octal */
    parse_fails("stride:0x10", bf16, "K '0x10' is not a decimal whole number");
    parse_fails("stride:0", f16, "K 0 is out of range (1 <= K <= 2^16)");
    parse_fails("stride:65537", f16, "K 65537 is out of range (1 <= K <= 2^16)");
    parse_fails("stride:4:4", f16, "OFFSET < K");
    parse_fails("stride:-4", f16, "K '-4' is not a decimal whole number");
    parse_fails("stride:4x", f16, "K '4x' is not a decimal whole number");
    parse_fails("stride:", f16, "K '' is not a decimal whole number");
}

static void test_random(void **state)
{
    (void)state;
    struct ga_domain d = parse_ok("random:100000", f16), same = parse_ok("random:100000:1", f16);
    struct ga_domain other = parse_ok("random:100000:2", f16);
    assert_int_equal(d.kind, GA_DOMAIN_RANDOM);
    assert_int_equal(d.size, 100000);
    ga_bits *a = inputs(&d, 4096), *b = inputs(&same, 333), *c = inputs(&other, 4096);
    assert_memory_equal(a, b, 100000 * sizeof *a);   /* seed 1 by default; any chunking */
    size_t differ = 0, seen_count = 0;
    static unsigned char seen[65536];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < 100000; i++) {
        differ += a[i] != c[i];
        assert_true(a[i] <= 0xffff);
        seen_count += !seen[a[i]];
        seen[a[i]] = 1;
    }
    assert_true(differ > 99000);          /* another seed, another stream */
    /* 10^5 uniform draws from 2^16 values cover 1 - e^(-1.53) = 78 % of them */
    assert_true(seen_count > 49000 && seen_count < 53000);
    free(a);
    free(b);
    free(c);
    /* float32: every bit used */
    d = parse_ok("random:4096:7", f32);
    a = inputs(&d, 4096);
    uint32_t any = 0, all = 0xffffffffu;
    for (size_t i = 0; i < 4096; i++) {
        any |= a[i];
        all &= a[i];
    }
    assert_int_equal(any, 0xffffffffu);
    assert_int_equal(all, 0);
    free(a);
    parse_fails("random:0", f16, "N 0 is out of range (1 <= N <= 2^32)");
    parse_fails("random:-3", f16, "N '-3' is not a decimal whole number");
    parse_fails("random:5:x", f16, "SEED 'x' is not a decimal whole number");
    parse_fails("random:", f16, "N '' is not a decimal whole number");
}

static void test_file_and_unknown(void **state)
{
    char path[4096], spec[4200];
    const char *tmp = getenv("TMPDIR");
    (void)state;
    snprintf(path, sizeof path, "%s/domain_test.XXXXXX", tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("# three inputs\n0x3c00\n\nbc00\n0x0000\n", f);
    fclose(f);
    snprintf(spec, sizeof spec, "file:%s", path);
    struct ga_domain d = parse_ok(spec, f16);
    assert_int_equal(d.kind, GA_DOMAIN_LIST);
    assert_int_equal(d.size, 3);
    ga_bits *v = inputs(&d, 2);
    assert_int_equal(v[0], 0x3c00);
    assert_int_equal(v[1], 0xbc00);
    assert_int_equal(v[2], 0x0000);
    free(v);
    ga_domain_free(&d);
    assert_null(d.list);
    ga_domain_free(&d);   /* twice: harmless */
    unlink(path);
    parse_fails(spec, f16, path);   /* gone: the message names it */
    parse_fails("everything", f16, "unknown domain 'everything' (all, range:A:B");
    parse_fails("", f16, "unknown domain ''");
}

static int read_squares(void *ctx, uint64_t first, size_t n, ga_bits *out)
{
    (void)ctx;
    for (size_t i = 0; i < n; i++)
        out[i] = (ga_bits)((first + i) * (first + i));
    return first + n > 10 ? -1 : 0;
}

static const char *no_message(void *ctx)
{
    (void)ctx;
    return "past 10";
}

static void test_source(void **state)
{
    struct ga_domain d;
    ga_bits v[12];
    (void)state;
    ga_domain_from_source(&d, f16, 10, (struct ga_source){ read_squares, no_message, NULL },
                          "squares.npy");
    assert_int_equal(d.kind, GA_DOMAIN_SOURCE);
    assert_int_equal(d.size, 10);
    assert_string_equal(d.spec, "squares.npy");
    assert_int_equal(ga_domain_fill(&d, 2, 3, v), 0);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[2], 16);
    assert_int_equal(ga_domain_fill(&d, 8, 4, v), -1);   /* the source's failure */
    ga_domain_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_all),
        cmocka_unit_test(test_range),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_file_and_unknown),
        cmocka_unit_test(test_source),
    };
    f32 = ga_format_get(GA_FLOAT32);
    f16 = ga_format_get(GA_FLOAT16);
    bf16 = ga_format_get(GA_BFLOAT16);
    return cmocka_run_group_tests_name("domain", tests, NULL, NULL);
}
