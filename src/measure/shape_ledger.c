/* The waiting chunk edges (measure/shape_ledger.h): a short unsorted array of
 * boundaries, each the pair between chunk b's last input and chunk b + 1's
 * first, holding whichever of the two has come. */
#include "measure/shape_ledger.h"

#include <stdlib.h>

#include "io/grow.h"
#include "measure/sweep.h"

struct boundary {
    uint64_t b;
    bool has_before, has_after;
    struct ga_shape_edge before, after;
};

struct ga_shape_ledger {
    struct boundary *open;
    size_t count, cap;
};

struct ga_shape_ledger *ga_shape_ledger_new(void)
{
    return calloc(1, sizeof(struct ga_shape_ledger));
}

void ga_shape_ledger_free(struct ga_shape_ledger *l)
{
    if (l)
        free(l->open);
    free(l);
}

/* The open boundary b, made if absent; NULL out of memory. */
static struct boundary *find(struct ga_shape_ledger *l, uint64_t b)
{
    struct boundary *grown;

    for (size_t i = 0; i < l->count; i++)
        if (l->open[i].b == b)
            return &l->open[i];
    if (!(grown = ga_grow(l->open, l->count, &l->cap, sizeof *grown, 16)))
        return NULL;
    l->open = grown;
    l->open[l->count] = (struct boundary){ .b = b };
    return &l->open[l->count++];
}

/* Judge boundary e when both its sides have come, and close it. */
static void settle(struct ga_shape_ledger *l, struct ga_shape *s, struct boundary *e)
{
    if (!e->has_before || !e->has_after)
        return;
    ga_shape_join(s, &e->before, &e->after);
    *e = l->open[--l->count];
}

int ga_shape_ledger_offer(struct ga_shape_ledger *l, struct ga_shape *s, uint64_t c,
                          const struct ga_shape_edge *first, const struct ga_shape_edge *last)
{
    struct boundary *e = find(l, c - 1);  /* c = 0: boundary 2^64 - 1, never completed */

    if (!e)
        return -1;
    e->has_after = true;
    e->after = *first;
    settle(l, s, e);
    if (!(e = find(l, c)))
        return -1;
    e->has_before = true;
    e->before = *last;
    settle(l, s, e);
    return 0;
}

void ga_shape_ledger_finish(struct ga_shape_ledger *l, struct ga_shape *s, uint64_t first,
                            uint64_t end, uint64_t size)
{
    s->has_head = s->has_tail = false;
    for (size_t i = 0; i < l->count && first < end; i++) {
        const struct boundary *e = &l->open[i];
        if (e->b == first - 1 && e->has_after) {
            s->has_head = true;
            s->head = e->after;
            s->head_index = first * GA_SWEEP_CHUNK;
        }
        if (e->b == end - 1 && e->has_before) {
            s->has_tail = true;
            s->tail = e->before;
            s->tail_index = (end * GA_SWEEP_CHUNK < size ? end * GA_SWEEP_CHUNK : size) - 1;
        }
    }
}
