/* A backward sweep's partial file (backward_sweep_file.h): the identity,
 * then the shard (backward_partial.c), framed with a checksum. */
#include "state/backward_sweep_file.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "io/bytes.h"
#include "io/whole_file.h"
#include "measure/backward_sweep.h"
#include "state/partial.h"
#include "state/state_header.h"

#define MAGIC "gelu-acc bwdpart"  /* 16 bytes, no NUL */
#define VERSION 1u

void ga_backward_sweep_file_free(struct ga_backward_sweep_file *file)
{
    ga_backward_partial_free(file->part);
    file->part = NULL;
}

bool ga_backward_sweep_file_is(const unsigned char *data, size_t size)
{
    return size >= GA_FRAME_MAGIC_LEN && memcmp(data, MAGIC, GA_FRAME_MAGIC_LEN) == 0;
}

enum ga_io_status ga_backward_sweep_file_encode(const struct ga_backward_sweep_file *file,
                                                unsigned char **data, size_t *size,
                                                struct ga_io_error *err)
{
    const struct ga_backward_sweep_id *id = &file->id;
    struct ga_byte_writer w = { 0 };

    ga_bytes_put_frame_head(&w, MAGIC, VERSION);
    ga_bytes_put_str(&w, id->program);
    ga_header_put_format(&w, file->part->format);
    ga_bytes_put_str(&w, id->kernel);
    ga_bytes_put_str(&w, ga_function_name(id->reference));
    ga_bytes_put_str(&w, id->domain);
    ga_bytes_put_u64(&w, id->pairs);
    ga_bytes_put_u64(&w, id->dy);
    ga_bytes_put_u64(&w, id->digest);
    ga_bytes_put_f64(&w, id->timeout_s);
    ga_backward_partial_put(&w, file->part);
    return ga_bytes_close_frame(&w, data, size, err);
}

/* The body of a file into *file. */
static void get_body(struct ga_byte_reader *r, struct ga_backward_sweep_file *file)
{
    struct ga_backward_sweep_id *id = &file->id;
    const struct ga_format *f;
    char name[64];

    ga_bytes_get_str(r, id->program, sizeof id->program);
    f = ga_header_get_format(r, id->format, sizeof id->format, "an unknown format");
    ga_bytes_get_str(r, id->kernel, sizeof id->kernel);
    ga_bytes_get_str(r, name, sizeof name);
    ga_bytes_need(r, ga_oracle_function_by_name(name, &id->reference) == 0
                     && !ga_function_is_forward(id->reference),
                  "a reference that is not a derivative");
    ga_bytes_get_str(r, id->domain, sizeof id->domain);
    id->pairs = ga_bytes_get_u64(r);
    id->dy = ga_bytes_get_u64(r);
    id->digest = ga_bytes_get_u64(r);
    id->timeout_s = ga_bytes_get_f64(r);
    if (r->failure || !f)
        return;
    file->part = ga_backward_partial_get(r, f);
    ga_bytes_need(r, !file->part || (file->part->n_rows == 1 && file->part->pairs == id->pairs
                                     && strcmp(file->part->domain, id->domain) == 0
                                     && file->part->row[0].reference == id->reference),
                  "a shard of another domain or kernel than its header says");
}

enum ga_io_status ga_backward_sweep_file_decode(const unsigned char *data, size_t size,
                                                struct ga_backward_sweep_file *file,
                                                struct ga_io_error *err)
{
    struct ga_byte_reader r;
    enum ga_io_status s;

    memset(file, 0, sizeof *file);
    s = ga_bytes_open_frame(data, size, MAGIC, VERSION, "backward partial file", &r, err);
    if (s != GA_IO_OK)
        return s;
    get_body(&r, file);
    return ga_bytes_close_body(&r, "bytes follow the shard", err);
}

void ga_backward_sweep_id_init(struct ga_backward_sweep_id *id, const char *program,
                               const struct ga_backward_sweep *s, uint64_t dy, double timeout_s)
{
    const struct ga_pairs *pairs = s->pairs;

    memset(id, 0, sizeof *id);
    snprintf(id->program, sizeof id->program, "%s", program);
    snprintf(id->format, sizeof id->format, "%s", pairs->format->name);
    snprintf(id->kernel, sizeof id->kernel, "%s", s->name);
    id->reference = s->reference;
    snprintf(id->domain, sizeof id->domain, "%s", pairs->spec);
    id->pairs = pairs->size;
    id->dy = dy;
    id->digest = pairs->kind == GA_PAIRS_FIXED_DY ? ga_partial_domain_digest(&pairs->x) : 0;
    id->timeout_s = timeout_s;
}

const char *ga_backward_sweep_id_differs(const struct ga_backward_sweep_id *a,
                                         const struct ga_backward_sweep_id *b, char *a_text,
                                         char *b_text, size_t cap)
{
#define TEXT_FIELD(field, name)                              \
    if (strcmp(a->field, b->field) != 0) {                   \
        snprintf(a_text, cap, "%s", a->field);               \
        snprintf(b_text, cap, "%s", b->field);               \
        return name;                                         \
    }
#define NUMBER_FIELD(field, name, fmt)                       \
    if (a->field != b->field) {                              \
        snprintf(a_text, cap, fmt, a->field);                \
        snprintf(b_text, cap, fmt, b->field);                \
        return name;                                         \
    }
    TEXT_FIELD(program, "program")
    TEXT_FIELD(format, "format")
    TEXT_FIELD(kernel, "kernel")
    if (a->reference != b->reference) {
        snprintf(a_text, cap, "%s", ga_function_name(a->reference));
        snprintf(b_text, cap, "%s", ga_function_name(b->reference));
        return "reference";
    }
    TEXT_FIELD(domain, "domain")
    NUMBER_FIELD(pairs, "domain size", "%" PRIu64)
    NUMBER_FIELD(dy, "dy", "0x%" PRIx64)
    NUMBER_FIELD(digest, "domain digest", "%016" PRIx64)
    NUMBER_FIELD(timeout_s, "timeout", "%g")
    return NULL;
#undef TEXT_FIELD
#undef NUMBER_FIELD
}
