/* Shards of a domain (shard.h). */
#include "state/shard.h"

#include <string.h>

#include "io/parse_count.h"

int ga_shard_parse(const char *text, uint32_t *k, uint32_t *n)
{
    const char *slash = strchr(text, '/');
    char first[16];
    uint64_t kk, nn;

    if (!slash || (size_t)(slash - text) >= sizeof first)
        return -1;
    memcpy(first, text, (size_t)(slash - text));
    first[slash - text] = '\0';
    if (ga_parse_count(first, GA_SHARD_MAX, &kk) != GA_COUNT_OK
        || ga_parse_count(slash + 1, GA_SHARD_MAX, &nn) != GA_COUNT_OK
        || kk < 1 || kk > nn)
        return -1;
    *k = (uint32_t)kk;
    *n = (uint32_t)nn;
    return 0;
}

void ga_shard_chunks(uint64_t chunks, uint32_t k, uint32_t n, uint64_t *first, uint64_t *end)
{
    /* products in 128 bits: no overflow for any chunk count */
    *first = (uint64_t)((unsigned __int128)chunks * (k - 1) / n);
    *end = (uint64_t)((unsigned __int128)chunks * k / n);
}
