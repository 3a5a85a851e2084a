/* Manifests of real-library outputs (report/real_outputs.h): a refusal
 * names the file and the line; an accepted manifest has no NUL byte and
 * distinct, named sections, each with its library, version, operator,
 * format and a reference gelu or gelu_tanh, and either a reason it was not
 * run or outputs, inputs and a domain (and then no reason). */
#include "fuzz.h"

#include "report/real_outputs.h"

static void check_entry(const struct ga_real_outputs *ro, size_t i)
{
    const struct ga_real_outputs_entry *e = &ro->entries[i];

    FUZZ_ASSERT(e->name[0] && e->library[0] && e->version[0] && e->operator_text[0]
                && e->format);
    FUZZ_ASSERT(e->reference == GA_GELU || e->reference == GA_GELU_TANH);
    if (e->unsupported[0])
        FUZZ_ASSERT(!e->outputs[0] && !e->inputs[0] && !e->domain[0] && !e->graph[0]);
    else
        FUZZ_ASSERT(e->outputs[0] && e->inputs[0] && e->domain[0]);
    for (size_t j = 0; j < i; j++)
        FUZZ_ASSERT(strcmp(ro->entries[j].name, e->name) != 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024] = "";
    int fd = fuzz_file(data, size, path);
    struct ga_real_outputs ro;

    if (ga_real_outputs_read(path, &ro, err, sizeof err) != 0) {
        FUZZ_ASSERT(strncmp(err, path, strlen(path)) == 0 && err[strlen(path)] == ':');
        FUZZ_ASSERT(strlen(err) > strlen(path) + 2);
        FUZZ_ASSERT(ro.entries == NULL && ro.count == 0);
    } else {
        FUZZ_ASSERT(ro.count >= 1);
        FUZZ_ASSERT(memchr(data, '\0', size) == NULL);  /* a NUL would hide text */
        for (size_t i = 0; i < ro.count; i++)
            check_entry(&ro, i);
        ga_real_outputs_free(&ro);
    }
    close(fd);
    return 0;
}
