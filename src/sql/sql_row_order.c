/* sql_row_order.c - a window of ids that releases their rows in id order (see the header).
 *
 * The ring grows by doubling from a few slots to max_slots, so a trace whose slices nest
 * shallowly keeps a small one; a slot is settled once its row (or its absence) is known, and
 * the oldest settled slots leave for the output queue at once.  Each id passes through the
 * ring once: a row costs two copies whatever the nesting. */
#include "sql/sql_row_order.h"

#include "core/grow.h"
#include "traceglot.h"

#include <stdlib.h>
#include <string.h>

enum { SLOT_OPEN, SLOT_ROW, SLOT_NONE };

#define ORDER_MIN_SLOTS 64

void sql_row_order_init(sql_row_order *o, size_t elem, bool in_order, size_t max_bytes)
{
    *o = (sql_row_order){.elem = elem, .in_order = in_order};
    const char *env = getenv("TG_SQL_SLICE_ORDER_MB");
    if (env && *env) {
        char *end;
        unsigned long mb = strtoul(env, &end, 10);
        if (!*end)
            max_bytes = (size_t)mb << 20;
    }
    size_t slots = ORDER_MIN_SLOTS;
    while (slots * 2 * elem <= max_bytes)
        slots *= 2;
    o->max_slots = slots;
}

void sql_row_order_free(sql_row_order *o)
{
    free(o->rows);
    free(o->state);
    free(o->out);
    *o = (sql_row_order){0};
}

static int emit(sql_row_order *o, const void *row)
{
    if (o->head == o->n)
        o->head = o->n = 0;
    if (tg_grow(&o->out, &o->cap_out, (o->n + 1) * o->elem, 1) < 0)
        return TG_ERR_NOMEM;
    memcpy(o->out + o->n * o->elem, row, o->elem);
    o->n++;
    return 0;
}

/* Hands out the settled slots at the base, up to the first open one (force: that one too,
 * given up: its row will come late). */
static int release(sql_row_order *o, bool force)
{
    size_t mask = o->n_slots - 1;
    while (o->base < o->next) {
        size_t at = (size_t)o->base & mask;
        if (o->state[at] == SLOT_OPEN) {
            if (!force)
                break;
            o->late++;
        } else if (o->state[at] == SLOT_ROW && emit(o, o->rows + at * o->elem) < 0) {
            return TG_ERR_NOMEM;
        }
        o->base++;
        force = false;
    }
    return 0;
}

/* Doubles the ring, each id of the window moving to its slot in the larger one. */
static int widen(sql_row_order *o)
{
    size_t n = o->n_slots ? o->n_slots * 2 : ORDER_MIN_SLOTS;
    unsigned char *rows = malloc(n * o->elem);
    uint8_t *state = malloc(n);
    if (!rows || !state) {
        free(rows);
        free(state);
        return TG_ERR_NOMEM;
    }
    for (int64_t id = o->base; id < o->next; id++) {
        size_t from = (size_t)id & (o->n_slots - 1), to = (size_t)id & (n - 1);
        state[to] = o->state[from];
        if (o->state[from] == SLOT_ROW)
            memcpy(rows + to * o->elem, o->rows + from * o->elem, o->elem);
    }
    free(o->rows);
    free(o->state);
    o->rows = rows;
    o->state = state;
    o->n_slots = n;
    return 0;
}

int64_t sql_row_order_take(sql_row_order *o, bool open)
{
    if (!o->in_order)
        return o->next++;
    if (!open && o->base == o->next) {
        o->base = ++o->next; /* nothing held: no slot needed */
        return o->next - 1;
    }
    if ((size_t)(o->next - o->base) == o->n_slots) {
        int rc = o->n_slots < o->max_slots ? widen(o) : release(o, true);
        if (rc < 0)
            return rc;
    }
    o->state[(size_t)o->next & (o->n_slots - 1)] = open ? SLOT_OPEN : SLOT_NONE;
    return o->next++;
}

int sql_row_order_put(sql_row_order *o, int64_t id, const void *row)
{
    if (!o->in_order || id < o->base)
        return row ? emit(o, row) : 0; /* out of the window: given up, or no order kept */
    size_t at = (size_t)id & (o->n_slots - 1);
    o->state[at] = row ? SLOT_ROW : SLOT_NONE;
    if (row)
        memcpy(o->rows + at * o->elem, row, o->elem);
    return id == o->base ? release(o, false) : 0;
}

int sql_row_order_flush(sql_row_order *o)
{
    if (!o->in_order)
        return 0;
    size_t mask = o->n_slots - 1;
    for (; o->base < o->next; o->base++) {
        size_t at = (size_t)o->base & mask;
        if (o->state[at] == SLOT_ROW && emit(o, o->rows + at * o->elem) < 0)
            return TG_ERR_NOMEM;
    }
    return 0;
}

const void *sql_row_order_pop(sql_row_order *o)
{
    return o->head < o->n ? o->out + o->elem * o->head++ : NULL;
}
