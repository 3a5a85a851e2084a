/* The shape accumulator in a partial file (state/shape_file.h): flags,
 * counts and examples, each encoding as a u64, checked on reading against
 * the format. */
#include "state/shape_file.h"

#include <stdlib.h>

static void put_point(struct ga_byte_writer *w, const struct ga_shape_point *p)
{
    ga_bytes_put_u8(w, p->has);
    ga_bytes_put_u64(w, p->x);
    ga_bytes_put_u64(w, p->y);
}

static void put_violation(struct ga_byte_writer *w, const struct ga_shape_violation *v)
{
    ga_bytes_put_u8(w, v->has);
    ga_bytes_put_u64(w, v->lo);
    ga_bytes_put_u64(w, v->hi);
    ga_bytes_put_u64(w, v->y_lo);
    ga_bytes_put_u64(w, v->y_hi);
    ga_bytes_put_u64(w, v->steps);
}

static void put_edge(struct ga_byte_writer *w, bool has, uint64_t index,
                     const struct ga_shape_edge *e)
{
    ga_bytes_put_u8(w, has);
    ga_bytes_put_u64(w, index);
    ga_bytes_put_u8(w, e->measured);
    ga_bytes_put_u64(w, e->x);
    ga_bytes_put_u64(w, e->y);
    ga_bytes_put_u64(w, e->rounded);
}

void ga_shape_put(struct ga_byte_writer *w, const struct ga_shape *s)
{
    ga_bytes_put_u8(w, s != NULL);
    if (!s)
        return;
    ga_bytes_put_u8(w, s->monotone);
    ga_bytes_put_u8(w, s->odd);
    for (int i = 0; i < 2; i++) {
        ga_bytes_put_u64(w, s->side[i].pairs);
        ga_bytes_put_u64(w, s->side[i].violations);
        put_violation(w, &s->side[i].first);
        put_violation(w, &s->side[i].worst);
    }
    put_point(w, &s->minimum);
    put_point(w, &s->truth_minimum);
    ga_bytes_put_u64(w, s->sign_errors);
    put_point(w, &s->first_sign_error);
    ga_bytes_put_u64(w, s->odd_pairs);
    ga_bytes_put_u64(w, s->odd_breaks);
    put_point(w, &s->first_odd_break);
    ga_bytes_put_u64(w, s->first_odd_break_neg);
    put_edge(w, s->has_head, s->head_index, &s->head);
    put_edge(w, s->has_tail, s->tail_index, &s->tail);
}

/* An encoding of f, else r fails. */
static ga_bits get_bits(struct ga_byte_reader *r, const struct ga_format *f)
{
    uint64_t v = ga_bytes_get_u64(r);
    ga_bytes_need(r, ga_fits(f, v), "a shape example is not an encoding of the format");
    return v;
}

static bool get_flag(struct ga_byte_reader *r)
{
    uint8_t v = ga_bytes_get_u8(r);
    ga_bytes_need(r, v <= 1, "a shape flag is neither 0 nor 1");
    return v == 1;
}

static void get_point(struct ga_byte_reader *r, const struct ga_format *f, struct ga_shape_point *p)
{
    p->has = get_flag(r);
    p->x = get_bits(r, f);
    p->y = get_bits(r, f);
}

static void get_violation(struct ga_byte_reader *r, const struct ga_format *f,
                          struct ga_shape_violation *v)
{
    v->has = get_flag(r);
    v->lo = get_bits(r, f);
    v->hi = get_bits(r, f);
    v->y_lo = get_bits(r, f);
    v->y_hi = get_bits(r, f);
    v->steps = ga_bytes_get_u64(r);
}

static void get_edge(struct ga_byte_reader *r, const struct ga_format *f, bool *has,
                     uint64_t *index, struct ga_shape_edge *e)
{
    *has = get_flag(r);
    *index = ga_bytes_get_u64(r);
    e->measured = get_flag(r);
    e->x = get_bits(r, f);
    e->y = get_bits(r, f);
    e->rounded = get_bits(r, f);
}

void ga_shape_get(struct ga_byte_reader *r, const struct ga_format *f, enum ga_function reference,
                  struct ga_shape **out)
{
    struct ga_shape *s;
    bool monotone, odd;

    *out = NULL;
    if (!get_flag(r))
        return;
    monotone = get_flag(r);
    odd = get_flag(r);
    if (!(s = malloc(sizeof *s))) {
        ga_bytes_fail(r, "out of memory");
        return;
    }
    ga_shape_init(s, f, reference, monotone, odd);
    for (int i = 0; i < 2; i++) {
        s->side[i].pairs = ga_bytes_get_u64(r);
        s->side[i].violations = ga_bytes_get_u64(r);
        get_violation(r, f, &s->side[i].first);
        get_violation(r, f, &s->side[i].worst);
        ga_bytes_need(r, s->side[i].violations <= s->side[i].pairs
                && (s->side[i].violations > 0) == s->side[i].first.has
                && s->side[i].first.has == s->side[i].worst.has,
             "more monotonicity violations than pairs, or examples that do not match the count");
    }
    get_point(r, f, &s->minimum);
    get_point(r, f, &s->truth_minimum);
    s->sign_errors = ga_bytes_get_u64(r);
    get_point(r, f, &s->first_sign_error);
    s->odd_pairs = ga_bytes_get_u64(r);
    s->odd_breaks = ga_bytes_get_u64(r);
    get_point(r, f, &s->first_odd_break);
    s->first_odd_break_neg = get_bits(r, f);
    get_edge(r, f, &s->has_head, &s->head_index, &s->head);
    get_edge(r, f, &s->has_tail, &s->tail_index, &s->tail);
    ga_bytes_need(r, (s->sign_errors > 0) == s->first_sign_error.has
            && s->odd_breaks <= s->odd_pairs && (s->odd_breaks > 0) == s->first_odd_break.has
            && (!s->has_head || !s->has_tail || s->head_index <= s->tail_index),
         "shape counts that do not match their examples");
    *out = s;
}
