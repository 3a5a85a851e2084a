/* Audit state files (audit/audit_file.c) and report partial files
 * (state/report_partial.c), told apart by their magic.  The input's last 8
 * bytes are replaced by the checksum of the others, so that mutations reach
 * the field checks behind it.  A refusal has a message; an accepted file
 * encodes into bytes that read back the same. */
#include "fuzz.h"

#include "io/bytes.h"
#include "audit/audit.h"
#include "state/report_partial.h"

static void audit_file(const unsigned char *data, size_t size)
{
    struct ga_audit a, back;
    struct ga_io_error err = { 0 };
    unsigned char *again;
    size_t again_size;

    if (ga_audit_decode(data, size, &a, &err) != GA_IO_OK) {
        FUZZ_ASSERT(err.status != GA_IO_OK && err.message[0] != '\0');
        return;
    }
    FUZZ_ASSERT(a.first <= a.next && a.next <= a.end && a.listed <= GA_AUDIT_LISTED);
    FUZZ_ASSERT(ga_audit_encode(&a, &again, &again_size, &err) == GA_IO_OK);
    FUZZ_ASSERT(again_size == size && memcmp(again, data, size) == 0);
    FUZZ_ASSERT(ga_audit_decode(again, again_size, &back, &err) == GA_IO_OK);
    free(again);
}

static void report_partial(const unsigned char *data, size_t size)
{
    struct ga_report_partial *rp = malloc(sizeof *rp);
    struct ga_io_error err = { 0 };
    unsigned char *again;
    size_t again_size;

    FUZZ_ASSERT(rp);
    if (ga_report_partial_decode(data, size, rp, &err) != GA_IO_OK) {
        FUZZ_ASSERT(err.status != GA_IO_OK && err.message[0] != '\0');
    } else {
        FUZZ_ASSERT(ga_report_partial_encode(rp, &again, &again_size, &err) == GA_IO_OK);
        FUZZ_ASSERT(again_size == size && memcmp(again, data, size) == 0);
        free(again);
    }
    ga_report_partial_free(rp);
    free(rp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *copy = fuzz_checksummed(data, size);

    if (ga_report_partial_is(copy, size))
        report_partial(copy, size);
    else
        audit_file(copy, size);
    free(copy);
    return 0;
}
