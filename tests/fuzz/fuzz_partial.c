/* Partial files (state/partial_file.c), and backward sweeps' partial files
 * (state/backward_sweep_file.c), told apart by their magic: an accepted one
 * encodes into the same bytes.  The input's last 8 bytes are
 * replaced by the checksum of the others, so that mutations reach the
 * field checks behind it instead of stopping at the checksum.  A refusal
 * has a message; an accepted partial summarizes every region without a
 * fault (keys, encodings and counts are trusted there) and encodes into a
 * file that reads back. */
#include "fuzz.h"

#include "io/bytes.h"
#include "state/backward_sweep_file.h"
#include "state/partial.h"

static void backward_file(const unsigned char *data, size_t size)
{
    struct ga_backward_sweep_file file;
    struct ga_io_error err = { 0 };
    unsigned char *again;
    size_t again_size;

    if (ga_backward_sweep_file_decode(data, size, &file, &err) != GA_IO_OK) {
        FUZZ_ASSERT(err.status != GA_IO_OK && err.message[0] != '\0');
    } else {
        FUZZ_ASSERT(file.part && file.part->first <= file.part->end);
        FUZZ_ASSERT(ga_backward_sweep_file_encode(&file, &again, &again_size, &err) == GA_IO_OK);
        FUZZ_ASSERT(again_size == size && memcmp(again, data, size) == 0);
        free(again);
    }
    ga_backward_sweep_file_free(&file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *copy = fuzz_checksummed(data, size), *again;
    struct ga_partial *p = NULL, *back = NULL;
    struct ga_io_error err = { 0 };
    size_t again_size;

    if (ga_backward_sweep_file_is(copy, size)) {
        backward_file(copy, size);
        free(copy);
        return 0;
    }
    if (ga_partial_decode(copy, size, &p, &err) != GA_IO_OK) {
        FUZZ_ASSERT(p == NULL && err.status != GA_IO_OK && err.message[0] != '\0');
        free(copy);
        return 0;
    }
    for (int r = 0; r <= GA_REGION_ALL; r++) {
        struct ga_summary s;
        FUZZ_ASSERT(ga_stats_summarize(p->m.stats, (enum ga_region)r, &s) == GA_STATS_OK);
        FUZZ_ASSERT(s.measured <= s.count);
    }
    FUZZ_ASSERT(p->first <= p->next && p->next <= p->end);
    FUZZ_ASSERT(ga_partial_encode(p, &again, &again_size, &err) == GA_IO_OK);
    FUZZ_ASSERT(ga_partial_decode(again, again_size, &back, &err) == GA_IO_OK);
    free(again);
    ga_partial_free(back);
    ga_partial_free(p);
    free(copy);
    return 0;
}
