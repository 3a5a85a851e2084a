/* gelu-acc sweep --input-format: GELU fused with a cast into a float8
 * format, every fused model under every overflow convention of the truth
 * (measure/cast_sweep.h), printed as the report's section prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/cast_section.h"
#include "measure/cast_sweep.h"

int ga_cli_sweep_cast(const struct ga_format *out, const char *input_format,
                      const char *domain_spec)
{
    const struct ga_format *in = ga_cli_format(input_format);
    struct ga_cast_result *r;
    struct ga_domain d;
    char err[512], hex[GA_BITS_TEXT_LEN];
    ga_bits undecided = 0;
    int status;

    if (!in)
        return GA_EXIT_USAGE;
    if (ga_is_small_format(in) || !ga_cast_output_allowed(out)) {
        ga_cli_error("sweep: --input-format casts GELU of a wide format (bfloat16, float16, "
                     "float32) into float8_e4m3fn or float8_e5m2; got %s into %s", in->name,
                     out->name);
        return GA_EXIT_USAGE;
    }
    if (!domain_spec && in->bits > 16) {
        ga_cli_error("sweep: --input-format %s needs --domain (every encoding goes through "
                     "MPFR: stride:65536 takes a second)", in->name);
        return GA_EXIT_USAGE;
    }
    if (ga_domain_parse(&d, domain_spec ? domain_spec : "all", in, err, sizeof err) != 0) {
        ga_cli_error("sweep: %s", err);
        return GA_EXIT_USAGE;
    }
    if (!(r = malloc(sizeof *r))) {
        ga_domain_free(&d);
        return GA_EXIT_INTERNAL;
    }
    switch (ga_cast_sweep(&d, out, r, &undecided)) {
    case GA_CAST_OK:
        status = ga_write_cast_markdown(stdout, r) == 0 && fflush(stdout) == 0 ? GA_EXIT_OK
                                                                             : GA_EXIT_USAGE;
        break;
    case GA_CAST_UNDECIDED:
        ga_format_bits(in, undecided, hex);
        ga_cli_error("sweep: the oracle reached its %d-bit cap on input %s",
                     GA_ZIV_MAX_PRECISION, hex);
        status = GA_EXIT_INTERNAL;
        break;
    default:
        ga_cli_error("sweep: the domain '%s' could not be read", d.spec);
        status = GA_EXIT_USAGE;
    }
    free(r);
    ga_domain_free(&d);
    return status;
}
